import { deserializeMessage, STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's stdio read buffer concatenates the whole pending buffer with every 64 KB chunk, so one
 * multi-megabyte message (a large tool result, a write_file of a large file) costs quadratic copying: 1.4 s
 * of the event loop for 6 MB. This buffer keeps the chunks in a list and joins them once per complete line,
 * with the same interface and the same size limit. The host's stdio client transports use it; our servers
 * read with their own line-limited transport (servers/common/stdio-transport.ts).
 */
export class LinearReadBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Leading chunks already searched and known to hold no newline. */
  private scanned = 0;

  constructor(private readonly maxBufferSize = STDIO_DEFAULT_MAX_BUFFER_SIZE) {}

  append(chunk: Buffer): void {
    if (this.size + chunk.length > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  readMessage(): JSONRPCMessage | null {
    for (let i = this.scanned; i < this.chunks.length; i++) {
      const nl = this.chunks[i].indexOf(10);
      if (nl === -1) {
        this.scanned = i + 1;
        continue;
      }
      this.scanned = 0;
      const head = Buffer.concat([...this.chunks.slice(0, i), this.chunks[i].subarray(0, nl)]);
      const rest = this.chunks[i].subarray(nl + 1);
      this.chunks = rest.length > 0 ? [rest, ...this.chunks.slice(i + 1)] : this.chunks.slice(i + 1);
      this.size -= head.length + 1;
      return deserializeMessage(head.toString('utf8').replace(/\r$/, ''));
    }
    return null;
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.scanned = 0;
  }
}

/**
 * Gives an SDK stdio transport the linear buffer by replacing its private `_readBuffer` (listed in
 * docs/third-party-patches.md); a transport without the field keeps its own.
 */
export function useLinearReadBuffer(transport: object, maxBufferSize?: number): void {
  const t = transport as unknown as { _readBuffer?: unknown };
  if (t._readBuffer !== undefined) t._readBuffer = new LinearReadBuffer(maxBufferSize);
}
