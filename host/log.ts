import { safeBlock } from './safe-text.js';

/** The host's logger. The terminal UI owns stdout, so nothing here ever writes there. */
export interface HostLogger {
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface HostLoggerOptions {
  /** Write anything at all (the `--debug` flag). Off by default so a full-screen UI stays clean. */
  debug?: boolean;
  write?: (line: string) => void;
}

export function createHostLogger(opts: HostLoggerOptions = {}): HostLogger {
  const write = opts.write ?? ((line: string) => void process.stderr.write(line));
  const emit = (level: string) => (msg: string) => {
    // Debug lines carry servers' own words (stderr, errors): made safe for the terminal.
    if (opts.debug) write(`[gemini-mcp] ${level}: ${safeBlock(msg)}\n`);
  };
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') };
}

export const silentLogger: HostLogger = { debug() {}, info() {}, warn() {}, error() {} };
