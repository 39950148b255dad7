import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatTruncated, truncateWithFile } from '../../protocol/truncate.js';
import { tempDir } from '../helpers/tmp.js';

describe('truncation shared by the shell server and the host', () => {
  it('keeps the first 20 % and the last 80 % of the threshold and counts the middle', () => {
    const text = 'a'.repeat(50) + 'b'.repeat(100) + 'c'.repeat(50);
    const out = formatTruncated(text, 100, '/tmp/full.txt');
    expect(out).toBe(
      'Output too large. Showing first 20 and last 80 characters. For full output see: /tmp/full.txt\n' +
        `${'a'.repeat(20)}\n\n... [100 characters omitted] ...\n\n${'b'.repeat(30)}${'c'.repeat(50)}`,
    );
  });

  it('saves the whole text under tool-outputs/ only when over the threshold', async () => {
    const dir = tempDir('gmc-trunc-');
    expect(await truncateWithFile('short', { threshold: 10, dir, label: 'x' })).toEqual({ text: 'short' });
    expect(await truncateWithFile('x'.repeat(50), { threshold: 0, dir, label: 'x' })).toEqual({ text: 'x'.repeat(50) });
    const r = await truncateWithFile('y'.repeat(50), { threshold: 10, dir, label: 'my tool/../x' });
    expect(r.file).toMatch(new RegExp(`^${dir}/tool-outputs/my_tool_.._x-\\d+-[0-9a-f]{6}\\.txt$`));
    expect(readFileSync(r.file!, 'utf8')).toBe('y'.repeat(50));
    expect(r.text).toContain(`For full output see: ${r.file}`);
  });
});
