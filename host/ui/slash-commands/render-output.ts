import type { Block, CommandOutput } from '../../builtin-commands/output.js';
import type { Palette } from '../text/palette.js';

/** A built-in command's output in the chat's colours (headless and editors print the same blocks plain). */
export function renderOutput(out: CommandOutput, p: Palette): string {
  return out.map((b) => renderBlock(b, p)).join('\n');
}

function renderBlock(b: Block, p: Palette): string {
  switch (b.kind) {
    case 'heading':
      return p.bold(b.text);
    case 'text':
      return b.text;
    case 'hint':
      return p.gray(b.text);
    case 'error':
      return p.red(b.text);
    case 'item': {
      const colour = b.tone === 'ok' ? p.green : b.tone === 'bad' ? p.red : b.tone === 'busy' ? p.yellow : p.gray;
      const pad = '  '.repeat(1 + (b.indent ?? 0));
      const icon = b.icon ? `${colour(b.icon)} ` : '';
      // A top-level item with a state is named in bold and its state coloured; a nested one reads as a member.
      const name =
        b.tone === 'bad' && b.indent ? p.red(b.name) : b.tone === 'off' && b.indent ? p.gray(b.name) : p.cyan(b.name);
      const note = b.note ? ` ${b.tone && !b.indent ? colour(b.note) : p.gray(b.note)}` : '';
      const detail = b.detail ? p.gray(` — ${b.detail}`) : '';
      return `${pad}${icon}${name}${note}${detail}`;
    }
  }
}
