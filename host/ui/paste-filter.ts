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
    let data = typeof args[0] === 'string' ? args[0] : Buffer.isBuffer(args[0]) ? args[0].toString('utf8') : String(args[0]);
    let passed = '';
    while (data.length) {
      if (!pasting) {
        const s = data.indexOf(START);
        if (s === -1) {
          passed += data;
          data = '';
        } else {
          passed += data.slice(0, s);
          data = data.slice(s + START.length);
          pasting = true;
          buf = '';
        }
      } else {
        const e = data.indexOf(END);
        if (e === -1) {
          buf += data;
          data = '';
        } else {
          buf += data.slice(0, e);
          data = data.slice(e + END.length);
          pasting = false;
          onPaste(buf);
          buf = '';
        }
      }
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
