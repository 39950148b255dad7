import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { describe, expect, it } from 'vitest';
import { LinearReadBuffer, useLinearReadBuffer } from '../../../host/mcp/linear-read-buffer.js';

/** Feeds `bytes` in pieces cut at `cuts`, reading every complete message after each piece. */
function feed(buffer: { append(c: Buffer): void; readMessage(): unknown }, bytes: Buffer, cuts: number[]) {
  const out: unknown[] = [];
  let from = 0;
  for (const to of [...cuts, bytes.length]) {
    buffer.append(bytes.subarray(from, to));
    from = to;
    for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) out.push(m);
  }
  return out;
}

const messages = [
  { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  { jsonrpc: '2.0', id: 2, result: { text: 'héllo wörld ✓ 🙂' } },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
];
const wire = Buffer.from(`${messages.map((m) => JSON.stringify(m)).join('\n')}\r\n`);

describe('LinearReadBuffer', () => {
  it('reads the same messages as the SDK buffer, wherever the chunks are cut (multi-byte characters too)', () => {
    const expected = feed(new ReadBuffer(), wire, []);
    expect(expected).toEqual(messages);
    for (let a = 1; a < wire.length; a += 7) {
      for (const b of [a + 1, a + 3, Math.min(wire.length - 1, a + 40)]) {
        if (b <= a || b >= wire.length) continue;
        expect(feed(new LinearReadBuffer(), wire, [a, b]), `cut at ${a}, ${b}`).toEqual(expected);
      }
    }
  });

  it('one message spread over many chunks is read when its newline arrives, not before', () => {
    const buf = new LinearReadBuffer();
    const big = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 9, result: { text: 'x'.repeat(300_000) } })}\n`);
    for (let i = 0; i < big.length - 1; i += 65_536) {
      buf.append(big.subarray(i, Math.min(i + 65_536, big.length - 1)));
      expect(buf.readMessage()).toBeNull();
    }
    buf.append(big.subarray(big.length - 1));
    expect((buf.readMessage() as { id: number }).id).toBe(9);
    expect(buf.readMessage()).toBeNull();
  });

  it('a bad line throws and is consumed; the next line still reads', () => {
    const buf = new LinearReadBuffer();
    buf.append(Buffer.from('not json\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
    expect(() => buf.readMessage()).toThrow();
    expect(buf.readMessage()).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
  });

  it('over the size limit: throws, and starts empty again', () => {
    const buf = new LinearReadBuffer(10);
    buf.append(Buffer.from('{"a":'));
    expect(() => buf.append(Buffer.from('123456'))).toThrow('ReadBuffer exceeded maximum size of 10 bytes');
    buf.append(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"p"}\n'.slice(0, 10)));
    expect(buf.readMessage()).toBeNull();
  });

  it('the limit counts what is pending, so read messages free their space', () => {
    const line = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"p"}\n');
    const buf = new LinearReadBuffer(line.length);
    for (let i = 0; i < 5; i++) {
      buf.append(line);
      expect(buf.readMessage()).toEqual({ jsonrpc: '2.0', id: 1, method: 'p' });
    }
  });

  it('clear drops what is pending', () => {
    const buf = new LinearReadBuffer();
    buf.append(Buffer.from('{"jsonrpc":"2.0",'));
    buf.clear();
    buf.append(Buffer.from('{"jsonrpc":"2.0","id":2,"method":"q"}\n'));
    expect(buf.readMessage()).toEqual({ jsonrpc: '2.0', id: 2, method: 'q' });
  });
});

describe('useLinearReadBuffer', () => {
  it("replaces a transport's read buffer, and leaves a transport without one alone", () => {
    const transport = { _readBuffer: new ReadBuffer() };
    useLinearReadBuffer(transport, 1234);
    expect(transport._readBuffer).toBeInstanceOf(LinearReadBuffer);
    const other: Record<string, unknown> = {};
    useLinearReadBuffer(other);
    expect(other).toEqual({});
  });
});
