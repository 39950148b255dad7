import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META } from '../../../protocol/meta.js';
import { startStdioServer, textOf, type StdioServer } from '../../helpers/mcp.js';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

/** `n` numbered lines, every one different between tags. */
const lines = (tag: string, n: number) =>
  `${Array.from({ length: n }, (_, i) => `${tag} line ${i}: lorem ipsum dolor sit amet ${i * 31}`).join('\n')}\n`;

/**
 * Rewriting every line of a multi-megabyte file used to run a quadratic diff (minutes for 1 MB, never
 * for 6 MB) before asking: the diff is bounded now, a huge one is summarised, and the confirmation
 * stays within what a client reads in one line.
 */
describe('edits of large files over stdio', () => {
  let root: string;
  let srv: StdioServer;
  const asked: ElicitRequest['params'][] = [];

  beforeAll(async () => {
    root = tempDir('gmc-large-');
    srv = await startStdioServer(ENTRY.filesystem, {
      args: ['--root', root],
      elicit: (p) => (asked.push(p), { action: 'accept', content: { decision: 'proceed_once' } }),
    });
  });
  afterAll(async () => srv?.close());

  it('confirms a full rewrite of a 3 MB file with a summary diff and writes it', async () => {
    const file = join(root, 'big.txt');
    writeFileSync(file, lines('old', 45_000));
    const next = lines('new', 45_000);
    asked.length = 0;
    const r = await srv.call('write_file', { file_path: file, content: next });
    expect(textOf(r)).toMatch(/^Successfully overwrote file: /);
    expect(readFileSync(file, 'utf8')).toBe(next);
    const detail = asked[0]._meta?.[META.confirmation] as Record<string, unknown>;
    expect(detail.fileDiff).toContain(
      '@@ -1,45000 +1,45000 @@\n\\ Diff too large to show line by line: 45000 lines removed, 45000 lines added',
    );
    // Old and new contents together pass the bound of one confirmation request: only the diff goes.
    expect(detail.newContent).toBeUndefined();
    expect(asked[0].message.length).toBeLessThan(1000);
  }, 60_000);

  it('still shows the exact diff of a small change in the same large file', async () => {
    const file = join(root, 'big2.txt');
    writeFileSync(file, lines('old', 45_000));
    asked.length = 0;
    const r = await srv.call('replace', {
      file_path: file,
      old_string: 'old line 20000: ',
      new_string: 'changed line 20000: ',
    });
    expect(textOf(r)).toMatch(/^Successfully modified file: .* \(1 replacements\)\./);
    const detail = asked[0]._meta?.[META.confirmation] as Record<string, unknown>;
    expect(detail.fileDiff).toContain('@@ -19998,7 +19998,7 @@');
    expect(
      String(detail.fileDiff)
        .split('\n')
        .filter((l) => /^[-+][^-+]/.test(l)),
    ).toEqual([
      `-old line 20000: lorem ipsum dolor sit amet ${20000 * 31}`,
      `+changed line 20000: lorem ipsum dolor sit amet ${20000 * 31}`,
    ]);
  }, 60_000);
});
