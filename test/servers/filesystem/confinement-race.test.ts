import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStdioServer, textOf, type StdioServer } from '../../helpers/mcp.js';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

/**
 * A directory inside the root flips between a real directory and a symlink to outside while real calls
 * run over stdio: the guard may see the directory and the use the symlink. Nothing from outside may come
 * back and nothing may be created outside. The flipper is a child process with a fixed iteration budget
 * (killed earlier once the calls are done); the call counts are fixed too.
 */
const SECRET = 'OUTSIDE_SECRET_c0ffee';
const OUTSIDE_ONLY = 'outside-only-name.txt';
const ROUNDS = 120;

// A write that lands while \`flip\` is briefly absent creates a real directory there: it is moved aside
// (it is inside the root) so the flipping goes on.
const FLIPPER = `
const { renameSync } = require('node:fs');
const [root] = process.argv.slice(1);
const p = (n) => root + '/' + n;
const quiet = (f) => { try { f(); return true; } catch { return false; } };
const put = (src, i) => quiet(() => renameSync(p(src), p('flip'))) ||
  (quiet(() => renameSync(p('flip'), p('stray-' + i))), quiet(() => renameSync(p(src), p('flip'))));
for (let i = 0; i < 3_000_000; i++) {
  if (!quiet(() => renameSync(p('flip'), p('.real')))) continue;
  put('.link', i);
  quiet(() => renameSync(p('flip'), p('.link')));
  put('.real', i);
}
`;

function treeOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

describe('confinement holds at use time while a directory flips to a symlink', () => {
  let root: string;
  let outside: string;
  let srv: StdioServer;
  let flipper: ChildProcess;
  let outsideBefore: string[];

  beforeAll(async () => {
    root = tempDir('gmc-race-');
    outside = tempDir('gmc-race-out-');
    writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
    writeFileSync(join(outside, OUTSIDE_ONLY), `${SECRET}\n`);
    mkdirSync(join(outside, 'sub'));
    writeFileSync(join(outside, 'sub', 'deep.txt'), `${SECRET}\n`);
    outsideBefore = treeOf(outside);
    mkdirSync(join(root, 'flip'));
    writeFileSync(join(root, 'flip', 'secret.txt'), 'inside content\n');
    mkdirSync(join(root, 'flip', 'sub'));
    writeFileSync(join(root, 'flip', 'sub', 'deep.txt'), 'inside deep\n');
    symlinkSync(outside, join(root, '.link'));
    srv = await startStdioServer(ENTRY.filesystem, { args: ['--root', root] });
    flipper = spawn(process.execPath, ['-e', FLIPPER, root], { stdio: 'ignore' });
  });

  afterAll(async () => {
    if (flipper?.pid && flipper.exitCode === null) flipper.kill('SIGKILL');
    await srv?.close();
  });

  const rounds = async (calls: () => Promise<string>[], count = ROUNDS): Promise<string[]> => {
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(...(await Promise.all(calls())));
    return out;
  };
  const text = (name: string, args: Record<string, unknown>) => srv.call(name, args).then(textOf);

  it('read_file and read_many_files never return outside content', async () => {
    const texts = await rounds(() => [
      text('read_file', { absolute_path: join(root, 'flip', 'secret.txt') }),
      text('read_file', { absolute_path: join(root, 'flip', 'sub', 'deep.txt') }),
      text('read_many_files', { paths: ['flip/secret.txt', 'flip/sub/deep.txt'] }),
    ]);
    expect(texts.filter((t) => t.includes(SECRET))).toEqual([]);
    expect(texts.some((t) => t.includes('inside content'))).toBe(true);
  });

  it('search_file_content never reports outside lines, with or without a path', async () => {
    const texts = await rounds(
      () => [
        text('search_file_content', { pattern: 'secret|inside', path: join(root, 'flip') }),
        text('search_file_content', { pattern: 'secret|inside', path: join(root, 'flip', 'sub') }),
        text('search_file_content', { pattern: 'secret|inside' }),
      ],
      ROUNDS / 2,
    );
    expect(texts.filter((t) => t.includes(SECRET) || t.includes(OUTSIDE_ONLY))).toEqual([]);
  });

  it('list_directory and glob never name outside files', async () => {
    const texts = await rounds(() => [
      text('list_directory', { path: join(root, 'flip') }),
      text('glob', { pattern: 'flip/*' }),
      text('glob', { pattern: 'flip/**' }),
    ]);
    expect(texts.filter((t) => t.includes(OUTSIDE_ONLY))).toEqual([]);
  });

  it('write_file and replace create nothing outside and leave no temp file', async () => {
    let n = 0;
    await rounds(() => {
      n++;
      return [
        text('write_file', { file_path: join(root, 'flip', `new-${n}`, 'made.txt'), content: 'x\n' }),
        text('write_file', { file_path: join(root, 'flip', `top-${n}.txt`), content: 'y\n' }),
        text('replace', {
          file_path: join(root, 'flip', `made-${n}`, 'by-replace.txt'),
          old_string: '',
          new_string: 'z\n',
        }),
      ];
    });
    flipper.kill('SIGKILL');
    expect(treeOf(outside)).toEqual(outsideBefore);
    expect(treeOf(root).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
