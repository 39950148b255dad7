import { describe, expect, it } from 'vitest';
import { JobOutput } from '../../../servers/shell/job-output.js';

describe('JobOutput: a background job keeps the tail of its output', () => {
  it('decodes UTF-8 split across chunks and removes colours', () => {
    const out = new JobOutput(100);
    const bytes = Buffer.from('\x1b[32mready\x1b[0m → ok\n');
    const cut = bytes.indexOf(0xe2) + 1; // inside the arrow's three bytes
    out.push(bytes.subarray(0, cut));
    out.push(bytes.subarray(cut));
    expect(out.tail()).toBe('ready → ok\n');
    expect(out.droppedChars).toBe(0);
  });

  it('keeps the last `limit` characters and counts every one dropped', () => {
    const out = new JobOutput(10);
    for (let i = 0; i < 100; i++) out.push(Buffer.from(`${i % 10}`));
    expect(out.tail()).toBe('0123456789');
    expect(out.droppedChars).toBe(90);
  });

  it('keeps nothing of binary output', () => {
    const out = new JobOutput(100);
    out.push(Buffer.from([0, 1, 2, 0, 255, 0]));
    out.push(Buffer.from('text after'));
    expect(out.binary).toBe(true);
    expect(out.tail()).toBe('');
  });
});
