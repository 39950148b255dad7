import ignore, { type Ignore } from 'ignore';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { toPosix } from './paths.js';

/** Which ignore files to honour in one call (both default to true). */
export interface IgnoreOptions {
  git: boolean;
  gemini: boolean;
}

interface Level {
  /** For files above the root: the root's path seen from the file's directory. */
  prefix?: string;
  /** For files in the root or below: the file's directory relative to the root ('' = root). */
  base?: string;
  matcher: Ignore;
}

/**
 * The ignore files of one workspace root: `.gitignore` (repository top down to each directory,
 * nested files anchored at their own directory) plus `.git/info/exclude` when the root lies in a git
 * working tree, then the root's `.geminiignore`, which may re-include git-ignored paths.
 * Built per call (files change between calls); every directory's `.gitignore` is read at most once.
 */
export class IgnoreRules {
  readonly inGitRepo: boolean;
  private readonly repoTop: string | undefined;
  private readonly gemini: Ignore | undefined;
  private readonly geminiText: string | undefined;
  private readonly topLevels: Level[] = [];
  private readonly dirLevels = new Map<string, Level[]>();
  private readonly dirVerdict = new Map<string, boolean>();

  constructor(
    readonly root: string,
    readonly opts: IgnoreOptions,
  ) {
    this.repoTop = findRepoTop(root);
    this.inGitRepo = this.repoTop !== undefined;
    if (this.repoTop && opts.git) {
      const exclude = readIgnoreFile(join(this.repoTop, '.git', 'info', 'exclude'));
      if (exclude) this.topLevels.push({ prefix: toPosix(relative(this.repoTop, root)), matcher: exclude });
      // .gitignore files between the repository top and the root apply to the root's contents.
      const chain: string[] = [];
      for (let d = root; d !== this.repoTop && d !== dirname(d); d = dirname(d)) chain.unshift(dirname(d));
      for (const d of chain) {
        const m = readIgnoreFile(join(d, '.gitignore'));
        if (m) this.topLevels.push({ prefix: toPosix(relative(d, root)), matcher: m });
      }
    }
    this.geminiText = opts.gemini ? readText(join(root, '.geminiignore')) : undefined;
    this.gemini = this.geminiText !== undefined ? ignore({ allowRelativePaths: true }).add(this.geminiText) : undefined;
  }

  /** True when no rule can ignore anything: callers skip per-file work. */
  get isEmpty(): boolean {
    return !this.gemini && !(this.inGitRepo && this.opts.git);
  }

  /** Whether `.geminiignore` re-includes anything (tools then must not let git prune first). */
  get geminiNegates(): boolean {
    return !!this.geminiText && /^\s*!/m.test(this.geminiText);
  }

  /** `rel` is relative to the root with `/` separators; directories are tested as directories. */
  isIgnored(rel: string, isDir = false): boolean {
    if (rel === '' || this.isEmpty) return false;
    const parts = rel.split('/');
    if (parts.includes('.git')) return true;
    const parent = parts.slice(0, -1).join('/');
    return this.verdict(rel, parent, isDir);
  }

  private verdict(rel: string, parent: string, isDir: boolean): boolean {
    const gemini = this.gemini ? this.gemini.test(isDir ? `${rel}/` : rel) : undefined;
    // .geminiignore is evaluated last and may re-include what git ignores.
    if (gemini?.ignored) return true;
    let git = false;
    if (this.inGitRepo && this.opts.git) {
      git = (parent !== '' && this.dirIgnoredByGit(parent)) || this.gitTest(rel, parent, isDir);
    }
    if (gemini?.unignored) return false;
    if (this.gemini && parent !== '' && this.geminiDirIgnored(parent)) return true;
    return git;
  }

  private geminiDirIgnored(dir: string): boolean {
    return !!this.gemini?.ignores(`${dir}/`);
  }

  private dirIgnoredByGit(dir: string): boolean {
    const cached = this.dirVerdict.get(dir);
    if (cached !== undefined) return cached;
    const slash = dir.lastIndexOf('/');
    const parent = slash < 0 ? '' : dir.slice(0, slash);
    const result = (parent !== '' && this.dirIgnoredByGit(parent)) || this.gitTest(dir, parent, true);
    this.dirVerdict.set(dir, result);
    return result;
  }

  /** Git precedence: deeper files override shallower ones; the last matching rule wins. */
  private gitTest(rel: string, parent: string, isDir: boolean): boolean {
    let ignored = false;
    for (const level of [...this.topLevels, ...this.levelsFor(parent)]) {
      const local = localPath(level, rel);
      if (local === undefined) continue;
      const r = level.matcher.test(isDir ? `${local}/` : local);
      if (r.ignored) ignored = true;
      else if (r.unignored) ignored = false;
    }
    return ignored;
  }

  /** `.gitignore` levels from the root down to `dir` (inclusive). */
  private levelsFor(dir: string): Level[] {
    const cached = this.dirLevels.get(dir);
    if (cached) return cached;
    const slash = dir.lastIndexOf('/');
    const inherited = dir === '' ? [] : this.levelsFor(slash < 0 ? '' : dir.slice(0, slash));
    const m = readIgnoreFile(join(this.root, dir, '.gitignore'));
    const levels = m ? [...inherited, { base: dir, matcher: m }] : inherited;
    this.dirLevels.set(dir, levels);
    return levels;
  }
}

/** `rel` (root-relative) as the level's ignore file sees it, or undefined when outside its directory. */
function localPath(level: Level, rel: string): string | undefined {
  if (level.prefix !== undefined) return level.prefix === '' ? rel : `${level.prefix}/${rel}`;
  if (!level.base) return rel;
  return rel.startsWith(`${level.base}/`) ? rel.slice(level.base.length + 1) : undefined;
}

function readText(file: string): string | undefined {
  // Most of these files do not exist: asking first spares an error object (its message and stack) per
  // file per call.
  if (!existsSync(file)) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readIgnoreFile(file: string): Ignore | undefined {
  const text = readText(file);
  return text === undefined ? undefined : ignore({ allowRelativePaths: true }).add(text);
}

/** Nearest ancestor (or the root itself) holding `.git` (a directory, or a file for worktrees). */
function findRepoTop(start: string): string | undefined {
  for (let d = start; ; d = dirname(d)) {
    try {
      // No error object for the usual answer (no .git here).
      if (statSync(join(d, '.git'), { throwIfNoEntry: false })) return d;
    } catch {
      // keep walking up
    }
    if (dirname(d) === d) return undefined;
  }
}

/** Core excludes applied by glob and search. */
export const CORE_EXCLUDE_DIRS = ['node_modules', '.git', 'bower_components', '.svn', '.hg'];
export const CORE_EXCLUDE_GLOBS = CORE_EXCLUDE_DIRS.map((d) => `**/${d}/**`);
