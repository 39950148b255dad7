import type { LineEditor } from './line-editor.js';

export interface KeyInfo {
  name?: string;
  full?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
  sequence?: string;
}

/** Line-editing keys and printable characters; false when the key is not an editing key. */
export function applyEditKey(ed: LineEditor, ch: string | undefined, key: KeyInfo): boolean {
  const name = key.name ?? '';
  if (name === 'backspace') ed.backspace();
  else if (name === 'delete' || (key.ctrl && name === 'd')) ed.deleteForward();
  else if (name === 'left') ed.left();
  else if (name === 'right') ed.right();
  else if (name === 'home' || (key.ctrl && name === 'a')) ed.home();
  else if (name === 'end' || (key.ctrl && name === 'e')) ed.end();
  else if (key.ctrl && name === 'u') ed.killToStart();
  else if (key.ctrl && name === 'k') ed.killToEnd();
  else if (key.ctrl && name === 'w') ed.deleteWord();
  else if (ch && !key.ctrl && !key.meta && !/[\x00-\x1f\x7f]/.test(ch)) ed.insert(ch);
  else return false;
  return true;
}

/** Enter variants that insert a newline instead of sending: Alt+Enter, Ctrl+J. */
export function isNewlineKey(key: KeyInfo): boolean {
  const name = key.name ?? '';
  if (name === 'return' && key.sequence === '\x1b\r') return true;
  if (key.meta && (name === '\r' || name === 'return')) return true;
  return name === 'linefeed';
}
