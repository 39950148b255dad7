import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { CheckedReads } from './grep-checked-reads.js';
import { CORE_EXCLUDE_DIRS, type IgnoreRules } from './ignore-rules.js';
import { runJs } from './grep-js-engine.js';
import type { SearchGate } from './search-gate.js';
import { directLauncher, type Launcher } from './spawn-relay.js';

/** One matching line as an engine reports it; `file` is relative to the search dir, `/`-separated. */
export interface RawMatch {
  file: string;
  line: number;
  /** The line as the engine read it; absent when only line numbers were asked for (`linesOnly`). */
  text?: string;
}

export type EngineName = 'rg' | 'git' | 'grep' | 'js';

export interface EngineRequest {
  dir: string;
  pattern: string;
  regex: RegExp;
  /** A basename-only include glob engines may use to skip files early (results are re-filtered anyway). */
  basenameInclude?: string;
  /** Ignore rules of the root holding `dir`, and `dir` relative to that root. */
  rules: IgnoreRules;
  dirRel: string;
  signal: AbortSignal;
  onMatch: (m: RawMatch) => void;
  /** Paths below `dir` to search instead of all of it (rg only). */
  paths?: string[];
  /** The JS engine's files when already listed (see listFiles). */
  files?: string[];
  /**
   * rg only: report where lines match, not their text. Lines are re-read and re-tested when matches are
   * verified anyway, and a folder of 100 KB log lines then crosses the pipe as a few bytes per match.
   */
  linesOnly?: boolean;
  /** JS engine only: keeps the lines of matching files it read through a checked descriptor. */
  checked?: CheckedReads;
  /** The server's gate for search processes: a slot per core, shared fairly (search-gate.ts). */
  gate?: SearchGate;
  /** How the server process starts search processes (spawn-relay.ts); a direct spawn without it. */
  launcher?: Launcher;
}

/** An engine that could not run (missing, unsupported regex, crashed): the next one is tried. */
export class EngineFailed extends Error {}

export function onPath(cmd: string): boolean {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, cmd), constants.X_OK);
      return true;
    } catch {
      // next PATH entry
    }
  }
  return false;
}

/**
 * Engines to try, fastest first. `GEMINI_MCP_GREP_ENGINE` forces one (tests compare engines); the
 * JS engine always closes the list so a search never fails for want of a tool.
 */
export function engineOrder(inGitRepo: boolean): EngineName[] {
  const forced = forcedEngine();
  if (forced) return forced === 'js' ? ['js'] : [forced, 'js'];
  const order: EngineName[] = [];
  if (onPath('rg')) order.push('rg');
  if (inGitRepo && onPath('git')) order.push('git');
  if (onPath('grep')) order.push('grep');
  order.push('js');
  return order;
}

export function forcedEngine(): EngineName | undefined {
  const forced = process.env.GEMINI_MCP_GREP_ENGINE as EngineName | undefined;
  return forced && ['rg', 'git', 'grep', 'js'].includes(forced) ? forced : undefined;
}

export function runEngine(name: EngineName, req: EngineRequest): Promise<void> {
  switch (name) {
    case 'rg':
      return runRipgrep(req);
    case 'git':
      return runGitGrep(req);
    case 'grep':
      return runSystemGrep(req);
    case 'js':
      return runJs(req);
  }
}

function runRipgrep(req: EngineRequest): Promise<void> {
  const args = [
    '--line-number',
    '--no-heading',
    '--with-filename',
    '--null',
    '--color',
    'never',
    '--ignore-case',
    '--hidden',
    '--no-ignore-dot',
    '--no-ignore-global',
    '--no-messages',
    '--no-config',
    '--crlf',
    '-g',
    `!{${CORE_EXCLUDE_DIRS.join(',')}}`,
  ];
  // rg applies .gitignore only to prune; when .geminiignore re-includes, our own filter must see everything.
  if (req.rules.geminiNegates || !req.rules.opts.git) args.push('--no-ignore-vcs');
  if (req.basenameInclude) args.push('-g', req.basenameInclude);
  if (req.linesOnly) args.push('--only-matching', '--replace', '');
  args.push('--regexp', req.pattern, '--', ...(req.paths ?? ['.']));
  return runProcess('rg', args, req, 'colon', (threads) => ['--threads', String(threads)]);
}

