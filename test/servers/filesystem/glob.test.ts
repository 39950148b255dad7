import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { connectHttp, startHttpServer } from '../common/http-server.js';
import { connectFs, errorTypeOf, firstText } from './connect.js';

const DAY = 24 * 3600;

describe('glob', () => {
  it('lists recent files newest first, then older files by path', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'sub'));
    const now = Date.now() / 1000;
    const files: [string, number][] = [
      ['z-old.txt', now - 5 * DAY],
      ['a-old.txt', now - 3 * DAY],
      ['sub/new1.txt', now - 60],
      ['new2.txt', now - 600],
      ['other.md', now],
    ];
    for (const [f, t] of files) {
      writeFileSync(join(root, f), f);
      utimesSync(join(root, f), t, t);
    }
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('glob', { pattern: '**/*.txt' });
    expect(text).toBe(
      `Found 4 file(s) matching "**/*.txt" within ${root}, sorted by modification time (newest first):\n` +
        [join(root, 'sub/new1.txt'), join(root, 'new2.txt'), join(root, 'a-old.txt'), join(root, 'z-old.txt')].join(
          '\n',
        ),
    );
  });

  it('a glob matching more than the cap sends the newest ones, the whole count and how to narrow it', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'many'));
    const now = Date.now() / 1000;
    for (let i = 0; i < 1200; i++) {
      const f = join(root, 'many', `f${i}.txt`);
      writeFileSync(f, '');
      // Recent, each newer than the one before: f1199 is the newest.
      utimesSync(f, now - 3600 + i, now - 3600 + i);
    }
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('glob', { pattern: '**/*.txt' });
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      `Found 1200 file(s) matching "**/*.txt" within ${root}, sorted by modification time (newest first):`,
    );
    const paths = lines.filter((l) => l.startsWith(root));
    expect(paths).toHaveLength(1000);
    expect(paths[0]).toBe(join(root, 'many', 'f1199.txt'));
    expect(text).not.toContain(join(root, 'many', 'f199.txt'));
    expect(lines.at(-1)).toMatch(/^\(Showing the first 1000 of 1200\. Narrow the search .* 'path'/);
  });

  it('is case-insensitive by default, matches literal names, skips core excludes', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'node_modules'));
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, 'A.TXT'), 'a');
    writeFileSync(join(root, 'b.txt'), 'b');
    writeFileSync(join(root, '[id].ts'), 'x');
    writeFileSync(join(root, 'node_modules', 'c.txt'), 'c');
    writeFileSync(join(root, '.git', 'd.txt'), 'd');
    const fs = await connectFs({ roots: [root] });
    const all = await fs.text('glob', { pattern: '**/*.txt' });
    expect(all).toContain(join(root, 'A.TXT'));
    expect(all).not.toContain('node_modules');
    expect(all).not.toContain('.git');
    const cs = await fs.text('glob', { pattern: '*.txt', case_sensitive: true });
    expect(cs).not.toContain('A.TXT');
    expect(cs).toContain(join(root, 'b.txt'));
    expect(await fs.text('glob', { pattern: '[id].ts' })).toContain(join(root, '[id].ts'));
  });

  it('counts ignored files and can include git-ignored ones', async () => {
    const root = tempDir();
    execFileSync('git', ['init', '-q'], { cwd: root });
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, '.gitignore'), 'dist/\n');
    writeFileSync(join(root, '.geminiignore'), 'secret.txt\n');
    writeFileSync(join(root, 'dist', 'out.txt'), 'o');
    writeFileSync(join(root, 'secret.txt'), 's');
    writeFileSync(join(root, 'keep.txt'), 'k');
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('glob', { pattern: '**/*.txt' })).toBe(
      `Found 1 file(s) matching "**/*.txt" within ${root} (2 additional files were ignored), sorted by modification time (newest first):\n${join(root, 'keep.txt')}`,
    );
    const noGit = await fs.text('glob', { pattern: '**/*.txt', respect_git_ignore: false });
    expect(noGit).toContain(join(root, 'dist', 'out.txt'));
    expect(noGit).toContain('(1 additional files were ignored)');
    expect(await fs.text('glob', { pattern: 'secret.txt' })).toBe(
      `No files found matching pattern "secret.txt" within ${root} (1 files were ignored)`,
    );
  });

  it('validates with the contract messages', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'f.txt'), 'x');
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('glob', { pattern: '*.zzz' })).toBe(`No files found matching pattern "*.zzz" within ${root}`);
    const blank = await fs.call('glob', { pattern: '  ' });
    expect([firstText(blank), errorTypeOf(blank)]).toEqual([
      "The 'pattern' parameter cannot be empty.",
      'invalid_tool_params',
    ]);
    expect(firstText(await fs.call('glob', { pattern: '*', path: join(root, 'nope') }))).toBe(
      `Search path does not exist ${join(root, 'nope')}`,
    );
    expect(firstText(await fs.call('glob', { pattern: '*', path: join(root, 'f.txt') }))).toBe(
      `Search path is not a directory: ${join(root, 'f.txt')}`,
    );
    expect(errorTypeOf(await fs.call('glob', { pattern: '*', path: '/etc' }))).toBe('path_not_in_workspace');
  });

  it('gives the same resolved paths for plain entries and for names or patterns with dot segments', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'a..b'));
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'a..b', 'x.md'), 'x');
    writeFileSync(join(root, 'sub', 'y.md'), 'y');
    writeFileSync(join(root, 'z.md'), 'z');
    const fs = await connectFs({ roots: [root] });
    const listed = (text: string) => text.split('\n').slice(1).sort();
    const all = [join(root, 'a..b/x.md'), join(root, 'sub/y.md'), join(root, 'z.md')].sort();
    expect(listed(await fs.text('glob', { pattern: '**/*.md' }))).toEqual(all);
    expect(listed(await fs.text('glob', { pattern: './sub/../**/*.md' }))).toEqual(all);
    expect(listed(await fs.text('glob', { pattern: `${root}/sub/*.md` }))).toEqual([join(root, 'sub/y.md')]);
  });
});

