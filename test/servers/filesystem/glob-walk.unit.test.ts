import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { walkGlob } from '../../../servers/filesystem/lib/glob-walk.js';
import { confinedReaddir } from '../../../servers/filesystem/lib/confined-glob-fs.js';
import { CORE_EXCLUDE_DIRS, CORE_EXCLUDE_GLOBS } from '../../../servers/filesystem/lib/ignore-rules.js';
import { tempDir } from '../../helpers/tmp.js';

/** A tree with what tends to differ between walkers: dot files, case, excluded dirs, links, depth. */
function tree(): string {
  const root = realpathSync(tempDir('glob-walk-'));
  const files = [
    'README.md',
    'notes.MD',
    '.hidden.md',
    'src/a.ts',
    'src/b.tsx',
    'src/deep/c.ts',
    'src/deep/deeper/d.ts',
    'src/.config/e.ts',
    'docs/x.md',
    'docs/y.txt',
    'node_modules/pkg/index.ts',
    'Node_Modules/q.md',
    'pkg/.git/HEAD',
    'lib/[id].ts',
    'ab/c.md',
    'ba/c.md',
    'x.min.js',
    'a b/space.md',
  ];
  for (const f of files) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), f);
  }
  const outside = realpathSync(tempDir('glob-outside-'));
  writeFileSync(join(outside, 'secret.md'), 'x');
  symlinkSync(outside, join(root, 'linked-dir'));
  symlinkSync(join(outside, 'secret.md'), join(root, 'linked.md'));
  return root;
}

const PATTERNS = [
  '**/*.md',
  '*.md',
  'src/*.ts',
  'src/**/*.ts',
  '**/*.{ts,tsx}',
  'src/deep/**',
  '**/deep/*.ts',
  '[ab]*/c.md',
  '**/.*',
  '*',
  '**',
  'docs/*.{md,txt}',
  '**/*.min.js',
  'a b/*.md',
  '**/linked*',
  'linked-dir/*',
  'nothing/*.md',
  '**/*.MD',
  '{**/*.md,docs/*.txt}',
  '{**/c.md,*.md}',
];

describe('walkGlob lists what fast-glob lists', () => {
  const root = tree();
  for (const nocase of [true, false]) {
    it(`every pattern, ${nocase ? 'case-insensitive' : 'case-sensitive'}: same files, no link followed`, async () => {
      for (const pattern of PATTERNS) {
        const ours = walkGlob(root, pattern, { nocase, excludeDirs: CORE_EXCLUDE_DIRS, inScope: () => true });
        const theirs = await fg(pattern, {
          cwd: root,
          onlyFiles: true,
          dot: true,
          followSymbolicLinks: false,
          caseSensitiveMatch: !nocase,
          ignore: CORE_EXCLUDE_GLOBS,
          suppressErrors: true,
          // As the glob tool runs it: directories are listed only when they are real (no symlink).
          fs: { readdir: confinedReaddir(() => true) as never },
        });
        expect([...(ours ?? [])].sort(), pattern).toEqual([...theirs].sort());
        expect(
          ours?.some((f) => f.includes('secret')),
          pattern,
        ).toBe(false);
      }
    });
  }

  it('leaves absolute, ./, ../ and escaped patterns to fast-glob; nothing outside the scope is listed', () => {
    for (const p of [`${root}/**/*.md`, './*.md', '../**/*.md', 'lib/\\[id\\].ts', 'src/./a.ts'])
      expect(walkGlob(root, p, { nocase: true, excludeDirs: [], inScope: () => true }), p).toBeUndefined();
    const scoped = walkGlob(root, '**/*.ts', {
      nocase: true,
      excludeDirs: [],
      inScope: (real) => !real.includes('/src/deep'),
    });
    expect(scoped).toContain('src/a.ts');
    expect(scoped?.some((f) => f.startsWith('src/deep'))).toBe(false);
  });

  it('walks from the file system root too (a workspace of /), relative and absolute', () => {
    const inRoot = root.slice(1);
    const opts = { nocase: false, excludeDirs: [], inScope: () => true };
    expect(walkGlob('/', `${inRoot}/src/*.ts`, opts)).toContain(`${inRoot}/src/a.ts`);
    expect(walkGlob('/', `${inRoot}/src/*.ts`, { ...opts, absolute: true })).toContain(`${root}/src/a.ts`);
  });
});
