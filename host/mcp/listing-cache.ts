import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { Prompt, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import { writeFileAtomic } from '../atomic-file.js';

/**
 * What a server offered the last time it connected, kept on disk so the next session can declare its
 * tools without starting it. The key covers everything that could change the listing: the command,
 * its arguments, the entry files' mtime and size, the Node version, the environment (less what changes
 * with every terminal: VOLATILE_ENV), the working directory and, for remote servers, the URL and
 * headers. Only the hash of the key is stored.
 */
export interface CachedListing {
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  instructions?: string;
  savedAt: number;
  /** When a session last called one of its tools (stamped at most hourly): recent use starts it early. */
  usedAt?: number;
}

/** A resource whose text depends only on the files named in `inputs` (path → "mtime:size" or "-" when absent). */
export interface CachedResource {
  text: string;
  inputs: Record<string, string>;
}

/** Bumped when the stored shape changes: older files are simply misses. */
const FORMAT = 1;

/**
 * A file's mtime and size; a directory counts by existence only (its mtime moves with every entry), and
 * so does anything else that is not a regular file (a terminal's mtime moves with every keystroke).
 */
export function fileStamp(path: string): string {
  try {
    const st = statSync(path);
    if (st.isDirectory()) return 'dir';
    if (!st.isFile()) return 'other';
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return '-';
  }
}

/** The command's file: as given when it has a slash, else the first match on PATH. */
function commandFile(
  command: string,
  cwd: string | undefined,
  env: Record<string, string> | undefined,
): string | undefined {
  if (command.includes('/')) return resolve(cwd ?? process.cwd(), command);
  for (const dir of (env?.PATH ?? process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, command);
    if (fileStamp(p) !== '-') return p;
  }
  return undefined;
}

/**
 * Arguments that name an existing file (a script, a config), with their stamps, which enter the key.
 * Found through `stamp` itself: a caller keying many servers remembers each file's stamp, so a script
 * that all of them run is stat'ed once, not once per server and again for its stamp.
 */
function argFileStamps(args: string[], cwd: string | undefined, stamp: (path: string) => string): [string, string][] {
  const out: [string, string][] = [];
  for (const a of args) {
    if (a.startsWith('-') || !(a.includes('/') || /\.(m?js|cjs|ts|py|json)$/.test(a))) continue;
    const p = isAbsolute(a) ? a : resolve(cwd ?? process.cwd(), a);
    const s = stamp(p);
    if (s !== '-' && s !== 'dir' && s !== 'other') out.push([p, s]);
  }
  return out;
}

function pick(env: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.filter((n) => env[n] !== undefined).map((n) => [n, env[n]!]));
}

/**
 * Variables that differ from one terminal, tab, login or shell to the next and say nothing about what a
 * server offers. A third-party server gets the user's whole environment, and with these in its key every
 * new tab would start all its servers again to re-list them. PWD repeats the working directory, which
 * the key has. A listing that did depend on one of them is replaced as soon as its server connects.
 */
const VOLATILE_ENV =
  /^(_|OLDPWD|PWD|SHLVL|COLUMNS|LINES|WINDOWID|TERM_SESSION_ID|ITERM_SESSION_ID|KITTY_WINDOW_ID|KITTY_PID|ALACRITTY_WINDOW_ID|WEZTERM_PANE|TMUX_PANE|SSH_CLIENT|SSH_CONNECTION|SSH_TTY|SSH_AUTH_SOCK|GPG_TTY|XDG_SESSION_ID|INVOCATION_ID|JOURNAL_STREAM|SECURITYSESSIONID|TERM_PROGRAM_VERSION|VSCODE_PID|VSCODE_IPC_HOOK_CLI|VSCODE_GIT_IPC_HANDLE|VSCODE_GIT_ASKPASS_\w+|VSCODE_INJECTION)$/;

// Every third-party server's environment holds the same names: each is tested once per process.
const volatileNames = new Map<string, boolean>();

function isVolatile(name: string): boolean {
  let volatile = volatileNames.get(name);
  if (volatile === undefined) volatileNames.set(name, (volatile = VOLATILE_ENV.test(name)));
  return volatile;
}

interface EnvDigest {
  stable: Record<string, string>;
  size: number;
  digest: string;
}

