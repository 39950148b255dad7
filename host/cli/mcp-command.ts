import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { loadSettings, geminiHome, userSettingsPath, workspaceSettingsPath, defaultProjectTempDir, SettingsError } from '../config/settings.js';
import { resolveServerSet, validateAlias, type ResolvedServerConfig } from '../config/servers.js';
import { stripJsonComments } from '../config/expand.js';
import type { ServerState } from '../mcp/client-manager.js';

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_CONFIG = 52;

export interface McpCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Bound on waiting for servers in `mcp list` (default 35 s: the connect timeout plus a margin). */
  settleTimeoutMs?: number;
}

const USAGE = `Usage:
  gemini-mcp mcp list
  gemini-mcp mcp add [-s user|project] [-t stdio|http|sse] [-e KEY=VALUE]... [-H 'Name: value']...
                     [--trust] [--timeout ms] [--description text] [--include-tools a,b] [--exclude-tools a,b]
                     <name> <command-or-url> [args...]
  gemini-mcp mcp remove [-s user|project] <name>
Options go before <name>; everything after <command-or-url> is passed to the server unchanged.
`;

class UsageError extends Error {}

/** `gemini-mcp mcp list|add|remove`; returns the exit code (0 ok, 1 error, 52 configuration error). */
export async function runMcpCommand(argv: string[], opts: McpCommandOptions = { cwd: process.cwd() }): Promise<number> {
  const out = opts.stdout ?? process.stdout;
  const err = opts.stderr ?? process.stderr;
  const [sub, ...rest] = argv;
  try {
    switch (sub) {
      case 'list':
        return await listServers(opts, out);
      case 'add':
        return addServer(rest, opts, out);
      case 'remove':
      case 'rm':
        return removeServer(rest, opts, out, err);
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        out.write(USAGE);
        return sub === undefined ? EXIT_ERROR : EXIT_OK;
      default:
        throw new UsageError(`Unknown mcp command "${sub}".`);
    }
  } catch (e) {
    if (e instanceof SettingsError) {
      err.write(`${e.message}\n`);
      return EXIT_CONFIG;
    }
    if (e instanceof UsageError) {
      err.write(`${e.message}\n${USAGE}`);
      return EXIT_ERROR;
    }
    err.write(`Error: ${(e as Error).message}\n`);
    return EXIT_ERROR;
  }
}

// ---- list ----

async function listServers(opts: McpCommandOptions, out: NodeJS.WritableStream): Promise<number> {
  const env = opts.env ?? process.env;
  const cwd = resolve(opts.cwd);
  const loaded = loadSettings({ cwd, env });
  const roots = [cwd, ...(loaded.merged.context?.includeDirectories ?? []).map((d) => resolve(cwd, d))];
  const { servers, blocked } = resolveServerSet(loaded, { cwd, roots, projectTempDir: defaultProjectTempDir(cwd, env), env });
  for (const w of loaded.warnings) out.write(`Warning: ${w}\n`);
  if (servers.length === 0 && blocked.length === 0) {
    out.write('No MCP servers configured.\n');
    return EXIT_OK;
  }
  // Loaded here so add/remove do not pay for the MCP SDK.
  const { McpClientManager } = await import('../mcp/client-manager.js');
  const manager = new McpClientManager({ servers, roots });
  try {
    manager.start();
    await manager.whenSettled(opts.settleTimeoutMs ?? 35_000);
    out.write('Configured MCP servers:\n\n');
    for (const s of manager.states()) out.write(describe(s));
    for (const b of blocked) out.write(`- ${b.alias} - Blocked: ${b.reason}\n`);
  } finally {
    await manager.close();
  }
  return EXIT_OK;
}

function where(c: ResolvedServerConfig): string {
  if (c.builtIn) return 'built-in, stdio';
  if (c.url) return `${c.transport === 'auto' ? 'http/sse' : c.transport}: ${c.url}`;
  return `stdio: ${[c.command, ...(c.args ?? [])].join(' ')}`;
}

