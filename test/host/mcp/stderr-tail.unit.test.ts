import { describe, expect, it } from 'vitest';
import { StderrTail } from '../../../host/mcp/stderr-tail.js';

describe('StderrTail', () => {
  it('keeps everything while it is short', () => {
    const t = new StderrTail(100);
    t.append('a\n');
    t.append('b');
    expect(t.text()).toBe('a\nb');
  });

  it('shows only the last `limit` characters of a long stream, however it arrived', () => {
    const t = new StderrTail(10);
    for (let i = 0; i < 100; i++) t.append(String(i % 10));
    expect(t.text()).toBe('0123456789');
    t.append('x'.repeat(1000));
    expect(t.text()).toBe('x'.repeat(10));
  });

  it('a mark starts on its own line between two runs of the server', () => {
    const t = new StderrTail(200);
    t.append('crashed: boom');
    t.mark('restarted');
    t.append('listening\n');
    expect(t.text()).toBe('crashed: boom\n--- restarted ---\nlistening\n');
    const fresh = new StderrTail(200);
    fresh.mark('started');
    expect(fresh.text()).toBe('--- started ---\n');
  });
});