/**
 * git grep and GNU grep cannot treat `\r\n` as a line end (so `x$` would miss CRLF lines the contract's
 * `\r?\n` split matches), and their pathspec/--include globs have no braces: such requests go to the
 * next engine, or the engine runs unfiltered.
 */
function lineEndSensitive(pattern: string): boolean {
  return pattern.includes('$');
}

const plainInclude = (glob: string | undefined): string | undefined => (glob && !/[{}]/.test(glob) ? glob : undefined);

function runGitGrep(req: EngineRequest): Promise<void> {
  if (lineEndSensitive(req.pattern))
    return Promise.reject(new EngineFailed('git grep: pattern needs CRLF-aware line ends'));
  const include = plainInclude(req.basenameInclude);
  const args = [
    '-c',
    'core.quotepath=off',
    'grep',
    '--untracked',
    '-I',
    '-n',
    '-z',
    '-i',
    '-P',
    '--no-color',
    '-e',
    req.pattern,
    '--',
    '.',
  ];
  for (const d of CORE_EXCLUDE_DIRS) args.push(`:(exclude,glob)**/${d}/**`);
  if (include) args.splice(args.indexOf('--') + 1, 1, `:(glob)**/${include}`);
  return runProcess('git', args, req, 'nul');
}

function runSystemGrep(req: EngineRequest): Promise<void> {
  if (lineEndSensitive(req.pattern))
    return Promise.reject(new EngineFailed('grep: pattern needs CRLF-aware line ends'));
  const include = plainInclude(req.basenameInclude);
  const args = ['-r', '-n', '-I', '-Z', '-i', '-P', '--no-messages'];
  for (const d of CORE_EXCLUDE_DIRS) args.push(`--exclude-dir=${d}`);
  if (include) args.push(`--include=${include}`);
  args.push('-e', req.pattern, '--', '.');
  return runProcess('grep', args, req, 'colon');
}

/**
 * Runs a grep-like tool and streams `path\0line:text` (colon) or `path\0line\0text` (nul) lines.
 * Exit 1 means "no match"; anything else without output is a failure the caller falls back from.
 */
function runProcess(
  cmd: string,
  args: string[],
  req: EngineRequest,
  format: 'colon' | 'nul',
  threadArgs?: (threads: number) => string[],
): Promise<void> {
  if (!req.gate) return spawnSearch(cmd, args, req, format);
  return req.gate.run(req.signal, (threads) =>
    spawnSearch(cmd, threads !== undefined && threadArgs ? [...threadArgs(threads), ...args] : args, req, format),
  );
}

function spawnSearch(cmd: string, args: string[], req: EngineRequest, format: 'colon' | 'nul'): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    let produced = false;
    let pending = '';
    const handleLine = (line: string) => {
      const z = line.indexOf('\0');
      if (z < 0) return;
      let file = line.slice(0, z);
      const rest = line.slice(z + 1);
      const sepAt = format === 'nul' ? rest.indexOf('\0') : rest.indexOf(':');
      if (sepAt < 0) return;
      const n = Number(rest.slice(0, sepAt));
      if (!Number.isInteger(n)) return;
      if (file.startsWith('./')) file = file.slice(2);
      produced = true;
      // Lines are split on \r?\n: a CRLF line's text has no trailing \r.
      const text = rest.slice(sepAt + 1);
      if (req.linesOnly) return req.onMatch({ file, line: n });
      req.onMatch({ file, line: n, text: text.endsWith('\r') ? text.slice(0, -1) : text });
    };
    (req.launcher ?? directLauncher).run(cmd, args, req.dir, req.signal, {
      stdout(chunk) {
        const parts = (pending + chunk).split('\n');
        pending = parts.pop() ?? '';
        for (const p of parts) handleLine(p);
      },
      stderr(d) {
        if (stderr.length < 4096) stderr += d;
      },
      error(err) {
        if (req.signal.aborted) reject(req.signal.reason ?? err);
        else reject(new EngineFailed(`${cmd}: ${err.message}`));
      },
      close(code) {
        if (pending) handleLine(pending);
        if (req.signal.aborted) return reject(req.signal.reason);
        if (code === 0 || code === 1) return resolve();
        // rg and grep exit 2 when some file was unreadable but still report what they found.
        if (code === 2 && produced && !/regex|pattern/i.test(stderr)) return resolve();
        reject(new EngineFailed(`${cmd} exited with ${code}: ${stderr.trim()}`));
      },
    });
  });
}