/**
 * The digests of the last few environments keyed. Most servers of a session get the same environment
 * (the user's, sanitised, plus GEMINI_CLI) in a fresh object each: copying, serialising and hashing it
 * again per server was most of a key's cost and of its garbage with 100 servers. Comparing it with one
 * already hashed allocates nothing; any differing, added or missing variable makes a new digest.
 */
const envDigests: EnvDigest[] = [];
const ENV_DIGESTS_KEPT = 4;

function sameStableEnv(known: EnvDigest, env: Record<string, string>): boolean {
  let n = 0;
  for (const k in env) {
    if (isVolatile(k)) continue;
    if (known.stable[k] !== env[k]) return false;
    n++;
  }
  return n === known.size;
}

/** A digest of the environment less its volatile names, the same whatever the variables' order. */
function stableEnvDigest(env: Record<string, string>): string {
  for (const known of envDigests) if (sameStableEnv(known, env)) return known.digest;
  const stable: Record<string, string> = {};
  for (const k in env) if (!isVolatile(k)) stable[k] = env[k]!;
  const names = Object.keys(stable).sort();
  const digest = createHash('sha256')
    .update(JSON.stringify(names.map((k) => [k, stable[k]])))
    .digest('hex');
  envDigests.unshift({ stable, size: names.length, digest });
  if (envDigests.length > ENV_DIGESTS_KEPT) envDigests.pop();
  return digest;
}

/**
 * The cache key of a server's configuration (a hex digest). `stamp` tells a file's mtime and size: a
 * caller keying many servers at once passes one that remembers them (they mostly share one command).
 */
export function listingKey(config: ResolvedServerConfig, stamp: (path: string) => string = fileStamp): string {
  const files: Record<string, string> = {};
  if (config.transport === 'stdio' && config.command) {
    const cmd = commandFile(config.command, config.cwd, config.env);
    if (cmd) files[cmd] = stamp(cmd);
    for (const [f, s] of argFileStamps(config.args ?? [], config.cwd, stamp)) files[f] = s;
  }
  const material = {
    format: FORMAT,
    node: process.version,
    transport: config.transport,
    command: config.command,
    args: config.args,
    env:
      config.listingEnvNames && config.env
        ? pick(config.env, config.listingEnvNames)
        : config.env && stableEnvDigest(config.env),
    cwd: config.cwd,
    url: config.url,
    headers: config.headers,
    files,
  };
  return createHash('sha256').update(JSON.stringify(material)).digest('hex');
}

/** Where listings live: one JSON file per key; a missing or broken file is a miss. */
export class ListingCache {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, `${key.slice(0, 40)}.json`);
  }

  private read<T>(name: string): T | undefined {
    try {
      const data = JSON.parse(readFileSync(this.file(name), 'utf8')) as { format?: number; value?: T };
      return data.format === FORMAT ? data.value : undefined;
    } catch {
      return undefined;
    }
  }

  /** Atomic (host/atomic-file.ts); a failure only costs the next session a start. */
  private write(name: string, value: unknown): void {
    try {
      writeFileAtomic(this.file(name), JSON.stringify({ format: FORMAT, value }), { mode: 0o600, dirMode: 0o700 });
    } catch {
      // best effort
    }
  }

  get(key: string): CachedListing | undefined {
    const v = this.read<CachedListing>(key);
    return v && Array.isArray(v.tools) ? v : undefined;
  }

  put(key: string, listing: Omit<CachedListing, 'savedAt'>): void {
    this.write(key, { ...listing, savedAt: Date.now() });
  }

  private resourceName(key: string, uri: string, roots: string[]): string {
    return createHash('sha256')
      .update(JSON.stringify([key, uri, roots]))
      .digest('hex');
  }

  /** A cached resource text, only while every input file still has the stamp it had. */
  getResource(key: string, uri: string, roots: string[]): string | undefined {
    const v = this.read<CachedResource>(this.resourceName(key, uri, roots));
    if (!v || typeof v.text !== 'string' || !v.inputs) return undefined;
    for (const [path, stamp] of Object.entries(v.inputs)) if (fileStamp(path) !== stamp) return undefined;
    return v.text;
  }

  putResource(key: string, uri: string, roots: string[], text: string, inputPaths: string[]): void {
    const inputs = Object.fromEntries(inputPaths.map((p) => [p, fileStamp(p)]));
    this.write(this.resourceName(key, uri, roots), { text, inputs } satisfies CachedResource);
  }
}
