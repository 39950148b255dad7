import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';

const realRg = spawnSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).stdout.trim();

/**
 * The real server over stdio, its searches through the real ripgrep, behind a logging `rg` first on PATH
 * (start and end of each process, with its arguments): how many ran at once is read from the log.
 */
describe.skipIf(!realRg)('searches share the machine', () => {
  it('concurrent searches run at most one rg per core, one thread each; a lone search keeps its threads', async () => {
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
      `#!/bin/sh\necho "start $$ $*" >> '${log}'\n'${realRg}' "$@"\ncode=$?\necho "end $$" >> '${log}'\nexit $code\n`,
    );
    chmodSync(join(bin, 'rg'), 0o755);
    const srv = await startStdioServer(ENTRY.filesystem, {
      args: ['--root', root],
      env: { PATH: `${bin}:${process.env.PATH}` },
    });
    try {
      const alone = textOf(await srv.call('search_file_content', { pattern: 'needle 3-7$' }));
      expect(alone).toContain('needle 3-7');
      expect(readFileSync(log, 'utf8')).not.toContain('--threads');
      writeFileSync(log, '');
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => srv.call('search_file_content', { pattern: `needle ${i}-1$` })),
      );
      for (const [i, r] of results.entries()) expect(textOf(r)).toContain(`needle ${i}-1`);
      let running = 0;
      let most = 0;
      const lines = readFileSync(log, 'utf8').trim().split('\n');
      for (const l of lines) {
        running += l.startsWith('start') ? 1 : -1;
        most = Math.max(most, running);
      }
      console.log(
        `8 concurrent searches: ${lines.length / 2} rg runs, at most ${most} at once on ${availableParallelism()} cores`,
      );
      expect(most).toBeLessThanOrEqual(availableParallelism());
      // While others searched, each rg was held to one thread.
      expect(lines.filter((l) => l.startsWith('start') && l.includes('--threads 1')).length).toBeGreaterThan(0);
    } finally {
      await srv.close();
    }
  });
});
