import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { isAlive, waitFor } from '../../helpers/wait.js';
import { connectHttp, startHttpServer } from '../common/http-server.js';

const realRg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();

/**
 * A 600-file tree and a logging `rg` first on PATH: the start (pid, parent pid, arguments) and end of each
 * process.
 */
function setUp(): { root: string; log: string; path: string } {
  const base = tempDir('gmc-search-share-');
  const root = join(base, 'tree');
  for (let d = 0; d < 10; d++) {
    mkdirSync(join(root, `d${d}`), { recursive: true });
    for (let f = 0; f < 60; f++) writeFileSync(join(root, `d${d}`, `f${f}.txt`), `line\nneedle ${d}-${f}\n`);
  }
  const bin = join(base, 'bin');
  const log = join(base, 'rg.log');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'rg'),
    `#!/bin/sh\necho "start $$ $PPID $*" >> '${log}'\n'${realRg}' "$@"\ncode=$?\necho "end $$" >> '${log}'\nexit $code\n`,
  );
  chmodSync(join(bin, 'rg'), 0o755);
  return { root, log, path: `${bin}:${process.env.PATH}` };
}

/** How many rg processes the log shows running at once, at most; and the log's start lines. */
function mostAtOnce(log: string): { most: number; starts: string[] } {
  let running = 0;
  let most = 0;
  const lines = readFileSync(log, 'utf8').trim().split('\n');
  for (const l of lines) {
    running += l.startsWith('start') ? 1 : -1;
    most = Math.max(most, running);
  }
  const starts = lines.filter((l) => l.startsWith('start'));
  console.log(
    `concurrent searches: ${starts.length} rg runs, at most ${most} at once on ${availableParallelism()} cores`,
  );
  return { most, starts };
}

/**
 * The real server, its searches through the real ripgrep behind the logging `rg`: how many ran at once is
 * read from the log.
 */
describe.skipIf(!realRg)('searches share the machine', () => {
  it('concurrent searches run at most one rg per core, one thread each; a lone search keeps its threads', async () => {
    const { root, log, path } = setUp();
    const srv = await startStdioServer(ENTRY.filesystem, { args: ['--root', root], env: { PATH: path } });
    try {
      const alone = textOf(await srv.call('search_file_content', { pattern: 'needle 3-7$' }));
      expect(alone).toContain('needle 3-7');
      expect(readFileSync(log, 'utf8')).not.toContain('--threads');
      writeFileSync(log, '');
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => srv.call('search_file_content', { pattern: `needle ${i}-1$` })),
      );
      for (const [i, r] of results.entries()) expect(textOf(r)).toContain(`needle ${i}-1`);
      const { most, starts } = mostAtOnce(log);
      expect(most).toBeLessThanOrEqual(availableParallelism());
      // While others searched, each rg was held to one thread.
      expect(starts.filter((l) => l.includes('--threads 1')).length).toBeGreaterThan(0);
    } finally {
      await srv.close();
    }
  });

  it('over HTTP, the searches of many sessions share the same slots', async () => {
    const { root, log, path } = setUp();
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', root], [], { ...process.env, PATH: path });
    // Eight clients, each its own session: the server builds one MCP server per session.
    const clients = await Promise.all(Array.from({ length: 8 }, () => connectHttp(srv.url)));
    try {
      const results = await Promise.all(
        clients.map((c, i) => c.callTool({ name: 'search_file_content', arguments: { pattern: `needle ${i}-2$` } })),
      );
      for (const [i, r] of results.entries()) {
        expect(r.isError).toBeFalsy();
        expect(JSON.stringify(r.content)).toContain(`needle ${i}-2`);
      }
      const { most, starts } = mostAtOnce(log);
      expect(starts.length).toBeGreaterThanOrEqual(8);
      expect(most).toBeLessThanOrEqual(availableParallelism());
      expect(starts.filter((l) => l.includes('--threads 1')).length).toBeGreaterThan(0);
    } finally {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      srv.child.kill();
      await srv.exited;
    }
  });
  it('a server that has grown starts its searches through the relay, and the relay ends with it', async () => {
    const { root, log, path } = setUp();
    // 0 MiB: the relay is started by the first search (which still spawns directly) and used from then on.
    const srv = await startStdioServer(ENTRY.filesystem, {
      args: ['--root', root],
      env: { PATH: path, GEMINI_MCP_SEARCH_RELAY_MIB: '0' },
    });
    const parents = () =>
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('start'))
        .map((l) => Number(l.split(' ')[2]));
    let relayPid = 0;
    try {
      for (let i = 0; relayPid === 0; i++) {
        const r = textOf(await srv.call('search_file_content', { pattern: `needle ${i % 10}-${i % 60}$` }));
        expect(r).toContain(`needle ${i % 10}-${i % 60}`);
        relayPid = parents().find((p) => p !== srv.pid()) ?? 0;
        if (i > 200) throw new Error('no search went through the relay');
      }
      expect(parents()[0]).toBe(srv.pid());
      // Through the relay, concurrent searches find what a direct spawn finds and still share the slots.
      writeFileSync(log, '');
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => srv.call('search_file_content', { pattern: `needle ${i}-3$` })),
      );
      const first = textOf(results[0]);
      expect(first).toContain('File: d0/f3.txt');
      for (const [i, r] of results.entries())
        expect(textOf(r)).toBe(first.replace(/d0\//g, `d${i}/`).replace(/0-3/g, `${i}-3`));
      expect(new Set(parents())).toEqual(new Set([relayPid]));
      expect(mostAtOnce(log).most).toBeLessThanOrEqual(availableParallelism());
      expect(isAlive(relayPid)).toBe(true);
    } finally {
      await srv.close();
    }
    await waitFor(() => !isAlive(relayPid), 'the relay to end with its server');
  });
});
