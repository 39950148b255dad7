/** A JSON syntax error with where it is, 1-based (what an editor's "go to line" takes). */
export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
  }
}

/** Line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const line = before.split('\n').length;
  return { line, column: before.length - before.lastIndexOf('\n') };
}

/**
 * JSON with comments, as settings files allow. A syntax error says where, by line and column (V8 reports
 * only a character position, and not at all for input that ends early).
 */
export function parseJsonc(text: string): unknown {
  const stripped = stripJsonComments(text);
  try {
    return JSON.parse(stripped);
  } catch (err) {
    const message = (err as Error).message;
    const pos = /at position (\d+)/.exec(message);
    const offset = pos ? Number(pos[1]) : stripped.trimEnd().length;
    const atEnd = !pos || offset >= stripped.trimEnd().length;
    const reason = atEnd
      ? 'the file ends too early (a bracket or quote is not closed)'
      : message.replace(/ in JSON at position \d+.*$/s, '').replace(/ \(line \d+ column \d+\)$/, '');
    const { line, column } = lineColumn(stripped, offset);
    throw new JsonSyntaxError(reason, line, column);
  }
}

/**
 * Blanks `//` and `/* *\/` comments outside strings (Gemini CLI settings files may carry them). Comments
 * become spaces, line breaks stay: JSON.parse positions still point at the same line and column. The
 * text between comments is copied in runs, not a character at a time (a settings file with 100 servers
 * made ~10,000 one-character strings of its indentation at every start).
 */
function stripJsonComments(text: string): string {
  if (!text.includes('//') && !text.includes('/*')) return text;
  let out = '';
  // Everything before `copied` is in `out` already.
  let copied = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      const start = i;
      while (i < text.length && text[i] !== '\n') i++;
      out += text.slice(copied, start) + ' '.repeat(i - start);
      copied = i;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      // Keep line breaks so JSON.parse positions still point at the right line.
      out += text.slice(copied, i) + text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      copied = i;
    } else {
      i++;
    }
  }
  return out + text.slice(copied);
}
