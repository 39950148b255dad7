import type { Palette } from '../text/palette.js';

export interface InputView {
  /** What the rows hold without styling (for measuring how many rows the input takes). */
  plain: string;
  styled: string;
}

const PLACEHOLDER_LONG = 'Type your message, @path/to/file, @server__tool({...}) or /help';
const PLACEHOLDER_SHORT = 'Type your message or /help';

/** The input box: a `> ` prompt, continuation indent, an inverse-video cursor, or the placeholder. */
export function formatInput(
  text: string,
  cursor: number,
  p: Palette,
  opts: { busy: boolean; width: number; marker?: string; queued?: readonly string[] },
): InputView {
  const view = formatEditor(text, cursor, p, opts);
  if (!opts.queued?.length) return view;
  // Messages typed during a turn wait above the prompt until it ends (Up or Esc takes them back to edit).
  const rows = opts.queued.map((q) => {
    const line = q.replace(/\s+/g, ' ').trim();
    const max = Math.max(10, opts.width - 12);
    return `Queued: ${line.length > max ? `${line.slice(0, max - 1)}…` : line}`;
  });
  return {
    plain: `${rows.join('\n')}\n${view.plain}`,
    styled: `${rows.map((r) => p.gray(r)).join('\n')}\n${view.styled}`,
  };
}

function formatEditor(
  text: string,
  cursor: number,
  p: Palette,
  opts: { busy: boolean; width: number; marker?: string },
): InputView {
  const marker = opts.marker ?? '> ';
  const prefix = (i: number) => (i === 0 ? marker : '  ');
  const before = text.slice(0, cursor);
  const at = cursor < text.length && text[cursor] !== '\n' ? text[cursor] : ' ';
  const after = cursor < text.length && text[cursor] !== '\n' ? text.slice(cursor + at.length) : text.slice(cursor);
  const cursorCh = `\x1b[7m${at}\x1b[27m`;
  if (text === '' && !opts.busy) {
    // The placeholder is one row: the long form only where it fits.
    const hint = PLACEHOLDER_LONG.length + 3 < opts.width ? PLACEHOLDER_LONG : PLACEHOLDER_SHORT;
    return { plain: `${marker}${PLACEHOLDER_SHORT}`, styled: `${p.accent(p.bold(marker))}${cursorCh}${p.gray(hint)}` };
  }
  const lines = (before + cursorCh + after).split('\n');
  const styled = lines.map((l, i) => `${i === 0 ? p.accent(p.bold(prefix(i))) : prefix(i)}${l}`).join('\n');
  const plain = `${text} `
    .split('\n')
    .map((l, i) => prefix(i) + l)
    .join('\n');
  return { plain, styled };
}
