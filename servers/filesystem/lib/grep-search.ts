import { lstatSync, openSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import micromatch from 'micromatch';
import { looksBinary, SNIFF_BYTES } from '../../common/binary-sniff.js';
import { isAllowedReal } from '../../common/path-guard.js';
import type { WorkspaceRoots } from '../../common/roots.js';
import { EngineFailed, type EngineName, engineOrder, forcedEngine, runEngine, type RawMatch } from './grep-engines.js';
import { listFiles, rootRel } from './grep-js-engine.js';
import type { SearchGate } from './search-gate.js';
import type { Launcher } from './spawn-relay.js';
import { nextBatch, oneRunSuffices, searchUnits } from './grep-units.js';
import { CheckedReads } from './grep-checked-reads.js';
import { verifyMatches } from './grep-verify.js';
import type { GrepGroup } from './grep-format.js';
import { CORE_EXCLUDE_DIRS, IgnoreRules } from './ignore-rules.js';

/** A verified match: `file` for display, `full` to read context from. */
export interface FoundMatch {
  file: string;
  full: string;
  line: number;
  text: string;
}

export interface SearchRequest {
  dir: string;
  /** The root holding `dir` (undefined inside the project temp dir) and `dir` relative to it. */
  root: string | undefined;
  dirRel: string;
  pattern: string;
  regex: RegExp;
  include?: string;
  roots: WorkspaceRoots;
  signal: AbortSignal;
  /** Only the first `max` matches in path order can be shown, so no more are kept. */
  max: number;
  /** Receives the verified lines of matched files when few enough matches call for auto-context. */
  linesByFile?: Map<string, string[]>;
  /** The server's gate for search processes (one slot per core). */
  gate?: SearchGate;
  /** How search processes are started (spawn-relay.ts). */
  launcher?: Launcher;
}

/** Up to this many matches get surrounding lines. */
const AUTO_CONTEXT_MAX = 3;
/**
 * A tree of at most this many files is searched in-process: starting rg (a fork of the server, the
 * child_process module, a pipe) cost ~50 ms of a 40-file search's ~70 ms, more than reading the files.
 */
const SMALL_TREE_FILES = 400;

export const compareMatches = (a: { file: string; line: number }, b: { file: string; line: number }): number =>
  a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line;

/**
 * Runs the best available engine over one directory and applies the contract's file rules itself
 * (include glob, core excludes, ignore files, sensitive segments, regular files only, binary sniff,
 * JS regex semantics), so every engine yields the same result.
 */
export async function searchDirectory(req: SearchRequest): Promise<FoundMatch[]> {
  const rules = new IgnoreRules(req.root ?? req.dir, { git: true, gemini: true });
  const dirRel = req.root ? req.dirRel : '';
  const basenameInclude = req.include && !req.include.includes('/') ? req.include : undefined;
  // Set for the JS engine's attempt: what it read through checked descriptors.
  let checked: CheckedReads | undefined;
  const fileOk = fileFilter(req, rules, dirRel, () => checked);

  let kept: RawMatch[] = [];
  let buffer: RawMatch[] = [];
  const compact = () => {
    // Keep memory bounded on patterns that match everything: only the first `max` can be shown.
    const merged = kept.concat(
      buffer.filter((m) => fileOk(m.file) && (m.text === undefined || req.regex.test(m.text))),
    );
    merged.sort(compareMatches);
    // Line-number-only reports come once per match on the line: one candidate per line.
    kept = merged.filter((m, i) => i === 0 || compareMatches(merged[i - 1]!, m) !== 0).slice(0, req.max);
    buffer = [];
  };
  const attempt = async (name: EngineName, linesOnly: boolean, files?: string[]): Promise<FoundMatch[] | undefined> => {
    kept = [];
    buffer = [];
    checked = name === 'js' ? new CheckedReads((real) => isAllowedReal(real, req.roots)) : undefined;
    const engineReq = {
      dir: req.dir,
      pattern: req.pattern,
      regex: req.regex,
      basenameInclude,
      rules,
      dirRel,
      signal: req.signal,
      linesOnly,
      files,
      checked,
      gate: req.gate,
      launcher: req.launcher,
      onMatch: (m: RawMatch) => {
        buffer.push(m);
        if (buffer.length >= 20_000) compact();
      },
    };
    if (name === 'rg') {
      // Batches in path order: the search stops once the first `max` matches are known.
      const pruneIgnored = !rules.isEmpty && !rules.geminiNegates;
      const skip = (rel: string, isDir: boolean) => pruneIgnored && rules.isIgnored(rootRel(dirRel, rel), isDir);
      const units = await searchUnits(req.dir, skip);
      const oneRun = await oneRunSuffices(req.dir, units);
      for (let done = 0; done < units.length && kept.length < req.max; ) {
        const size = oneRun ? units.length : nextBatch(done, units.length, kept.length, req.max);
        await runEngine(name, { ...engineReq, paths: units.slice(done, done + size).flat() });
        done += size;
        compact();
      }
    } else {
      await runEngine(name, engineReq);
    }
    compact();
    const candidates = kept.map((m) => ({ file: m.file, full: join(req.dir, m.file), line: m.line, text: m.text }));
    const verified = await verifyMatches(
      candidates,
      req.regex,
      req.roots,
      candidates.length <= AUTO_CONTEXT_MAX,
      checked,
    );
    // Where JS regex semantics refuse a line rg's took, a line-number-only candidate held a place among the
    // first `max`: search again with text, so that the JS test runs before the cut.
    if (linesOnly && kept.length >= req.max && verified.matches.length < kept.length) return undefined;
    for (const [full, lines] of verified.lines) req.linesByFile?.set(full, lines);
    return verified.matches;
  };
  const few = forcedEngine()
    ? undefined
    : await listFiles({ dir: req.dir, dirRel, rules, signal: req.signal }, SMALL_TREE_FILES);
  if (few) return (await attempt('js', false, few)) ?? [];
  for (const name of engineOrder(rules.inGitRepo)) {
    try {
      const linesOnly = name === 'rg' ? await attempt(name, true) : undefined;
      return linesOnly ?? (await attempt(name, false)) ?? [];
    } catch (err) {
      if (!(err instanceof EngineFailed) || name === 'js') throw err;
    }
  }
  return [];
}

/** The contract's file rules for one search (acceptFile), each file judged once. */
function fileFilter(
  req: SearchRequest,
  rules: IgnoreRules,
  dirRel: string,
  checked: () => CheckedReads | undefined,
): (file: string) => boolean {
  const include = req.include
    ? micromatch.matcher(req.include, { dot: true, basename: !req.include.includes('/') })
    : undefined;
  const verdicts = new Map<string, boolean>();
  return (file) => {
    let ok = verdicts.get(file);
    if (ok === undefined) {
      ok = acceptFile(file, req, rules, dirRel, include, checked());
      verdicts.set(file, ok);
    }
    return ok;
  };
}

function acceptFile(
  file: string,
  req: SearchRequest,
  rules: IgnoreRules,
  dirRel: string,
  include: ((p: string) => boolean) | undefined,
  checked: CheckedReads | undefined,
): boolean {
  if (include && !include(file)) return false;
  if (file.split('/').some((seg) => CORE_EXCLUDE_DIRS.includes(seg))) return false;
  if (rules.isIgnored(rootRel(dirRel, file))) return false;
  const full = join(req.dir, file);
  // The search dir is a real path, so a regular (non-symlink) file below it is its own real path.
  if (!isAllowedReal(full, req.roots)) return false;
  // Read whole through a checked descriptor: a regular file, and its bytes were sniffed.
  if (checked?.get(full)) return true;
  try {
    if (!lstatSync(full).isFile()) return false;
    return !looksBinary(readHead(full));
  } catch {
    return false;
  }
}

function readHead(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * Groups by file; with 1–3 matches adds ±50 / ±15 lines of context, taken from the lines verification
 * read (never from the name again).
 */
export function groupWithContext(matches: FoundMatch[], linesByFile: Map<string, string[]>): GrepGroup[] {
  const byFile = new Map<string, FoundMatch[]>();
  for (const m of matches) {
    const list = byFile.get(m.file) ?? [];
    list.push(m);
    byFile.set(m.file, list);
  }
  const radius = matches.length === 1 ? 50 : matches.length <= AUTO_CONTEXT_MAX ? 15 : 0;
  const groups: GrepGroup[] = [];
  for (const [file, list] of byFile) {
    const lines = radius === 0 ? undefined : linesByFile.get(list[0].full);
    if (lines === undefined) {
      groups.push({ file, lines: list.map((m) => ({ n: m.line, text: m.text, match: true })) });
      continue;
    }
    const wanted = new Set<number>();
    for (const m of list) {
      for (let n = Math.max(1, m.line - radius); n <= Math.min(lines.length, m.line + radius); n++) wanted.add(n);
    }
    const matchLines = new Map(list.map((m) => [m.line, m.text]));
    const sorted = [...wanted].sort((a, b) => a - b);
    groups.push({
      file,
      lines: sorted.map((n) => ({ n, text: matchLines.get(n) ?? lines[n - 1] ?? '', match: matchLines.has(n) })),
    });
  }
  return groups;
}
