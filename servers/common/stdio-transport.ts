import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_BYTES } from './message-limit.js';

/** How much of an oversized line is kept to find its request id. */
const HEAD_BYTES = 4096;

/**
 * Newline-delimited JSON-RPC over stdin/stdout, like the SDK's StdioServerTransport with two differences.
 * A line's chunks are kept in a list and joined once when its newline arrives (the SDK's buffer re-copies
 * everything pending with every 64 KB chunk: quadratic, 1.4 s of event loop for a 6 MB write_file). And a
 * line over the size limit does not close the transport (the SDK's reader does, leaving a live process that
 * never answers again): it is skipped to its end, the request gets a JSON-RPC error when its id can be read
 * from the line's head, stderr says why, and reading goes on with the next line.
 */
export class LineLimitedStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** The client stopped reading (our stdout is closed): whatever we send now is lost. */
  onclientgone?: (error: Error) => void;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while the rest of an oversized line is being dropped: its head, for the request id. */
  private skipping: { head: Buffer; bytes: number } | undefined;
  private outputGone = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    // Stays attached after close: a write already under way may still fail, and an 'error' with no
    // listener would end the process with a stack trace.
    this.output.on('error', this.onOutputError);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.chunks = [];
    this.size = 0;
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.outputGone) return Promise.reject(new Error('the client stopped reading'));
    return new Promise((resolve) => {
      if (this.output.write(serializeMessage(message))) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private onInputError = (err: Error) => this.onerror?.(err);

  /** EPIPE and the like: the reader of our stdout is gone, so the session is over whatever stdin does. */
  private onOutputError = (err: Error) => {
    if (this.outputGone) return;
    this.outputGone = true;
    this.onclientgone?.(err);
  };

  private onData = (chunk: Buffer) => {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(0x0a, from);
      const end = nl === -1 ? chunk.length : nl;
      this.take(chunk.subarray(from, end));
      if (nl === -1) return;
      this.endLine();
      from = nl + 1;
    }
  };

  /** Adds part of the current line, switching to skipping once the line outgrows the limit. */
  private take(part: Buffer): void {
    if (this.skipping) {
      this.skipping.bytes += part.length;
      return;
    }
    if (this.size + part.length <= this.maxBytes) {
      this.chunks.push(part);
      this.size += part.length;
      return;
    }
    const head = Buffer.concat([...this.chunks, part]).subarray(0, HEAD_BYTES);
    this.skipping = { head: Buffer.from(head), bytes: this.size + part.length };
    this.chunks = [];
    this.size = 0;
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, bytes } = this.skipping;
      this.skipping = undefined;
      this.refuse(head, bytes);
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (err) {
      this.onerror?.(err as Error);
      return;
    }
    this.onmessage?.(message);
  }

  private refuse(head: Buffer, bytes: number): void {
    const text = `JSON-RPC message of ${bytes} bytes exceeds the ${this.maxBytes}-byte limit and was dropped`;
    this.onerror?.(new Error(text));
    const id = requestIdOf(head.toString('utf8'));
    if (id === undefined) return;
    void this.send({ jsonrpc: '2.0', id, error: { code: -32600, message: text } });
  }
}

/**
 * The top-level `id` of a request from the start of its line: only an `"id"` that comes before `"params"`
 * (where nested objects may carry ids of their own) and after `"jsonrpc"` or `"method"` at the top level.
 */
export function requestIdOf(head: string): string | number | undefined {
  const cut = head.indexOf('"params"');
  const scope = cut === -1 ? head : head.slice(0, cut);
  if (!/^\s*\{/.test(scope) || (scope.match(/\{/g)?.length ?? 0) !== 1) return undefined;
  const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(scope);
  if (!m) return undefined;
  return m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : Number(m[1]);
}
