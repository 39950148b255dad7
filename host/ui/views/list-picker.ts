import type { KeyInfo } from './app.js';
import type { BrowserHost } from './session-browser.js';

const VISIBLE = 12;

/**
 * A list in the dialog box, one row selected: ↑/↓ (or k/j) move, Enter picks, Esc closes. Resolves with
 * the picked index, or undefined when closed.
 */
export function pickFromList(
  host: BrowserHost,
  title: string,
  items: string[],
  initial = 0,
): Promise<number | undefined> {
  const p = host.palette;
  let selected = Math.min(Math.max(0, initial), items.length - 1);
  return new Promise((resolve) => {
    const draw = () => {
      const start = Math.max(0, Math.min(selected - Math.floor(VISIBLE / 2), items.length - VISIBLE));
      const rows = items
        .slice(start, start + VISIBLE)
        .map((item, i) => (start + i === selected ? `${p.accent('❯')} ${p.bold(item)}` : `  ${item}`));
      host.showDialog([p.bold(title), ...rows].join('\n'), p.gray('↑/↓ choose · Enter confirm · Esc cancel'));
    };
    const finish = (picked: number | undefined): void => {
      const i = host.interceptors.indexOf(intercept);
      if (i >= 0) host.interceptors.splice(i, 1);
      host.showDialog(undefined);
      resolve(picked);
    };
    const intercept = (ch: string | undefined, key: KeyInfo): boolean => {
      const name = key.name ?? '';
      if (name === 'enter') return true; // blessed reports Enter twice; 'return' acts
      if (name === 'escape' || (key.ctrl && name === 'c')) return finish(undefined), true;
      if (name === 'return') return finish(selected), true;
      if (name === 'up' || ch === 'k') selected = Math.max(0, selected - 1);
      else if (name === 'down' || ch === 'j') selected = Math.min(items.length - 1, selected + 1);
      draw();
      return true;
    };
    host.interceptors.unshift(intercept);
    draw();
  });
}
