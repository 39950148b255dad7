/** stdout of a stdio server belongs to the protocol, so every log line goes to stderr. */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  debug(msg: string): void;
}

export function createStderrLogger(name: string, debug = !!process.env.GEMINI_MCP_DEBUG): Logger {
  const write = (level: string, msg: string) => process.stderr.write(`[${name}] ${level}: ${msg}\n`);
  return {
    info: (m) => write('info', m),
    warn: (m) => write('warn', m),
    error: (m) => write('error', m),
    debug: (m) => {
      if (debug) write('debug', m);
    },
  };
}
