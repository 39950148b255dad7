/**
 * A message over the size limit must cost the editor that one request, not the connection. The ACP SDK's
 * line reader errors its whole stream on an over-long line, which ends the agent (exit 0, every session
 * lost). This filter sits in front of it: it passes each complete line on as one chunk, and drops a line
 * that grows past the limit, reporting the request's id (found by a streaming scan of the dropped bytes for
 * the top-level `"id"` member) so that request alone can be answered with an error.
 */

const NEWLINE = 0x0a;

/** The JSON-RPC id of a message seen only as a stream of bytes: the top-level `"id"` member's value. */
class TopLevelIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private token: number[] = [];
  private lastString: string | undefined;
  private afterKey: 'none' | 'colon' | 'value' = 'none';
  private value: number[] = [];
  /** Inside a quoted id, the previous byte was an unescaped backslash. */
  private valueEscaped = false;
  id: string | number | null | undefined;

  push(bytes: Uint8Array): void {
    for (let i = 0; i < bytes.length && this.id === undefined; i++) this.step(bytes[i]!);
  }

  private step(b: number): void {
    if (this.afterKey === 'value') {
      this.valueByte(b);
      return;
    }
    if (this.inString) {
      this.stringByte(b);
      return;
    }
    if (b === 0x22 /* " */) {
      this.inString = true;
      this.token = [];
      if (this.afterKey === 'colon' && this.depth === 1) {
        this.afterKey = 'value';
        this.value = [b];
        this.inString = false;
      }
      return;
    }
    if (this.afterKey === 'colon') {
      if (b > 0x20) {
        this.afterKey = 'value';
        this.value = [b];
      }
      return;
    }
    if (b === 0x7b /* { */ || b === 0x5b /* [ */) this.depth++;
    else if (b === 0x7d /* } */ || b === 0x5d /* ] */) this.depth--;
    else if (b === 0x3a /* : */ && this.depth === 1 && this.lastString === 'id') {
      this.afterKey = 'colon';
      return;
    }
    if (b > 0x20) this.lastString = undefined;
  }

  private stringByte(b: number): void {
    if (this.escaped) this.escaped = false;
    else if (b === 0x5c /* \ */) this.escaped = true;
    else if (b === 0x22) {
      this.inString = false;
      this.lastString = this.token.length <= 2 ? String.fromCharCode(...this.token) : undefined;
      return;
    }
    if (this.token.length <= 2) this.token.push(b);
  }

  /** A number, a short string or null, ended by `,` or `}` (or the string's closing quote). */
  private valueByte(b: number): void {
    const quoted = this.value[0] === 0x22;
    let ends: boolean;
    if (!quoted) ends = b === 0x2c || b === 0x7d || b <= 0x20;
    else if (this.valueEscaped) ends = this.valueEscaped = false;
    else {
      this.valueEscaped = b === 0x5c;
      ends = b === 0x22;
    }
    if (quoted && ends) this.value.push(b);
    if (ends || this.value.length > 256) {
      this.id = parseId(Buffer.from(this.value).toString('utf8').trim());
      return;
    }
    this.value.push(b);
  }
}

function parseId(text: string): string | number | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'string' || typeof v === 'number' ? v : null;
  } catch {
    return null;
  }
}

/**
 * `input` as complete lines (each ending in a newline, one chunk each), with every line longer than
 * `limit` bytes dropped and reported through `onDropped` with its request id (null when it had none).
 */
export function dropOversizedMessages(
  input: ReadableStream<Uint8Array>,
  limit: number,
  onDropped: (id: string | number | null, bytes: number) => void,
): ReadableStream<Uint8Array> {
  let parts: Uint8Array[] = [];
  let size = 0;
  let scanner: TopLevelIdScanner | undefined;
  const take = (bytes: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>, ends: boolean) => {
    if (scanner) scanner.push(bytes);
    else if (size + bytes.length > limit) {
      scanner = new TopLevelIdScanner();
      for (const p of parts) scanner.push(p);
      scanner.push(bytes);
      parts = [];
    } else if (bytes.length > 0) parts.push(bytes);
    size += bytes.length;
    if (!ends) return;
    if (scanner) onDropped(scanner.id ?? null, size);
    else controller.enqueue(concatLine(parts, size));
    parts = [];
    size = 0;
    scanner = undefined;
  };
  const split = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        take(chunk.subarray(start, nl), controller, true);
        start = nl + 1;
      }
      if (start < chunk.length) take(chunk.slice(start), controller, false);
    },
    flush(controller) {
      if (size > 0) take(new Uint8Array(0), controller, true);
    },
  });
  return input.pipeThrough(split);
}

function concatLine(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size + 1);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out[size] = NEWLINE;
  return out;
}
