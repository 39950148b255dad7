import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandDirs, extensionContext, skillDirs } from '../../../host/extensions/contributions.js';
import type { LoadedExtension } from '../../../host/extensions/loader.js';
import { tempDir } from '../../helpers/tmp.js';
import { fakeExtension } from './fake-extension.js';

const ext = (name: string, over: Partial<LoadedExtension> = {}) => fakeExtension(name, over, '1', '/exts');
const exts = [ext('zeta'), ext('alpha'), ext('off', { enabled: false })];

describe('commandDirs', () => {
  it('user folders, the project folders when trusted, then enabled extensions alphabetically (confined)', () => {
    expect(commandDirs({ cwd: '/p', home: '/h', trusted: true, extensions: exts })).toEqual([
      { path: '/h/.gemini/commands', source: 'user', format: 'toml' },
      { path: '/h/.claude/commands', source: 'user', format: 'markdown' },
      { path: '/p/.gemini/commands', source: 'workspace', format: 'toml' },
      { path: '/p/.claude/commands', source: 'workspace', format: 'markdown' },
      { path: '/exts/alpha/commands', source: 'extension', extension: 'alpha', format: 'toml', confine: '/exts/alpha' },
      { path: '/exts/zeta/commands', source: 'extension', extension: 'zeta', format: 'toml', confine: '/exts/zeta' },
    ]);
  });

  it('an untrusted folder, or the home folder itself, adds no project folders', () => {
    const sources = (cwd: string, trusted: boolean) =>
      commandDirs({ cwd, home: '/h', trusted, extensions: [] }).map((d) => d.source);
    expect(sources('/p', false)).toEqual(['user', 'user']);
    expect(sources('/h/', true)).toEqual(['user', 'user']);
  });
});

describe('skillDirs', () => {
  it('extensions first (later folders win), then user, then the trusted project', () => {
    expect(skillDirs({ cwd: '/p', home: '/h', trusted: true, extensions: exts }).map((d) => d.path)).toEqual([
      '/exts/alpha/skills',
      '/exts/zeta/skills',
      '/h/.gemini/skills',
      '/h/.agents/skills',
      '/h/.claude/skills',
      '/p/.gemini/skills',
      '/p/.agents/skills',
      '/p/.claude/skills',
    ]);
    expect(skillDirs({ cwd: '/p', home: '/h', trusted: true, extensions: exts })[0]).toEqual({
      path: '/exts/alpha/skills',
      extension: 'alpha',
      confine: '/exts/alpha',
    });
    expect(skillDirs({ cwd: '/p', home: '/h', trusted: false, extensions: [] })).toHaveLength(3);
  });
});

describe('extensionContext', () => {
  const dir = tempDir('gmc-extctx-');
  writeFileSync(join(dir, 'b.md'), '  B rules  \n');
  writeFileSync(join(dir, 'a.md'), 'A rules');
  writeFileSync(join(dir, 'empty.md'), '   \n');
  mkdirSync(join(dir, 'folder.md'));

  it("enabled extensions' files, sorted, once each, marked with their paths; empty and unreadable ones skipped", () => {
    const text = extensionContext([
      ext('one', {
        contextFiles: [join(dir, 'b.md'), join(dir, 'empty.md'), join(dir, 'folder.md'), join(dir, 'gone.md')],
      }),
      ext('two', { contextFiles: [join(dir, 'a.md'), join(dir, 'b.md')] }),
      ext('off', { enabled: false, contextFiles: [join(dir, 'a.md')] }),
    ]);
    const a = join(dir, 'a.md');
    const b = join(dir, 'b.md');
    expect(text).toBe(
      `--- Context from: ${a} ---\nA rules\n--- End of Context from: ${a} ---\n\n--- Context from: ${b} ---\nB rules\n--- End of Context from: ${b} ---`,
    );
  });

  it('no enabled extension with context: empty', () => {
    expect(extensionContext([ext('off', { enabled: false, contextFiles: [join(dir, 'a.md')] })])).toBe('');
  });
});
