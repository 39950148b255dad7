import type { KeyInfo } from './edit-keys.js';
import type { LineEditor } from './line-editor.js';

export type VimMode = 'insert' | 'normal';

const isWordChar = (c: string | undefined) => !!c && /\w/.test(c);

/**
 * `/vim`: vi keys in the input, as Gemini CLI's vim mode has them. Esc leaves insert mode; in normal
 * mode h l 0 $ w b e move, x deletes, dw / cw a word, dd / cc clear the input, D C delete to the end, i a I A o insert,
 * j k walk the history, Enter sends. Returns true when the key was a vi key.
 */
export class VimKeys {
  mode: VimMode = 'insert';
  private pending = '';

  constructor(
    private readonly ed: LineEditor,
    private readonly history: (dir: -1 | 1) => void,
  ) {}

  handle(ch: string | undefined, key: KeyInfo): boolean {
    const name = key.name ?? '';
    if (this.mode === 'insert') {
      if (name !== 'escape') return false;
      this.mode = 'normal';
      if (this.ed.cursor > 0) this.ed.left();
      return true;
    }
    if (key.ctrl || key.meta || name === 'return' || name === 'enter' || name === 'escape') {
      this.pending = '';
      return name === 'escape';
    }
    const c = ch ?? '';
    if (this.pending) {
      const op = this.pending + c;
      this.pending = '';
      if (op === 'dd' || op === 'cc') this.ed.clear();
      else if (op === 'dw' || op === 'cw') {
        const { text, cursor } = this.ed;
        let i = cursor;
        while (i < text.length && isWordChar(text[i])) i++;
        while (op === 'dw' && i < text.length && !isWordChar(text[i])) i++;
        this.ed.set(text.slice(0, cursor) + text.slice(i), cursor);
      }
      if (op[0] === 'c') this.mode = 'insert';
      return true;
    }
    return this.normal(c);
  }

  private normal(c: string): boolean {
    const ed = this.ed;
    const text = ed.text;
    switch (c) {
      case 'h':
        ed.left();
        break;
      case 'l':
        if (ed.cursor < text.length - 1) ed.right();
        break;
      case '0':
        ed.home();
        break;
      case '$':
        ed.end();
        if (ed.cursor > 0) ed.left();
        break;
      case 'w': {
        let i = ed.cursor;
        while (i < text.length && isWordChar(text[i])) i++;
        while (i < text.length && !isWordChar(text[i])) i++;
        ed.set(text, Math.min(i, Math.max(0, text.length - 1)));
        break;
      }
      case 'e': {
        let i = ed.cursor + 1;
        while (i < text.length && !isWordChar(text[i])) i++;
        while (i + 1 < text.length && isWordChar(text[i + 1])) i++;
        ed.set(text, Math.min(i, Math.max(0, text.length - 1)));
        break;
      }
      case 'b': {
        let i = ed.cursor;
        while (i > 0 && !isWordChar(text[i - 1])) i--;
        while (i > 0 && isWordChar(text[i - 1])) i--;
        ed.set(text, i);
        break;
      }
      case 'x':
        if (text) ed.set(text.slice(0, ed.cursor) + text.slice(ed.cursor + 1), Math.min(ed.cursor, text.length - 2));
        break;
      case 'D':
      case 'C':
        ed.killToEnd();
        if (c === 'C') this.mode = 'insert';
        break;
      case 'd':
      case 'c':
        this.pending = c;
        break;
      case 'i':
        this.mode = 'insert';
        break;
      case 'a':
        if (text) ed.right();
        this.mode = 'insert';
        break;
      case 'I':
        ed.home();
        this.mode = 'insert';
        break;
      case 'A':
        ed.end();
        this.mode = 'insert';
        break;
      case 'o':
        ed.end();
        ed.insert('\n');
        this.mode = 'insert';
        break;
      case 'j':
      case 'k':
        this.history(c === 'k' ? -1 : 1);
        break;
      default:
        // Other printable keys do nothing in normal mode (they are not typed into the input).
        return c !== '';
    }
    return true;
  }
}