function describe(s: ServerState): string {
  const head = `${s.alias} (${where(s.config)})`;
  const indent = (t: string) => t.trimEnd().split('\n').map((l) => `    ${l}`).join('\n');
  switch (s.status) {
    case 'connected': {
      const extra = [`${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`];
      if (s.prompts.length) extra.push(`${s.prompts.length} prompt${s.prompts.length === 1 ? '' : 's'}`);
      if (s.resources.length) extra.push(`${s.resources.length} resource${s.resources.length === 1 ? '' : 's'}`);
      return `✓ ${head} - Connected, ${extra.join(', ')}\n`;
    }
    case 'connecting':
      return `… ${head} - Still connecting (no answer yet)\n`;
    default:
      return `✗ ${head} - ${s.status === 'failed' ? 'Failed' : 'Disconnected'}: ${s.error ? `\n${indent(s.error)}` : 'unknown reason'}\n`;
  }
}

// ---- add / remove ----

interface Parsed {
  scope: 'user' | 'project';
  transport: 'stdio' | 'http' | 'sse';
  env: Record<string, string>;
  headers: Record<string, string>;
  trust?: boolean;
  timeout?: number;
  description?: string;
  includeTools?: string[];
  excludeTools?: string[];
  positionals: string[];
}

const VALUE_OPTS: Record<string, string> = {
  '-s': 'scope', '--scope': 'scope', '-t': 'transport', '--transport': 'transport', '--type': 'transport',
  '-e': 'env', '--env': 'env', '-H': 'header', '--header': 'header', '--timeout': 'timeout',
  '--description': 'description', '--include-tools': 'include', '--exclude-tools': 'exclude',
};