describe('glob over thousands of files (mtimes read on two threads, prefetched during the walk)', () => {
  it('orders exactly as for a small tree: recent newest first, then the rest by path; ignored folders left out', async () => {
    const root = tempDir();
    const now = Date.now() / 1000;
    const want: { file: string; t: number }[] = [];
    writeFileSync(join(root, '.geminiignore'), 'skip/\n');
    mkdirSync(join(root, 'skip'));
    writeFileSync(join(root, 'skip', 'x.ts'), '');
    for (let d = 0; d < 55; d++) {
      mkdirSync(join(root, `d${d}`));
      for (let f = 0; f < 100; f++) {
        const file = join(root, `d${d}`, `f${f}.ts`);
        // Every 37th file recent (at distinct times, spread over the whole walk), the others two days old.
        const n = d * 100 + f;
        const t = n % 37 === 0 ? now - 100 - ((n * 7919) % 5000) : now - 2 * DAY;
        writeFileSync(file, '');
        utimesSync(file, t, t);
        want.push({ file, t });
      }
    }
    const recent = want.filter((w) => now - w.t < DAY).sort((a, b) => b.t - a.t);
    const old = want.filter((w) => now - w.t >= DAY).map((w) => w.file);
    old.sort((a, b) => (a < b ? -1 : 1));
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('glob', { pattern: '**/*.ts' });
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      `Found 5500 file(s) matching "**/*.ts" within ${root} (1 additional files were ignored), sorted by modification time (newest first):`,
    );
    // The order of the whole result, of which the model gets the first MAX_GLOB_RESULTS.
    expect(lines.slice(1, -1)).toEqual([...recent.map((r) => r.file), ...old].slice(0, 1000));
    expect(lines.at(-1)).toContain('(Showing the first 1000 of 5500.');
    // Closing ends the server and with it the mtime reader's worker.
    await fs.client.close();
  });

  it('over HTTP, the big globs of every session share one worker thread', async () => {
    const root = tempDir();
    for (let d = 0; d < 45; d++) {
      mkdirSync(join(root, `d${d}`));
      for (let f = 0; f < 100; f++) writeFileSync(join(root, `d${d}`, `f${f}.ts`), '');
    }
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', root]);
    const threads = () => Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${srv.child.pid}/status`, 'utf8'))?.[1]);
    const clients = await Promise.all(Array.from({ length: 4 }, () => connectHttp(srv.url)));
    try {
      const glob = async (i: number) => {
        const r = await clients[i]!.callTool({ name: 'glob', arguments: { pattern: '**/*.ts' } });
        expect(r.isError).toBeFalsy();
        return JSON.stringify(r.content);
      };
      // 4,500 matches: their mtimes are read on a worker thread as well as the server's own.
      const first = await glob(0);
      expect(first).toContain('Found 4500 file(s)');
      const before = threads();
      const others = await Promise.all([1, 2, 3].map(glob));
      for (const o of others) expect(o).toBe(first);
      // One worker per session was three more threads here.
      expect(threads()).toBe(before);
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      srv.child.kill();
      await srv.exited;
    }
  });
});
