import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import * as z from 'zod';
import { guardPath, isWithin } from '../../common/path-guard.js';
import { errorResult, textResult } from '../../common/result.js';
import { defineTool, READ_ONLY, type ToolContext } from '../../common/tool.js';
import { CORE_EXCLUDE_DIRS, CORE_EXCLUDE_GLOBS, IgnoreRules } from '../lib/ignore-rules.js';
import { walkGlob } from '../lib/glob-walk.js';
import { confinedReaddir, realDirChecker } from '../lib/confined-glob-fs.js';
import { loadFastGlob } from '../lib/lazy.js';
import { type MtimeReader, PARALLEL_FROM } from '../lib/mtime-reader.js';
import { rootOf, toPosix } from '../lib/paths.js';

const RECENCY_MS = 24 * 60 * 60 * 1000;
/**
 * Paths the model gets at most, the first in the result's order (recent ones newest first, then by path): a glob over a big tree matched 50,000 files and sent 1.4 MB
 * of paths into the conversation. The count of all matches and how to narrow them come with the list, as
 * the grep does with its matches.
 */
export const MAX_GLOB_RESULTS = 1000;
/** Files handed to the mtime reader's worker at a time while a big walk goes on. */
const PREFETCH_BATCH = 2048;

const inputSchema = z.object({
  pattern: z.string().describe("The glob pattern to match against, e.g. '**/*.py' or 'docs/*.md'."),
  path: z
    .string()
    .optional()
    .describe(
      'Optional: the absolute path of the directory to search in (or relative to the first root). Defaults to all workspace roots.',
    ),
  case_sensitive: z.boolean().optional().describe('Optional: whether matching is case-sensitive. Defaults to false.'),
  respect_git_ignore: z
    .boolean()
    .optional()
    .describe('Optional: whether to respect .gitignore patterns. Defaults to true.'),
  respect_gemini_ignore: z
    .boolean()
    .optional()
    .describe('Optional: whether to respect .geminiignore patterns. Defaults to true.'),
});

export interface GlobDeps {
  /** The server instance's mtime reader (its worker thread is closed with the server). */
  mtimes: MtimeReader;
}

export const createGlobTool = (deps: GlobDeps) =>
  defineTool({
    name: 'glob',
    title: 'FindFiles',
    description:
      "Efficiently finds files matching a glob pattern (e.g. 'src/**/*.ts', '**/*.md') and returns their absolute paths, " +
      'sorted with recently modified files (last 24 hours) first, newest first. Matching is case-insensitive by default. ' +
      '.gitignore and .geminiignore rules are respected. ' +
      `At most ${MAX_GLOB_RESULTS} paths are returned, with the total count when there are more.`,
    inputSchema,
    annotations: READ_ONLY,
    handler: async (args, ctx) => {
      if (!ctx.roots.primary) return errorResult('No workspace roots are configured.', 'path_not_in_workspace');
      const target = guardPath(args.path ?? ctx.roots.primary, ctx.roots);
      const abs = target.resolved;
      let isDir: boolean;
      try {
        isDir = (await stat(target.real)).isDirectory();
      } catch {
        return errorResult(`Search path does not exist ${abs}`, 'invalid_tool_params');
      }
      if (!isDir) return errorResult(`Search path is not a directory: ${abs}`, 'invalid_tool_params');
      if (args.pattern.trim() === '')
        return errorResult("The 'pattern' parameter cannot be empty.", 'invalid_tool_params');

      const dirs = args.path !== undefined ? [target.real] : [...ctx.roots.list];
      const found = new Matches(deps.mtimes);
      let ignored = 0;
      try {
        for (const dir of dirs) {
          ignored += await globDir(dir, args, ctx, found);
          if (ctx.signal.aborted) throw new Error('cancelled');
        }
      } catch (err) {
        return errorResult(`Error during glob search operation: ${(err as Error).message}`, 'glob_execution_error');
      }

      const where = dirs.length > 1 ? ` across ${dirs.length} workspace directories` : ` within ${abs}`;
      if (found.files.length === 0) {
        const scope = dirs.length > 1 ? `${dirs.length} workspace directories` : abs;
        return textResult(
          `No files found matching pattern "${args.pattern}" within ${scope}${ignored > 0 ? ` (${ignored} files were ignored)` : ''}`,
          'No files found',
        );
      }
      const sorted = sortByRecency(found.files, await deps.mtimes.read(found.files), Date.now());
      const ignoredNote = ignored > 0 ? ` (${ignored} additional files were ignored)` : '';
      const shown = sorted.length > MAX_GLOB_RESULTS ? sorted.slice(0, MAX_GLOB_RESULTS) : sorted;
      const limitNote =
        shown.length < sorted.length
          ? `\n(Showing the first ${shown.length} of ${sorted.length}. Narrow the search with a more specific pattern, such as a folder or an extension, or with 'path', to see the others.)`
          : '';
      return textResult(
        `Found ${sorted.length} file(s) matching "${args.pattern}"${where}${ignoredNote}, sorted by modification time (newest first):\n${shown.join('\n')}${limitNote}`,
        `Found ${sorted.length} matching file(s)${shown.length < sorted.length ? ` (showing ${shown.length})` : ''}`,
      );
    },
  });

