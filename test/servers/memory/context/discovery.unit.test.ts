import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  candidateDirs,
  contextInputs,
  discoverContextFiles,
  findGitRoot,
  projectDirs,
} from '../../../../servers/memory/context/discovery.js';
import { tempDir } from '../../../helpers/tmp.js';

const base = tempDir('gmc-discovery-');
let n = 0;
/** A fresh home (`.gemini/GEMINI.md`) and a git repository with a nested package folder. */
function layout() {
  const dir = join(base, `case${++n}`);
  const home = join(dir, 'home');
  const repo = join(dir, 'repo');
  const pkg = join(repo, 'packages', 'app');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(pkg, { recursive: true });
  const plain = join(dir, 'plain');
  mkdirSync(plain);
  return { dir, home, repo, pkg, plain, globalDir: join(home, '.gemini') };
}

describe('findGitRoot and projectDirs', () => {
  it('walks up to the nearest folder holding .git (a .git file counts: worktrees)', () => {
    const { repo, pkg, dir } = layout();
    expect(findGitRoot(pkg)).toBe(repo);
    expect(projectDirs(pkg)).toEqual([repo, join(repo, 'packages'), pkg]);
    mkdirSync(join(dir, 'wt'));
    writeFileSync(join(dir, 'wt', '.git'), 'gitdir: elsewhere');
    expect(projectDirs(join(dir, 'wt'))).toEqual([join(dir, 'wt')]);
  });

  it('without git, the root alone', () => {
    const { plain } = layout();
    expect(findGitRoot(plain)).toBeUndefined();
    expect(projectDirs(plain)).toEqual([plain]);
  });
});

describe('discoverContextFiles', () => {
  it('global files first, then each root outermost first, each with its import root', async () => {
    const { repo, pkg, plain, globalDir } = layout();
    writeFileSync(join(globalDir, 'GEMINI.md'), 'g');
    writeFileSync(join(repo, 'GEMINI.md'), 'r');
    writeFileSync(join(repo, 'AGENTS.md'), 'r2');
    writeFileSync(join(pkg, 'GEMINI.md'), 'p');
    writeFileSync(join(plain, 'AGENTS.md'), 'x');
    const refs = await discoverContextFiles({
      globalFiles: [join(globalDir, 'GEMINI.md'), join(globalDir, 'missing.md')],
      roots: [pkg, plain],
      fileNames: ['GEMINI.md', 'AGENTS.md'],
      globalDir,
    });
    expect(refs).toEqual([
      { path: join(globalDir, 'GEMINI.md'), scope: 'global', importRoot: globalDir },
      { path: join(repo, 'GEMINI.md'), scope: 'project', importRoot: repo },
      { path: join(repo, 'AGENTS.md'), scope: 'project', importRoot: repo },
      { path: join(pkg, 'GEMINI.md'), scope: 'project', importRoot: repo },
      { path: join(plain, 'AGENTS.md'), scope: 'project', importRoot: plain },
    ]);
  });

  it('a file reached twice (a link, a hard link, two roots) loads once', async () => {
    const { repo, pkg, globalDir } = layout();
    writeFileSync(join(repo, 'GEMINI.md'), 'r');
    symlinkSync(join(repo, 'GEMINI.md'), join(pkg, 'GEMINI.md'));
    linkSync(join(repo, 'GEMINI.md'), join(pkg, 'AGENTS.md'));
    const refs = await discoverContextFiles({
      globalFiles: [],
      roots: [pkg, repo],
      fileNames: ['GEMINI.md', 'AGENTS.md'],
      globalDir,
    });
    expect(refs.map((r) => r.path)).toEqual([join(repo, 'GEMINI.md')]);
  });

  it('the ~/.gemini folder is never read as a project folder, and folders named like the file are skipped', async () => {
    const { home, globalDir } = layout();
    writeFileSync(join(globalDir, 'GEMINI.md'), 'g');
    mkdirSync(join(home, 'GEMINI.md'));
    const refs = await discoverContextFiles({
      globalFiles: [],
      roots: [globalDir, home],
      fileNames: ['GEMINI.md'],
      globalDir,
    });
    expect(refs).toEqual([]);
  });
});

describe('candidateDirs and contextInputs', () => {
  it('every existing folder a context file may appear in', () => {
    const { repo, pkg, globalDir, dir } = layout();
    expect(
      candidateDirs({
        globalFiles: [join(globalDir, 'GEMINI.md'), join(dir, 'gone', 'x.md')],
        roots: [pkg],
        fileNames: ['GEMINI.md'],
        globalDir,
      }),
    ).toEqual([globalDir, repo, join(repo, 'packages'), pkg]);
  });

  it('candidate files, present or not, the files read, and the .git markers up to the project root', () => {
    const { repo, pkg, globalDir } = layout();
    const inputs = contextInputs(
      { globalFiles: [join(globalDir, 'GEMINI.md')], roots: [pkg], fileNames: ['GEMINI.md'], globalDir },
      [join(repo, 'docs', 'imported.md')],
    );
    expect(inputs).toEqual([
      join(globalDir, 'GEMINI.md'),
      join(repo, 'docs', 'imported.md'),
      join(pkg, '.git'),
      join(repo, 'packages', '.git'),
      join(repo, '.git'),
      join(repo, 'GEMINI.md'),
      join(repo, 'packages', 'GEMINI.md'),
      join(pkg, 'GEMINI.md'),
    ]);
  });
});
