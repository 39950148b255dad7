import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPath, isAllowedReal, realPathOf } from '../../../servers/common/path-guard.js';
import { WorkspaceRoots } from '../../../servers/common/roots.js';
import { tempDir } from '../../helpers/tmp.js';

describe('path guard', () => {
  const root = tempDir('gmc-pg-');
  const outside = tempDir('gmc-pg-out-');
  mkdirSync(join(root, 'sub'));
  writeFileSync(join(outside, 'x.txt'), 'x');
  symlinkSync(outside, join(root, 'out-link'));
  symlinkSync(join(root, 'out-link'), join(root, 'chain'));
  symlinkSync(join(root, 'sub'), join(root, 'in-link'));
  const roots = new WorkspaceRoots([root]);
  const message = (p: string) =>
    `Path not in workspace: Attempted path "${p}" resolves outside the allowed workspace directories: ${root}`;

  it('refuses sensitive segments and allows their look-alikes', () => {
    for (const p of [
      '.git/config',
      '.env',
      'node_modules/a/index.js',
      'gha-creds-1.json',
      '.GIT/x',
      '.env.',
      'sub/.git',
    ]) {
      expect(checkPath(join(root, p), roots)).toEqual({
        ok: false,
        message: message(join(root, p)),
        errorType: 'path_not_in_workspace',
      });
    }
    for (const p of ['.env.example', '.gitignore', '.github/workflows/a.yml', '.envrc']) {
      expect(checkPath(join(root, p), roots).ok).toBe(true);
    }
  });

  it('follows symlinks, including chains and missing tails', () => {
    expect(checkPath(join(root, 'out-link', 'x.txt'), roots).ok).toBe(false);
    expect(checkPath(join(root, 'chain', 'new', 'file.txt'), roots).ok).toBe(false);
    const inside = checkPath(join(root, 'in-link', 'new.txt'), roots);
    expect(inside.ok && inside.path.real).toBe(join(root, 'sub', 'new.txt'));
    expect(realPathOf(join(root, 'nope', 'deeper'))).toBe(join(root, 'nope', 'deeper'));
    expect(checkPath('/proc/self/root/etc/passwd', roots).ok).toBe(false);
    expect(checkPath(`${root}/../${root.split('/').pop()}-x`, roots).ok).toBe(false);
  });

  it('gives the pre-flight reasons', () => {
    expect(checkPath('a\nb', roots)).toMatchObject({
      message: 'Invalid path: Path contains invalid characters (newlines or control characters).',
    });
    expect(checkPath(join(root, 'y'.repeat(256)), roots)).toMatchObject({
      message: `Invalid path: Path component "${'y'.repeat(20)}..." is too long (maximum 255 characters).`,
    });
    expect(checkPath('', roots)).toMatchObject({ message: 'Invalid path: Path must be a non-empty string.' });
    expect(checkPath(`"${'a'.repeat(30)}"`, roots)).toMatchObject({ errorType: 'invalid_tool_params' });
  });

  it('resolves relative paths against the first root and allows the second root and the temp dir', () => {
    const second = tempDir('gmc-pg-2-');
    const tmp = tempDir('gmc-pg-tmp-');
    const two = new WorkspaceRoots([root, second], tmp);
    const rel = checkPath('sub/f.txt', two);
    expect(rel.ok && rel.path.real).toBe(join(root, 'sub', 'f.txt'));
    expect(checkPath(join(second, 'f.txt'), two).ok).toBe(true);
    expect(checkPath(join(tmp, 'tool-outputs', 'o.txt'), two).ok).toBe(true);
    expect(checkPath('/etc/passwd', two)).toMatchObject({
      message: `Path not in workspace: Attempted path "/etc/passwd" resolves outside the allowed workspace directories: ${root}, ${second} or the project temp directory: ${tmp}`,
    });
    expect(isAllowedReal(join(second, '.env'), two)).toBe(false);
    expect(isAllowedReal(join(second, 'ok.txt'), two)).toBe(true);
  });

  it('fails every path without roots', () => {
    expect(checkPath('/x', new WorkspaceRoots([]))).toEqual({
      ok: false,
      message: 'No workspace roots are configured.',
      errorType: 'path_not_in_workspace',
    });
  });
});
