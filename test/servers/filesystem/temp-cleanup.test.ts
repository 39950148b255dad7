import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { TEMP_NAME, tempNameFor } from '../../../servers/common/atomic-write.js';
import { startStdioServer, type StdioServer } from '../../helpers/mcp.js';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

/** A pid that belonged to a process which has exited (a killed writer's). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('start of the filesystem server', () => {
  let srv: StdioServer | undefined;
  afterAll(async () => srv?.close());

  it('removes temp files of killed writes in its roots, and nothing else', async () => {
    const root = tempDir('gmc-clean-');
    const outside = tempDir('gmc-clean-out-');
    const dead = deadPid();
    const stale = [`.a.txt.${dead}.0123abcd.tmp`, `sub/deep/.b.md.${dead}.ffffffff.tmp`];
    const kept = [
      `.a.txt.${process.pid}.0123abcd.tmp`, // its writer is alive
      `.a.txt.${dead}.0123abcd.tmp.keep`,
      `.a.txt.${dead}.xyz.tmp`,
      'plain.tmp',
      `node_modules/.c.js.${dead}.0123abcd.tmp`,
      'a.txt',
    ];
    mkdirSync(join(root, 'sub', 'deep'), { recursive: true });
    mkdirSync(join(root, 'node_modules'));
    mkdirSync(join(root, `.dir.${dead}.0123abcd.tmp`));
    for (const f of [...stale, ...kept]) writeFileSync(join(root, f), 'x');
    const outsideStale = join(outside, `.o.txt.${dead}.0123abcd.tmp`);
    writeFileSync(outsideStale, 'x');
    symlinkSync(outside, join(root, 'link-out'));
    symlinkSync(outsideStale, join(root, `.l.txt.${dead}.0123abcd.tmp`));

    srv = await startStdioServer(ENTRY.filesystem, { args: ['--root', root] });
    await vi.waitFor(() => expect(stale.filter((f) => existsSync(join(root, f)))).toEqual([]), { timeout: 10_000 });
    expect(kept.filter((f) => !existsSync(join(root, f)))).toEqual([]);
    expect(existsSync(join(root, `.dir.${dead}.0123abcd.tmp`))).toBe(true);
    expect(existsSync(outsideStale)).toBe(true);
    expect(existsSync(join(root, `.l.txt.${dead}.0123abcd.tmp`))).toBe(true);
  });

  it('matches exactly the names atomic writes give their temp files', () => {
    expect(TEMP_NAME.exec(tempNameFor('name with spaces.txt'))?.[1]).toBe(String(process.pid));
  });
});
