import { readConfigFile } from './config-file.js';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Node, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { SettingsError } from './errors.js';

/**
 * Other MCP clients' configuration files, read and mapped to `mcpServers` entries. Everything a client
 * writes that has a meaning here is carried over; the rest is reported, never silently lost.
 */

/** Claude Code's `~/.claude.json` also keeps per-project history, so its files run larger than settings. */
const IMPORT_FILE_MAX_BYTES = 64 * 1024 * 1024;

export const IMPORT_SOURCES = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface ImportedServer {
  name: string;
  entry: Record<string, unknown>;
  /** One line per decision worth telling: transport chosen, fields dropped, variables to set. */
  notes: string[];
}

export interface ImportResult {
  file: string;
  servers: ImportedServer[];
  /** Entries that could not be mapped at all, with the reason. */
  rejected: { name: string; reason: string }[];
}

/** Where each client keeps its file (the first that exists wins); `cwd` for the project-level ones. */
export function candidateFiles(source: ImportSource, cwd: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const home = env.HOME || homedir();
  switch (source) {
    case 'claude-desktop':
      return [
        join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Claude', 'claude_desktop_config.json'),
        join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json'),
        ...(env.APPDATA ? [join(env.APPDATA, 'Claude', 'claude_desktop_config.json')] : []),
      ];
    case 'claude-code':
      return [join(cwd, '.mcp.json')];
    case 'cursor':
      return [join(cwd, '.cursor', 'mcp.json'), join(home, '.cursor', 'mcp.json')];
    case 'vscode':
      return [join(cwd, '.vscode', 'mcp.json')];
  }
}

/** Reads `file` (comments and trailing commas allowed, as these clients accept them) and maps its servers. */
export function readImportFile(source: ImportSource, file: string, cwd: string): ImportResult {
  const text = readConfigFile(file, IMPORT_FILE_MAX_BYTES);
  if (text === undefined) throw new SettingsError(`${file} does not exist`, file);
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true });
  const value = tree && plainValue(tree);
  if (errors.length || !value || typeof value !== 'object' || Array.isArray(value)) {
    const why = errors.length
      ? `${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}`
      : 'the top level must be an object';
    throw new SettingsError(`Cannot read ${file}: ${why}`, file);
  }
  const doc = value as Record<string, unknown>;
  // Null-prototype objects throughout: `__proto__` or `constructor` is only ever a key of the file.
  const block = source === 'vscode' ? (doc.servers ?? doc.mcpServers) : doc.mcpServers;
  if (!isObject(block))
    throw new SettingsError(`${file} has no "${source === 'vscode' ? 'servers' : 'mcpServers'}" object`, file);
  const inputList = source === 'vscode' && Array.isArray(doc.inputs) ? (doc.inputs as unknown[]) : [];
  // Looked up by id once per variable: a Map keeps thousands of entries linear.
  const inputs = new Map<unknown, Record<string, unknown>>();
  for (const i of inputList) if (isObject(i) && !inputs.has(i.id)) inputs.set(i.id, i);
  const result: ImportResult = { file, servers: [], rejected: [] };
  for (const [name, raw] of Object.entries(block)) {
    if (!isObject(raw)) {
      result.rejected.push({ name, reason: 'not an object' });
      continue;
    }
    const mapped = mapEntry(raw, { cwd, inputs });
    if ('reason' in mapped) result.rejected.push({ name, reason: mapped.reason });
    else result.servers.push({ name, ...mapped });
  }
  return result;
}

/**
 * A parsed JSON value with every object built without a prototype, so a key named `__proto__` is kept as
 * a key (JSON.parse-style assignment would set the prototype instead, dropping the entry and letting a
 * top-level `"__proto__": {"mcpServers": …}` block show through as if it were the file's own).
 */
function plainValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const obj: Record<string, unknown> = Object.create(null);
      for (const prop of node.children ?? []) {
        const [key, value] = prop.children ?? [];
        if (key && value) obj[String(key.value)] = plainValue(value);
      }
      return obj;
    }
    case 'array':
      return (node.children ?? []).map(plainValue);
    default:
      return node.value;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Fields that carry over unchanged; anything else on an entry is reported as dropped. */
const KNOWN = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'timeout', 'description']);

interface MapContext {
  cwd: string;
  inputs: ReadonlyMap<unknown, Record<string, unknown>>;
}

function mapEntry(
  raw: Record<string, unknown>,
  ctx: MapContext,
): { entry: Record<string, unknown>; notes: string[] } | { reason: string } {
  const notes: string[] = [];
  const vars = new Set<string>();
  const str = (v: unknown): string => rewriteVariables(String(v), ctx, vars);
  const strMap = (v: unknown): Record<string, string> | undefined =>
    isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, str(x)])) : undefined;
  const type = typeof raw.type === 'string' ? raw.type : undefined;
  const entry: Record<string, unknown> = {};
  if (typeof raw.command === 'string' && type !== 'http' && type !== 'sse') {
    entry.command = str(raw.command);
    if (Array.isArray(raw.args)) entry.args = raw.args.map(str);
    const env = strMap(raw.env);
    if (env && Object.keys(env).length) entry.env = env;
    if (typeof raw.cwd === 'string') entry.cwd = str(raw.cwd);
  } else if (typeof raw.url === 'string') {
    const url = str(raw.url);
    if (type === 'sse') Object.assign(entry, { url, type: 'sse' });
    else if (type === 'http' || type === 'streamable-http' || type === 'streamableHttp') entry.httpUrl = url;
    else {
      entry.url = url;
      notes.push('no transport type given: Streamable HTTP is tried first, then SSE');
    }
    const headers = strMap(raw.headers);
    if (headers && Object.keys(headers).length) entry.headers = headers;
  } else {
    return { reason: 'neither "command" nor "url"' };
  }
  if (typeof raw.timeout === 'number' && raw.timeout > 0) entry.timeout = raw.timeout;
  if (typeof raw.description === 'string') entry.description = raw.description;
  const dropped = Object.keys(raw).filter((k) => !KNOWN.has(k));
  if (dropped.length) notes.push(`not carried over (no equivalent here): ${dropped.join(', ')}`);
  for (const v of vars) notes.push(v);
  return { entry, notes };
}

/**
 * `${env:NAME}` (VS Code, Cursor) becomes `${NAME}`, which settings expand from the environment;
 * `${input:id}` (a VS Code prompt) becomes `${ID}` with a note to set it; `${workspaceFolder}` and
 * `${userHome}` become paths.
 */
function rewriteVariables(text: string, ctx: MapContext, notes: Set<string>): string {
  return text.replace(
    /\$\{(env|input):([^}]+)\}|\$\{(workspaceFolder|userHome)\}/g,
    (_all, kind: string, id: string, folder: string) => {
      if (folder === 'workspaceFolder') return ctx.cwd;
      if (folder === 'userHome') return homedir();
      if (kind === 'env') return `\${${id}}`;
      const name = id.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
      const input = ctx.inputs.get(id);
      const what = typeof input?.description === 'string' ? ` (VS Code asked: "${input.description}")` : '';
      notes.add(`set ${name} in your environment${what}: the input \${input:${id}} now reads \${${name}}`);
      return `\${${name}}`;
    },
  );
}
