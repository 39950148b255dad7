import { looksBinary } from '../common/binary-sniff.js';
import { StringDecoder } from 'node:string_decoder';
import stripAnsi from 'strip-ansi';

export const MAX_CAPTURE_BYTES = 16 * 1024 * 1024;
const SNIFF_BYTES = 4096;
export const CAPTURE_WARNING = '\n[GEMINI_CLI_WARNING: Output truncated. The buffer is limited to 16MB.]';

/**
 * Collects stdout+stderr as they arrive: UTF-8 decoded across chunk boundaries, at most 16 MB, and
 * nothing more once the first 4 KB look binary.
 */
export class OutputCapture {
  private readonly decoder = new StringDecoder('utf8');
  private readonly parts: string[] = [];
  private bytes = 0;
  private sniff: Buffer | undefined = Buffer.alloc(0);
  private binary = false;
  private overflow = false;

  /** Adds a chunk; returns the newly decoded text (for streaming), or '' when nothing was kept. */
  push(chunk: Buffer): string {
    if (this.binary || this.overflow) return '';
    if (this.sniff) {
      this.sniff = Buffer.concat([this.sniff, chunk.subarray(0, SNIFF_BYTES - this.sniff.length)]);
      if (looksBinary(this.sniff)) {
        this.binary = true;
        this.sniff = undefined;
        return '';
      }
      if (this.sniff.length >= SNIFF_BYTES) this.sniff = undefined;
    }
    let keep = chunk;
    if (this.bytes + chunk.length > MAX_CAPTURE_BYTES) {
      keep = chunk.subarray(0, MAX_CAPTURE_BYTES - this.bytes);
      this.overflow = true;
    }
    this.bytes += keep.length;
    const text = this.decoder.write(keep);
    if (text) this.parts.push(text);
    return text;
  }

  /** The text for the result: ANSI escapes removed, trimmed, the 16 MB warning when it applies. */
  finish(): string {
    const text = this.text().trim();
    return this.overflow ? text + CAPTURE_WARNING : text;
  }

  /** The same for the user's display: a first line's own indentation is output, so it stays. */
  shown(): string {
    return this.text()
      .replace(/^(?:[ \t]*\r?\n)+/, '')
      .trimEnd();
  }

  private text(): string {
    this.ended ??= this.binary ? '' : this.decoder.end();
    return stripAnsi(this.parts.join('') + this.ended);
  }

  private ended?: string;
}

export interface ExecOutcome {
  output: string;
  /** The output as printed, for the user (the model's `output` is trimmed). */
  shown?: string;
  /** Process-level error (spawn failure). */
  error?: string;
  exitCode: number | null;
  signal: number | null;
  pgid?: number;
  backgroundPids: number[];
  timedOut: boolean;
  aborted: boolean;
  /** The program found waiting to read its stdin, for which the command was stopped. */
  wantedInput?: string;
}

/** The model-facing result block (output, then error, exit code, signal and PIDs when present), before wrapping. */
export function formatOutcome(r: ExecOutcome, timeoutMs: number): string {
  if (r.timedOut) {
    const minutes = (timeoutMs / 60_000).toFixed(1);
    const head = `Command was automatically cancelled because it exceeded the timeout of ${minutes} minutes without output.`;
    return r.output
      ? `${head} Below is the output before it was cancelled:\n${r.output}`
      : `${head} There was no output before it was cancelled.`;
  }
  if (r.wantedInput) return wantedInputText(r.wantedInput, r.output);
  const lines = [`Output: ${r.output || '(empty)'}`];
  if (r.error) lines.push(`Error: ${r.error}`);
  if (r.exitCode !== null && r.exitCode !== 0) lines.push(`Exit Code: ${r.exitCode}`);
  if (r.signal !== null) lines.push(`Signal: ${r.signal}`);
  if (r.backgroundPids.length) lines.push(`Background PIDs: ${r.backgroundPids.join(', ')}`);
  if (r.pgid !== undefined) lines.push(`Process Group PGID: ${r.pgid}`);
  return lines.join('\n');
}

/**
 * A command stopped because it waited for input: said plainly, with the way out, so the model runs it
 * differently instead of again.
 */
export function wantedInputText(program: string, output: string): string {
  const head =
    `Command was stopped because it wanted input: \`${program}\` was waiting to read from standard input, and nobody can type into a command here. ` +
    'Run it non-interactively instead: pass the answers as options (such as --yes) or give the input through a pipe or a here-document.';
  return output
    ? `${head} Below is the output before it was stopped:\n${output}`
    : `${head} There was no output before it was stopped.`;
}

/** The user-facing summary. */
export function displayOf(r: ExecOutcome): string {
  if (r.output) return r.shown || r.output;
  if (r.signal !== null) return `Command terminated by signal: ${r.signal}`;
  if (r.error) return `Command failed: ${r.error}`;
  if (r.exitCode !== null && r.exitCode !== 0) return `Command exited with code: ${r.exitCode}`;
  return '';
}
