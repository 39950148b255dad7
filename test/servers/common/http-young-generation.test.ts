import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { connectHttp, startHttpServer } from './http-server.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/** V8's young generation ("new" space: both semi-spaces) as the server's own /metrics reports it. */
async function newSpaceBytes(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => /^nodejs_heap_space_size_total_bytes\{space="new",/.test(l));
  expect(line).toBeDefined();
  return Number(line!.split(' ').pop());
}

describe('a server answering many clients over HTTP', () => {
  it('lets its young generation grow under load (the loader keeps it at 1 MB per semi-space for start-up)', async () => {
    const root = tempDir();
    const file = join(root, 'a.ts');
    writeFileSync(file, 'export const a = 1;\n'.repeat(200));
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', root], children);
    const clients = await Promise.all(Array.from({ length: 16 }, () => connectHttp(srv.url)));
    const before = await newSpaceBytes(srv.base);
    // The allocation, not the time, decides when V8 grows the space: a fixed number of calls.
    await Promise.all(
      clients.map(async (c) => {
        for (let i = 0; i < 60; i++) {
          const r = await c.callTool({ name: 'read_file', arguments: { absolute_path: file } });
          expect(r.isError).toBeFalsy();
          expect((r.content as { text: string }[])[0]!.text).toContain('export const a = 1;');
        }
      }),
    );
    const after = await newSpaceBytes(srv.base);
    console.log(`young generation: ${before / 2 ** 20} MiB at start, ${after / 2 ** 20} MiB after 960 calls`);
    // Kept small it stays at 2 MiB (two 1 MB semi-spaces) however long the server runs.
    expect(after).toBeGreaterThan(4 * 2 ** 20);
    await Promise.all(clients.map((c) => c.close()));
  }, 120_000);
});