/** Options first; once name and command are seen, the rest belongs to the server's own argv. */
function parseAddArgs(argv: string[], maxPositionals: number): Parsed {
  const p: Parsed = { scope: 'project', transport: 'stdio', env: {}, headers: {}, positionals: [] };
  let i = 0;
  while (i < argv.length) {
    const a = argv[i]!;
    if (p.positionals.length >= maxPositionals) {
      p.positionals.push(...argv.slice(a === '--' && p.positionals.length === maxPositionals ? i + 1 : i));
      break;
    }
    if (a === '--') {
      p.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a === '--trust') {
      p.trust = true;
      i++;
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const key = VALUE_OPTS[flag];
    if (!key) {
      if (a.startsWith('-') && a.length > 1) throw new UsageError(`Unknown option ${a}.`);
      p.positionals.push(a);
      i++;
      continue;
    }
    const value = eq > 0 ? a.slice(eq + 1) : argv[i + 1];
    if (value === undefined) throw new UsageError(`Option ${flag} needs a value.`);
    i += eq > 0 ? 1 : 2;
    applyOption(p, key, flag, value);
  }
  return p;
}

function applyOption(p: Parsed, key: string, flag: string, value: string): void {
  const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);
  switch (key) {
    case 'scope':
      if (value !== 'user' && value !== 'project') throw new UsageError(`${flag} must be "user" or "project", not "${value}".`);
      p.scope = value;
      return;
    case 'transport':
      if (value !== 'stdio' && value !== 'http' && value !== 'sse') throw new UsageError(`${flag} must be stdio, http or sse, not "${value}".`);
      p.transport = value;
      return;
    case 'env': {
      const eq = value.indexOf('=');
      if (eq <= 0) throw new UsageError(`${flag} expects KEY=VALUE, not "${value}".`);
      p.env[value.slice(0, eq)] = value.slice(eq + 1);
      return;
    }
    case 'header': {
      const colon = value.indexOf(':');
      if (colon <= 0) throw new UsageError(`${flag} expects "Name: value", not "${value}".`);
      p.headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
      return;
    }
    case 'timeout': {
      const n = Number(value);
      if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} expects a positive number of milliseconds, not "${value}".`);
      p.timeout = n;
      return;
    }
    case 'description':
      p.description = value;
      return;
    case 'include':
      p.includeTools = list(value);
      return;
    case 'exclude':
      p.excludeTools = list(value);
  }
}

function settingsPathFor(scope: 'user' | 'project', opts: McpCommandOptions): string {
  const env = opts.env ?? process.env;
  const user = userSettingsPath(geminiHome(env));
  if (scope === 'user') return user;
  const project = workspaceSettingsPath(opts.cwd);
  if (resolve(project) === resolve(user)) {
    throw new UsageError('The current directory is the home directory: use --scope user to edit the user settings.');
  }
  return project;
}

function addServer(argv: string[], opts: McpCommandOptions, out: NodeJS.WritableStream): number {
  const p = parseAddArgs(argv, 2);
  const [name, target, ...args] = p.positionals;
  if (!name || !target) throw new UsageError('mcp add needs <name> and <command-or-url>.');
  const problem = validateAlias(name);
  if (problem) throw new SettingsError(problem, undefined, `mcpServers.${name}`);
  const entry: Record<string, unknown> = {};
  if (p.transport === 'stdio') {
    entry.command = target;
    if (args.length) entry.args = args;
    if (Object.keys(p.env).length) entry.env = p.env;
  } else {
    if (args.length) throw new UsageError(`Extra arguments after the URL are only for stdio servers: ${args.join(' ')}`);
    try {
      new URL(target);
    } catch {
      throw new UsageError(`"${target}" is not a valid URL.`);
    }
    entry.url = target;
    entry.type = p.transport;
    if (Object.keys(p.headers).length) entry.headers = p.headers;
  }
  if (p.timeout !== undefined) entry.timeout = p.timeout;
  if (p.trust) entry.trust = true;
  if (p.description) entry.description = p.description;
  if (p.includeTools) entry.includeTools = p.includeTools;
  if (p.excludeTools) entry.excludeTools = p.excludeTools;

  const path = settingsPathFor(p.scope, opts);
  const file = readRaw(path);
  const servers = mcpServersOf(file, path);
  const existed = name in servers;
  servers[name] = entry;
  file.mcpServers = servers;
  writeAtomic(path, file);
  out.write(`MCP server "${name}" ${existed ? 'updated in' : 'added to'} ${p.scope} settings (${path}), transport ${p.transport}.\n`);
  return EXIT_OK;
}

function removeServer(argv: string[], opts: McpCommandOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): number {
  const p = parseAddArgs(argv, 1);
  const [name, ...extra] = p.positionals;
  if (!name || extra.length) throw new UsageError('mcp remove needs exactly one <name>.');
  const path = settingsPathFor(p.scope, opts);
  const file = existsSync(path) ? readRaw(path) : {};
  const servers = mcpServersOf(file, path);
  if (!(name in servers)) {
    err.write(`MCP server "${name}" not found in ${p.scope} settings (${path}).\n`);
    return EXIT_ERROR;
  }
  delete servers[name];
  file.mcpServers = servers;
  writeAtomic(path, file);
  out.write(`MCP server "${name}" removed from ${p.scope} settings (${path}).\n`);
  return EXIT_OK;
}

/** The file as JSON; an unreadable file is a configuration error and is never overwritten. */
function readRaw(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonComments(text));
  } catch (e) {
    throw new SettingsError(`Invalid settings file ${path}: ${(e as Error).message} (left unchanged)`, path);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SettingsError(`Invalid settings file ${path}: the top level must be a JSON object (left unchanged)`, path);
  }
  return parsed as Record<string, unknown>;
}

function mcpServersOf(file: Record<string, unknown>, path: string): Record<string, unknown> {
  const s = file.mcpServers;
  if (s === undefined) return {};
  if (!s || typeof s !== 'object' || Array.isArray(s)) {
    throw new SettingsError(`Invalid settings in ${path}: "mcpServers" must be an object (left unchanged)`, path, 'mcpServers');
  }
  return { ...(s as Record<string, unknown>) };
}

function writeAtomic(path: string, data: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
