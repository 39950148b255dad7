import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { LineLimitedStdioTransport, requestIdOf } from '../../../servers/common/stdio-transport.js';

/** A transport over real in-memory streams: what it received, its errors, and the lines it wrote. */
async function open(maxBytes = 200) {
  const input = new PassThrough();
  const output = new PassThrough();
  const t = new LineLimitedStdioTransport(input, output, maxBytes);
  const messages: JSONRPCMessage[] = [];
  const errors: string[] = [];
  const written: string[] = [];
  output.on('data', (c: Buffer) => written.push(...c.toString('utf8').split('\n').filter(Boolean)));
  t.onmessage = (m) => messages.push(m);
  t.onerror = (e) => errors.push(e.message);
  await t.start();
  /** Writes each chunk and lets the stream deliver it. */
  const feed = async (...chunks: (string | Buffer)[]) => {
    for (const c of chunks) {
      input.write(c);
      await new Promise<void>((r) => setImmediate(r));
    }
  };
  return { t, input, messages, errors, written, feed };
}

describe('LineLimitedStdioTransport', () => {
  it('reads messages split anywhere, with CRLF and blank lines, in order', async () => {
    const { messages, errors, feed } = await open();
    await feed('{"jsonrpc":"2.0","id":1,"me', 'thod":"ping"}\r\n\n   \n{"jsonrpc":"2.0",', '"method":"n"}\n');
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'n' },
    ]);
    expect(errors).toEqual([]);
  });

  it('a line that is not JSON-RPC is an error, and the next line still reads', async () => {
    const { messages, errors, feed } = await open();
    await feed('not json\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(errors).toHaveLength(1);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('an oversized request is dropped and answered with an error for its id; reading goes on', async () => {
    const { messages, errors, written, feed } = await open(100);
    const big = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"blob":"${'x'.repeat(300)}"}}`;
    await feed(
      big.slice(0, 60),
      big.slice(60, 250),
      `${big.slice(250)}\n`,
      '{"jsonrpc":"2.0","id":8,"method":"ping"}\n',
    );
    const text = `JSON-RPC message of ${big.length} bytes exceeds the 100-byte limit and was dropped`;
    expect(errors).toEqual([text]);
    expect(written.map((l) => JSON.parse(l))).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: text } },
    ]);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 8, method: 'ping' }]);
  });

  it('an oversized line whose id cannot be read safely gets no answer, only the error', async () => {
    const { errors, written, feed } = await open(50);
    await feed(`{"jsonrpc":"2.0","method":"m","params":{"id":99,"pad":"${'p'.repeat(100)}"},"id":3}\n`);
    expect(errors).toHaveLength(1);
    expect(written).toEqual([]);
  });

  it('exactly at the limit is read', async () => {
    const line = '{"jsonrpc":"2.0","id":1,"method":"p"}';
    const { messages, feed } = await open(line.length);
    await feed(`${line}\n`);
    expect(messages).toHaveLength(1);
  });

  it('send writes one line per message; after close nothing more is read', async () => {
    const { t, messages, written, feed } = await open();
    let closed = false;
    t.onclose = () => {
      closed = true;
    };
    await t.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(written).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}']);
    await t.close();
    expect(closed).toBe(true);
    await feed('{"jsonrpc":"2.0","id":5,"method":"ping"}\n');
    expect(messages).toEqual([]);
  });
});

describe('requestIdOf', () => {
  it('the top-level id before params, number or string (escapes read)', () => {
    expect(requestIdOf('{"jsonrpc":"2.0","id":42,"method":"x","params":{')).toBe(42);
    expect(requestIdOf('{"id":-1,"params":')).toBe(-1);
    expect(requestIdOf('{"jsonrpc":"2.0","id":"a\\"b\\\\","method":"x"')).toBe('a"b\\');
  });

  it('no id from inside params, from a nested object, or from something that is not an object', () => {
    expect(requestIdOf('{"jsonrpc":"2.0","method":"x","params":{"id":5}')).toBeUndefined();
    expect(requestIdOf('{"meta":{"id":5},"jsonrpc":"2.0"')).toBeUndefined();
    expect(requestIdOf('[{"id":5}]')).toBeUndefined();
    expect(requestIdOf('{"jsonrpc":"2.0","method":"x"')).toBeUndefined();
  });
});