/**
 * The matches of every scope, in order. Big batches are handed to the mtime reader as they come, so that a
 * worker stats them while the walk goes on (the reader wants its ranges contiguous from the start).
 */
class Matches {
  readonly files: string[] = [];
  private sent = 0;
  constructor(private readonly mtimes: MtimeReader) {}

  /** Called as files are added: starts once the walk is known to be big, then every batch. */
  added(): void {
    if (this.files.length - this.sent < (this.sent === 0 ? PARALLEL_FROM : PREFETCH_BATCH)) return;
    this.mtimes.prefetch(this.files, this.sent, this.files.length);
    this.sent = this.files.length;
  }
}

type GlobArgs = z.infer<typeof inputSchema>;

/** Adds the files under `dir` that the pattern matches and the ignore rules keep; returns how many they dropped. */
async function globDir(dir: string, args: GlobArgs, ctx: ToolContext, found: Matches): Promise<number> {
  // A name such as `[id].ts` that exists literally is meant literally. fast-glob is loaded only when it
  // is needed (here, or for a pattern our walk does not take): the walk serves an agent's usual globs,
  // and loading fast-glob was a fifth of a first 40-file glob.
  const literal = existsSync(resolve(dir, args.pattern));
  const pattern = literal ? (await loadFastGlob()).escapePath(args.pattern) : args.pattern;
  // `../**` or `/elsewhere/**` would walk outside the scope (up to the whole disk) to find nothing in it.
  if (!isWithin(dir, staticBase(dir, pattern))) return 0;
  const located = rootOf(dir, ctx.roots);
  const opts = { git: args.respect_git_ignore ?? true, gemini: args.respect_gemini_ignore ?? true };
  const rules = located ? new IgnoreRules(located.root, opts) : undefined;
  const prefix = located?.rel ? `${located.rel}/` : '';
  let ignored = 0;
  // The walk's files are kept directory by directory as it goes, so that the mtime reader can start on them
  // (on the 50,000-file tree the stats then overlap the listing).
  let kept = 0;
  const keepWalked = (names: readonly string[]) => {
    ignored += keepEntries(dir, names, kept, true, prefix, rules, found.files);
    kept = names.length;
    found.added();
  };
  // The walk collects names only (fast-glob's own `stats` would lstat every file it reads, not
  // just the matches); mtimes are read once the matches are known.
  const walked = walkGlob(dir, pattern, {
    nocase: !(args.case_sensitive ?? false),
    excludeDirs: CORE_EXCLUDE_DIRS,
    inScope: (real) => isWithin(dir, real),
    onDir: keepWalked,
    absolute: true,
  });
  if (walked) {
    keepWalked(walked);
    return ignored;
  }
  const fg = await loadFastGlob();
  const entries = await fg(pattern, {
    cwd: dir,
    onlyFiles: true,
    dot: true,
    followSymbolicLinks: false,
    caseSensitiveMatch: args.case_sensitive ?? false,
    ignore: CORE_EXCLUDE_GLOBS,
    suppressErrors: true,
    fs: { readdir: confinedReaddir((real) => isWithin(dir, real)) as never },
  });
  // Not handed over here: with the walk over, `read` splits what is left between both threads.
  ignored += keepEntries(dir, entries, 0, false, prefix, rules, found.files);
  return ignored;
}

