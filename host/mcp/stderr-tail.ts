/** The last few KB a server wrote to stderr: shown with its status and in crash errors. */
export class StderrTail {
  private buf = '';

  constructor(private readonly limit = 4096) {}

  append(chunk: string): void {
    this.buf += chunk;
    if (this.buf.length > this.limit * 2) this.buf = this.buf.slice(-this.limit);
  }

  /** A visible line between the output of two processes of the same server. */
  mark(line: string): void {
    this.append(`${this.buf && !this.buf.endsWith('\n') ? '\n' : ''}--- ${line} ---\n`);
  }

  text(): string {
    return this.buf.length > this.limit ? this.buf.slice(-this.limit) : this.buf;
  }
}
