import { dirname, join, resolve } from 'node:path';
import { statSync } from 'node:fs';
import { readConfigFile } from '../config/config-file.js';

/**
 * The branch of the git repository holding `cwd` (the footer shows it, as Gemini CLI's does): `HEAD`'s
 * `ref: refs/heads/NAME`, or the short commit id when detached; undefined outside a repository. Read as
 * files, through the safe reader (a planted FIFO at `.git/HEAD` cannot hang the chat), without running git.
 */
export function gitBranch(cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const gitDir = gitDirOf(dotGit);
    if (gitDir) return branchIn(gitDir);
    if (dirname(dir) === dir) return undefined;
  }
}

/** `.git` as a folder, or the folder a `gitdir:` file (a worktree, a submodule) names. */
function gitDirOf(dotGit: string): string | undefined {
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
  } catch {
    return undefined;
  }
  const target = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? '')?.[1]?.trim();
  return target ? resolve(dirname(dotGit), target) : undefined;
}

function branchIn(gitDir: string): string | undefined {
  const head = readText(join(gitDir, 'HEAD'))?.trim();
  if (!head) return undefined;
  const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head)?.[1];
  return ref ?? (/^[0-9a-f]{7,}$/.test(head) ? head.slice(0, 7) : undefined);
}

function readText(file: string): string | undefined {
  try {
    return readConfigFile(file, 64 * 1024);
  } catch {
    return undefined;
  }
}
