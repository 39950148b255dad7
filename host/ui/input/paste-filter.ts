const START = '\x1b[200~';
const END = '\x1b[201~';

/**
 * Bracketed paste (the terminal wraps pasted text in ESC[200~ … ESC[201~): pasted text goes to
 * `onPaste` whole, so its newlines never reach the key parser as Enter. Wraps the stream's `emit`
 * for 'data' so every key listener (blessed's included) sees only typed input. Returns an uninstaller.
 */
export function installPasteFilter(stream: NodeJS.ReadableStream, onPaste: (text: string) => void): () => void {
  const original = stream.emit;
  let pasting = false;
  let buf = '';
  const patched = function (this: NodeJS.ReadableStream, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'data') return original.call(this, event, ...args);
    let data =
      typeof args[0] === 'string' ? args[0] : Buffer.isBuffer(args[0]) ? args[0].toString('utf8') : String(args[0]);
    let passed = '';
    // Alternates between typed text (up to the next START) and pasted text (up to the next END).
    while (data.length) {
      const marker = pasting ? END : START;
      const at = data.indexOf(marker);
      const piece = at === -1 ? data : data.slice(0, at);
      data = at === -1 ? '' : data.slice(at + marker.length);
      if (pasting) buf += piece;
      else passed += piece;
      if (at === -1) break;
      if (pasting) onPaste(buf);
      buf = '';
      pasting = !pasting;
    }
    return passed ? original.call(this, event, Buffer.from(passed, 'utf8')) : true;
  };
  stream.emit = patched as typeof stream.emit;
  return () => {
    stream.emit = original;
  };
}

export const ENABLE_BRACKETED_PASTE = '\x1b[?2004h';
export const DISABLE_BRACKETED_PASTE = '\x1b[?2004l';
