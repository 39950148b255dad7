import { existsSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { isWithin } from '../../../protocol/path-within.js';
import { dirname, join, resolve } from 'node:path';

export interface ContextFileRef {
  path: string;
  scope: 'global' | 'project';
  /** Where `@import`s of this file must stay (the project root). */
  importRoot: string;
}

export interface DiscoveryOptions {
  /** Global context files (`~/.gemini/<name>` and the memory file), in order. */
  globalFiles: string[];
  /** Workspace roots, primary first. */
  roots: readonly string[];
  fileNames: string[];
  /** `~/.gemini`: never a project directory. */
  globalDir: string;
}

/** Nearest ancestor of `dir` (itself included) that holds `.git`, or undefined. */
export function findGitRoot(dir: string): string | undefined {
  let current = resolve(dir);
  for (;;) {
    if (existsSync(join(current, '.git'))) return current;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Directories from the project root down to `root`, outermost first (the root alone without git). */
export function projectDirs(root: string): string[] {
  const top = findGitRoot(root);
  if (!top) return [root];
  const dirs: string[] = [];
  let current = resolve(root);
  for (;;) {
    dirs.unshift(current);
    if (current === top) return dirs;
    const parent = dirname(current);
    if (parent === current) return dirs;
    current = parent;
  }
}

/**
 * Whether a project's context file really lies inside its project: a cloned repository's `GEMINI.md`
 * may be a link to `~/.ssh/id_rsa` or another project's secrets, and what is loaded goes to the model.
 * (The user's own global files may link anywhere: a dotfiles repository is theirs.)
 */
export async function staysInProject(path: string, projectRoot: string): Promise<boolean> {
  const [real, root] = await Promise.all([
    realpath(path).catch(() => undefined),
    realpath(projectRoot).catch(() => resolve(projectRoot)),
  ]);
  return real !== undefined && isWithin(root, real);
}

/**
 * The context files to load, in prompt order: global files, then for each root its project files
 * outermost first. A file reached twice (same device and inode) loads once. A project file whose real
 * path leaves its project is not loaded; its path goes to `skipped`.
 */
export async function discoverContextFiles(opts: DiscoveryOptions, skipped: string[] = []): Promise<ContextFileRef[]> {
  const seen = new Set<string>();
  const out: ContextFileRef[] = [];
  const add = async (path: string, scope: ContextFileRef['scope'], importRoot: string) => {
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile()) return;
    if (scope === 'project' && !(await staysInProject(path, importRoot))) {
      skipped.push(path);
      return;
    }
    const id = `${info.dev}:${info.ino}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ path, scope, importRoot });
  };
  for (const file of opts.globalFiles) await add(file, 'global', findGitRoot(dirname(file)) ?? dirname(file));
  const globalDir = resolve(opts.globalDir);
  for (const root of opts.roots) {
    const dirs = projectDirs(root);
    // The outermost project directory is the git root, or the root itself without git.
    const importRoot = dirs[0];
    for (const dir of dirs) {
      if (dir === globalDir) continue;
      for (const name of opts.fileNames) await add(join(dir, name), 'project', importRoot);
    }
  }
  return out;
}

/** Every directory where a context file may appear (watched so new files are noticed too). */
export function candidateDirs(opts: DiscoveryOptions): string[] {
  const dirs = new Set<string>(opts.globalFiles.map((f) => dirname(f)));
  for (const root of opts.roots) for (const dir of projectDirs(root)) dirs.add(dir);
  return [...dirs].filter((d) => {
    try {
      return statSync(d).isDirectory();
    } catch {
      return false;
    }
  });
}

/**
 * Every path whose state decides the context: each candidate context file (present or not), the files
 * read, and the `.git` markers that decide where each project starts. A client may reuse the text while
 * none of these changed.
 */
export function contextInputs(opts: DiscoveryOptions, touched: string[]): string[] {
  const paths = new Set<string>([...opts.globalFiles, ...touched]);
  for (const root of opts.roots) {
    for (let dir = resolve(root); ; ) {
      paths.add(join(dir, '.git'));
      if (existsSync(join(dir, '.git'))) break;
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
    for (const dir of projectDirs(root)) for (const name of opts.fileNames) paths.add(join(dir, name));
  }
  return [...paths];
}
