import { StringDecoder } from 'node:string_decoder';
import stripAnsi from 'strip-ansi';
import { looksBinary } from '../common/binary-sniff.js';

/**
 * A background job's output kept in memory: its last this many characters (older output is dropped).
 * Gemini CLI reads at most the last 64 KiB of a job's log; with up to 100 jobs a session holds at most
 * ~64 MB of output.
 */
export const JOB_OUTPUT_LIMIT = 256_000;
const SNIFF_BYTES = 4096;

/**
 * The output of a background job, bounded: a dev server may print for hours, so only the tail is
 * kept and the count of what was dropped is remembered, so a reader is told. UTF-8 is decoded across
 * chunk boundaries; output whose first 4 KB look binary is not kept at all.
 */
export class JobOutput {
  private readonly decoder = new StringDecoder('utf8');
  private parts: string[] = [];
  private length = 0;
  private sniff: Buffer | undefined = Buffer.alloc(0);
  private dropped = 0;
  binary = false;

  constructor(private readonly limit = JOB_OUTPUT_LIMIT) {}

  push(chunk: Buffer): void {
    if (this.binary) return;
    if (this.sniff) {
      this.sniff = Buffer.concat([this.sniff, chunk.subarray(0, SNIFF_BYTES - this.sniff.length)]);
      if (looksBinary(this.sniff)) {
        this.binary = true;
        this.parts = [];
        this.length = 0;
        return;
      }
      if (this.sniff.length >= SNIFF_BYTES) this.sniff = undefined;
    }
    this.add(this.decoder.write(chunk));
  }

  private add(text: string): void {
    if (!text) return;
    this.parts.push(text);
    this.length += text.length;
    if (this.length <= this.limit * 1.25) return;
    // Trimmed in batches (at a quarter over the limit, down to the limit) so a chatty job costs linear time.
    const joined = this.parts.join('');
    const cut = joined.length - this.limit;
    this.parts = [joined.slice(cut)];
    this.length = this.limit;
    this.dropped += cut;
  }

  /** Characters dropped so far, counting the part of the buffer beyond the limit. */
  get droppedChars(): number {
    return this.dropped + Math.max(0, this.length - this.limit);
  }

  /** The last `limit` characters, ANSI escapes removed (a job's colours mean nothing to the model). */
  tail(): string {
    if (this.parts.length > 1) this.parts = [this.parts.join('')];
    const raw = this.parts[0] ?? '';
    return stripAnsi(raw.length > this.limit ? raw.slice(raw.length - this.limit) : raw);
  }
}
