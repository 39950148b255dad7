import type { KeyInfo } from './edit-keys.js';

/** Keys by name, for a key event that came without the bytes the terminal sent. */
const NAMED: Record<string, string> = {
  return: '\r',
  enter: '\r',
  backspace: '\x7f',
  tab: '\t',
  escape: '\x1b',
  space: ' ',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  delete: '\x1b[3~',
  insert: '\x1b[2~',
  pageup: '\x1b[5~',
  pagedown: '\x1b[6~',
};

/**
 * The bytes a key sends to a program in a terminal: what the user's terminal itself sent when known (so
 * every key, function keys and Alt combinations included, reaches the program as typed), else the key's
 * usual encoding (Enter `\r`, Backspace `\x7f`, arrows, Ctrl+letter as its control character).
 */
export function keyBytes(ch: string | undefined, key: KeyInfo): string | undefined {
  if (key.sequence) return key.sequence;
  const name = key.name ?? '';
  if (key.ctrl && /^[a-z]$/.test(name)) return String.fromCharCode(name.charCodeAt(0) - 96);
  return NAMED[name] ?? ch;
}
