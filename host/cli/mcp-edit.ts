import { FatalInputError } from '../errors.js';
import { SettingsError } from '../config/errors.js';
import { loadSettings } from '../load-settings.js';
import { editJsoncMembers } from '../config/jsonc-edit.js';
import { readJsoncObject } from '../config/jsonc-file.js';
import { BUILTIN_ALIASES, toolPrefixes } from '../config/server-names.js';
import { EXIT_ERROR, EXIT_OK, parseScope, settingsPathFor, type McpCommandOptions } from './mcp-shared.js';

/** `mcp add`: one entry into the chosen settings file, the rest of the file untouched. */
export function addServer(
  argv: string[],
  opts: McpCommandOptions,
  out: NodeJS.WritableStream,
  _err: NodeJS.WritableStream,
): number {
  const p = parseAddArgs(argv, 2);
  const [name, target, ...args] = p.positionals;
  if (!name || !target) throw new FatalInputError('mcp add needs <name> and <command-or-url>.');
  if (!name.trim()) throw new FatalInputError('The server name must not be blank.');
  const entry: Record<string, unknown> = {};
  if (p.transport === 'stdio') {
    entry.command = target;
    if (args.length) entry.args = args;
    if (Object.keys(p.env).length) entry.env = p.env;
  } else {
    if (args.length)
      throw new FatalInputError(`Extra arguments after the URL are only for stdio servers: ${args.join(' ')}`);
    try {
      new URL(target);
    } catch {
      throw new FatalInputError(`"${target}" is not a valid URL.`);
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
  const existed = serversIn(path).has(name);
  writeServerEntries(path, new Map([[name, entry]]));
  out.write(
    `MCP server "${name}" ${existed ? 'updated in' : 'added to'} ${p.scope} settings (${path}), transport ${p.transport}.\n`,
  );
  out.write(namingNote([name], path));
  if (p.scope === 'project') out.write(untrustedProjectNote(opts));
  return EXIT_OK;
}

/** Project servers of an untrusted folder do not start: say so where they are added. */
export function untrustedProjectNote(opts: McpCommandOptions): string {
  let trusted = true;
  try {
    trusted = loadSettings({ cwd: opts.cwd, env: opts.env }).trust.trusted;
  } catch {
    // Settings that do not load are reported by the commands that use them; the edit itself succeeded.
  }
  return trusted
    ? ''
    : 'This folder is not trusted yet: its project servers start once you trust it ("gemini-mcp trust").\n';
}

/** `mcp remove`: deletes one entry, keeping comments and the other entries as they were. */
export function removeServer(
  argv: string[],
  opts: McpCommandOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): number {
  const p = parseAddArgs(argv, 1);
  const [name, ...extra] = p.positionals;
  if (!name || extra.length) throw new FatalInputError('mcp remove needs exactly one <name>.');
  // Without --scope the server is found in whichever scope holds it; in both, the user must say which.
  const scopes = p.scopeGiven ? [p.scope] : (['project', 'user'] as const);
  const holding = scopes
    .map((scope) => ({ scope, path: settingsPathFor(scope, opts) }))
    .filter((s) => serversIn(s.path).has(name));
  if (holding.length === 0) {
    const where = scopes.map((scope) => `${scope} settings (${settingsPathFor(scope, opts)})`).join(' or ');
    err.write(`MCP server "${name}" not found in ${where}.\n`);
    return EXIT_ERROR;
  }
  if (holding.length > 1) {
    err.write(
      `MCP server "${name}" is in both project settings (${holding[0]!.path}) and user settings (${holding[1]!.path}): ` +
        `say which with --scope project or --scope user.\n`,
    );
    return EXIT_ERROR;
  }
  const { scope, path } = holding[0]!;
  writeServerEntries(path, new Map([[name, undefined]]));
  out.write(`MCP server "${name}" removed from ${scope} settings (${path}).\n`);
  return EXIT_OK;
}

/**
 * The file's `mcpServers`, as a Map so that names like `constructor` or `__proto__` are names and nothing
 * else; a file that does not parse, or a non-object `mcpServers`, is never rewritten.
 */
export function serversIn(path: string): Map<string, unknown> {
  const { value } = readJsoncObject(path);
  const s = Object.hasOwn(value, 'mcpServers') ? value.mcpServers : undefined;
  if (s === undefined) return new Map();
  if (!s || typeof s !== 'object' || Array.isArray(s)) {
    throw new SettingsError(
      `Invalid settings in ${path}: "mcpServers" must be an object (left unchanged)`,
      path,
      'mcpServers',
    );
  }
  return new Map(Object.entries(s));
}

/**
 * Sets (or, with undefined, removes) entries under `mcpServers`, preserving the file's comments and layout,
 * in one pass however many there are.
 */
export function writeServerEntries(path: string, entries: ReadonlyMap<string, unknown>): void {
  serversIn(path);
  editJsoncMembers(path, ['mcpServers'], entries);
}

/** Tells the user when a name is not used as-is for tool names, or takes a built-in's place. */
export function namingNote(names: string[], path: string): string {
  const all = [...serversIn(path).keys()];
  const prefixes = toolPrefixes(all);
  const lines: string[] = [];
  for (const name of names) {
    const prefix = prefixes.get(name);
    if (prefix && prefix !== name)
      lines.push(`  Its tools are named ${prefix}__<tool> ("${name}" is not a valid tool-name prefix).`);
    if ((BUILTIN_ALIASES as readonly string[]).includes(name)) {
      lines.push(
        `  "${name}" replaces the built-in ${name} server (add "replaceBuiltin": true to the entry to silence the notice, or pick another name to keep both).`,
      );
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

interface Parsed {
  scope: 'user' | 'project';
  /** `--scope` was given (else `project` is the default for add and a search for remove). */
  scopeGiven?: boolean;
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
  '-s': 'scope',
  '--scope': 'scope',
  '-t': 'transport',
  '--transport': 'transport',
  '--type': 'transport',
  '-e': 'env',
  '--env': 'env',
  '-H': 'header',
  '--header': 'header',
  '--timeout': 'timeout',
  '--description': 'description',
  '--include-tools': 'include',
  '--exclude-tools': 'exclude',
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
      if (a.startsWith('-') && a.length > 1) throw new FatalInputError(`Unknown option ${a}.`);
      p.positionals.push(a);
      i++;
      continue;
    }
    const value = eq > 0 ? a.slice(eq + 1) : argv[i + 1];
    if (value === undefined) throw new FatalInputError(`Option ${flag} needs a value.`);
    i += eq > 0 ? 1 : 2;
    applyOption(p, key, flag, value);
  }
  return p;
}

function applyOption(p: Parsed, key: string, flag: string, value: string): void {
  const list = (v: string) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  switch (key) {
    case 'scope':
      p.scope = parseScope(flag, value);
      p.scopeGiven = true;
      return;
    case 'transport':
      if (value !== 'stdio' && value !== 'http' && value !== 'sse')
        throw new FatalInputError(`${flag} must be stdio, http or sse, not "${value}".`);
      p.transport = value;
      return;
    case 'env': {
      const eq = value.indexOf('=');
      if (eq <= 0) throw new FatalInputError(`${flag} expects KEY=VALUE, not "${value}".`);
      p.env[value.slice(0, eq)] = value.slice(eq + 1);
      return;
    }
    case 'header': {
      const colon = value.indexOf(':');
      if (colon <= 0) throw new FatalInputError(`${flag} expects "Name: value", not "${value}".`);
      p.headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
      return;
    }
    case 'timeout': {
      const n = Number(value);
      if (!Number.isInteger(n) || n <= 0)
        throw new FatalInputError(`${flag} expects a positive number of milliseconds, not "${value}".`);
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