/**
 * Appends to `found` the absolute paths of `entries[from..]` that lie in the scope and that the ignore rules keep;
 * returns how many the rules dropped. `walked` entries are our walk's absolute paths, others fast-glob's,
 * relative to `dir`.
 */
function keepEntries(
  dir: string,
  entries: readonly string[],
  from: number,
  walked: boolean,
  prefix: string,
  rules: IgnoreRules | undefined,
  found: string[],
): number {
  // The walk listed only directories it had verified by descriptor; fast-glob's results are judged here.
  const inRealDir = walked ? () => true : realDirChecker(dir);
  const checkRules = rules !== undefined && !rules.isEmpty;
  let ignored = 0;
  if (walked && !checkRules) {
    // The walk built absolute paths from directory entries (never `.`, `..` or containing `/`) in
    // directories it verified: already resolved and inside the scope.
    for (let i = from; i < entries.length; i++) found.push(entries[i]!);
    return 0;
  }
  const relStart = dir === sep ? 1 : dir.length + 1;
  for (let i = from; i < entries.length; i++) {
    const name = entries[i]!;
    let file: string;
    let rel: string;
    if (walked) {
      file = name;
      rel = toPosix(name.slice(relStart));
    } else if (isPlainEntry(name)) {
      file = dir === sep ? `${sep}${name}` : `${dir}${sep}${name}`;
      rel = name;
    } else {
      // Absolute patterns yield absolute entries and `../` patterns climb out: the scope is `dir`.
      file = resolve(dir, name);
      if (!isWithin(dir, file) || file === dir) continue;
      rel = toPosix(relative(dir, file));
    }
    // Every result lies in a real directory of the scope: none is reached through a symlink.
    if (!inRealDir(file)) continue;
    if (checkRules && rules.isIgnored(prefix + rel)) {
      ignored++;
      continue;
    }
    found.push(file);
  }
  return ignored;
}

/** Where a pattern's walk starts: its leading directory segments free of glob syntax. */
function staticBase(dir: string, pattern: string): string {
  const fixed: string[] = [];
  for (const seg of pattern.split('/').slice(0, -1)) {
    if (/[*?[\]{}()!\\]/.test(seg)) break;
    fixed.push(seg);
  }
  return resolve(dir, fixed.join('/') || '.');
}

/**
 * Whether `dir` + `/` + `name` is already the resolved path, inside `dir`: a relative entry without
 * empty, `.` or `..` segments or trailing `/` (most entries; absolute and climbing patterns take the resolve path).
 */
function isPlainEntry(name: string): boolean {
  return (
    sep === '/' &&
    name !== '' &&
    name.charCodeAt(0) !== 47 &&
    !name.includes('..') &&
    !name.includes('//') &&
    !name.includes('./') &&
    name !== '.' &&
    !name.endsWith('/.') &&
    !name.endsWith('/')
  );
}

/**
 * Files changed in the last 24 hours first, newest first; all others by path. The recent ones are sorted as
 * indices into `mtimes` rather than as `{ file, mtime }` objects (50,000 fewer objects for the GC per call).
 */
export function sortByRecency(files: readonly string[], mtimes: Float64Array, now: number): string[] {
  const recent: number[] = [];
  const old: string[] = [];
  for (let i = 0; i < files.length; i++) {
    if (now - mtimes[i] < RECENCY_MS) recent.push(i);
    else old.push(files[i]);
  }
  recent.sort((a, b) => mtimes[b] - mtimes[a] || (files[a] < files[b] ? -1 : 1));
  old.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out = new Array<string>(files.length);
  for (let i = 0; i < recent.length; i++) out[i] = files[recent[i]];
  for (let i = 0; i < old.length; i++) out[recent.length + i] = old[i];
  return out;
}
