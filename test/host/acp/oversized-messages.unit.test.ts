import { describe, expect, it } from 'vitest';
import { dropOversizedMessages } from '../../../host/acp/oversized-messages.js';

/** Runs `chunks` through the filter: the lines passed on (as text) and the drops reported. */
async function run(chunks: (string | Uint8Array)[], limit: number) {
  const input = new ReadableStream<Uint8Array>({
    start(c) {
      for (const ch of chunks) c.enqueue(typeof ch === 'string' ? new TextEncoder().encode(ch) : ch);
      c.close();
    },
  });
  const dropped: [string | number | null, number][] = [];
  const out = dropOversizedMessages(input, limit, (id, bytes) => dropped.push([id, bytes]));
  const passed: string[] = [];
  for await (const chunk of out as unknown as AsyncIterable<Uint8Array>) passed.push(new TextDecoder().decode(chunk));
  return { passed, dropped };
}
/** Cuts a string into pieces of `size` characters. */
const pieces = (s: string, size: number) =>
  Array.from({ length: Math.ceil(s.length / size) }, (_, i) => s.slice(i * size, (i + 1) * size));
const big = (id: string, pad = 500) =>
  `{"jsonrpc":"2.0","method":"session/prompt","params":{"text":"${'x'.repeat(pad)}"},"id":${id}}`;

describe('dropOversizedMessages', () => {
  it('passes each complete line on as one chunk, whatever the input chunking', async () => {
    const text = '{"id":1}\n{"id":2,"x":"abc"}\n\n{"id":3}\n';
    for (const size of [1, 3, 7, text.length]) {
      const { passed, dropped } = await run(pieces(text, size), 100);
      expect(passed, `chunks of ${size}`).toEqual(['{"id":1}\n', '{"id":2,"x":"abc"}\n', '\n', '{"id":3}\n']);
      expect(dropped).toEqual([]);
    }
  });

  it('a line over the limit is dropped and reported with its id and size; the next line still passes', async () => {
    const line = big('42');
    const { passed, dropped } = await run([...pieces(`${line}\n{"id":43}\n`, 64)], 200);
    expect(passed).toEqual(['{"id":43}\n']);
    expect(dropped).toEqual([[42, Buffer.byteLength(line)]]);
  });

  it('string ids, and an id that comes before the big part', async () => {
    const first = `{"id":"req-7","jsonrpc":"2.0","params":{"blob":"${'y'.repeat(400)}"}}`;
    const { dropped } = await run([`${first}\n`, `${big('"abc"')}\n`], 100);
    expect(dropped.map(([id]) => id)).toEqual(['req-7', 'abc']);
    // An escaped backslash at the end of the id, and an escaped quote inside one.
    const { dropped: escapes } = await run([`${big('"a\\\\"')}\n`, `${big('"q\\"x"')}\n`], 100);
    expect(escapes.map(([id]) => id)).toEqual(['a\\', 'q"x']);
  });

  it('an "id" nested in params, or inside a string, is not the request id', async () => {
    const sneaky = `{"params":{"id":666,"note":"\\"id\\":777 ${'z'.repeat(300)}"},"method":"m","id":5}`;
    expect((await run([`${sneaky}\n`], 100)).dropped).toEqual([[5, Buffer.byteLength(sneaky)]]);
    const keys = `{"idx":1,"ids":[2],"params":{"t":"${'q'.repeat(300)}"},"id":9}`;
    expect((await run([`${keys}\n`], 100)).dropped.map(([id]) => id)).toEqual([9]);
  });

  it('a notification (no id) or a non-scalar id is reported as null', async () => {
    const note = `{"jsonrpc":"2.0","method":"n","params":{"t":"${'n'.repeat(300)}"}}`;
    const objId = `{"id":{"a":1},"params":{"t":"${'n'.repeat(300)}"}}`;
    const { dropped } = await run([`${note}\n${objId}\n`], 100);
    expect(dropped.map(([id]) => id)).toEqual([null, null]);
  });

  it('an unterminated last line is passed on (or dropped) when the input ends', async () => {
    expect((await run(['{"id":1}\n{"id":2}'], 100)).passed).toEqual(['{"id":1}\n', '{"id":2}\n']);
    expect((await run([big('3')], 100)).dropped.map(([id]) => id)).toEqual([3]);
  });

  it('exactly at the limit passes; one byte over is dropped', async () => {
    const line = '{"id":1,"p":"abcdef"}';
    expect((await run([`${line}\n`], line.length)).passed).toEqual([`${line}\n`]);
    expect((await run([`${line}\n`], line.length - 1)).dropped).toEqual([[1, line.length]]);
  });

  it('multi-byte characters split across chunks arrive whole', async () => {
    const bytes = new TextEncoder().encode('{"id":1,"t":"héllo 🙂"}\n');
    const { passed } = await run([bytes.subarray(0, 15), bytes.subarray(15, 22), bytes.subarray(22)], 100);
    expect(passed).toEqual(['{"id":1,"t":"héllo 🙂"}\n']);
  });
});
