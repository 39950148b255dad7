import type { Token, Tokens } from 'marked';
import { highlightCode } from './code-highlight.js';
import type { Palette } from './palette.js';
import { stripSgr } from './palette.js';
import { textWidth } from './text-width.js';
import { wrapLine } from './wrap.js';

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const decode = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

/** Marked's tokens → ANSI text for a terminal of `width` columns, styled only through the palette. */
export class BlockRenderer {
  constructor(private readonly p: Palette) {}

  blocks(tokens: Token[], width: number): string {
    return tokens
      .map((t) => this.block(t, Math.max(10, width)))
      .filter((s) => s !== undefined)
      .join('\n\n');
  }

  inline(tokens: Token[] | undefined): string {
    const p = this.p;
    return (tokens ?? [])
      .map((t): string => {
        switch (t.type) {
          case 'strong':
            return p.bold(this.inline((t as Tokens.Strong).tokens));
          case 'em':
            return p.italic(this.inline((t as Tokens.Em).tokens));
          case 'del':
            return p.gray(this.inline((t as Tokens.Del).tokens));
          case 'codespan':
            return p.yellow(decode((t as Tokens.Codespan).text));
          case 'link': {
            const l = t as Tokens.Link;
            const text = this.inline(l.tokens);
            return stripSgr(text) === l.href ? p.blue(text) : `${p.blue(text)} ${p.gray(`(${l.href})`)}`;
          }
          case 'image':
            return p.gray(`[image: ${(t as Tokens.Image).text || (t as Tokens.Image).href}]`);
          case 'br':
            return '\n';
          case 'checkbox':
            return '';
          case 'html':
            return p.gray((t as Tokens.HTML).text);
          default: {
            const x = t as Tokens.Text;
            return x.tokens?.length ? this.inline(x.tokens) : decode(x.text ?? '');
          }
        }
      })
      .join('');
  }

  private block(t: Token, width: number): string | undefined {
    const p = this.p;
    switch (t.type) {
      case 'space':
      case 'def':
      case 'checkbox':
        return undefined;
      case 'heading':
        return wrap(p.bold(p.accent(this.inline((t as Tokens.Heading).tokens))), width);
      case 'code':
        return this.code(t as Tokens.Code);
      case 'blockquote': {
        const body = this.blocks((t as Tokens.Blockquote).tokens, width - 2);
        return body
          .split('\n')
          .map((l) => `${p.gray('│')} ${p.gray(l)}`)
          .join('\n');
      }
      case 'list':
        return this.list(t as Tokens.List, width);
      case 'table':
        return this.table(t as Tokens.Table, width);
      case 'hr':
        return p.gray('─'.repeat(Math.min(width, 60)));
      case 'html':
        return p.gray((t as Tokens.HTML).text.trimEnd());
      default: {
        const x = t as Tokens.Paragraph | Tokens.Text;
        return wrap(x.tokens?.length ? this.inline(x.tokens) : decode(x.text ?? ''), width);
      }
    }
  }

  private code(t: Tokens.Code): string {
    const lang = (t.lang ?? '').split(/\s/)[0] ?? '';
    let body = t.text;
    if (this.p.depth > 0) {
      try {
        body = highlightCode(body, lang, this.p);
      } catch {
        body = this.p.yellow(body);
      }
    }
    const label = lang ? `${this.p.gray(lang)}\n` : '';
    return `${label}${body
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n')}`;
  }

  /** Bullets `* ` (ordered: `1. `), continuation lines under the text, nested lists indented. */
  private list(t: Tokens.List, width: number): string {
    const start = typeof t.start === 'number' ? t.start : 1;
    return t.items
      .map((item, i) => {
        const mark = t.ordered ? `${start + i}. ` : '* ';
        const box = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
        const body = this.blocks(item.tokens, width - mark.length).replace(/\n\n+/g, item.loose ? '\n\n' : '\n');
        const pad = ' '.repeat(mark.length);
        return body
          .split('\n')
          .map((l, n) => (n === 0 ? `${mark}${box}${l}` : l ? `${pad}${l}` : l))
          .join('\n');
      })
      .join('\n');
  }

  private table(t: Tokens.Table, width: number): string {
    const head = t.header.map((c) => this.p.bold(this.inline(c.tokens)));
    const rows = t.rows.map((r) => r.map((c) => this.inline(c.tokens)));
    const cols = head.length;
    const natural = Array.from({ length: cols }, (_, i) =>
      Math.max(1, ...[head, ...rows].map((r) => textWidth(stripSgr(r[i] ?? '')))),
    );
    const longestWord = Array.from({ length: cols }, (_, i) =>
      Math.max(
        1,
        ...[head, ...rows].flatMap((r) =>
          stripSgr(r[i] ?? '')
            .split(/\s+/)
            .map(textWidth),
        ),
      ),
    );
    // Borders and padding take 3 columns per cell plus one.
    const widths = columnWidths(natural, longestWord, Math.max(cols, width - (3 * cols + 1)));
    const line = (l: string, m: string, r: string) => this.p.gray(l + widths.map((w) => '─'.repeat(w + 2)).join(m) + r);
    const row = (cells: string[]) => {
      const wrapped = widths.map((w, i) => wrapLine(cells[i] ?? '', w));
      const height = Math.max(...wrapped.map((c) => c.length));
      return Array.from({ length: height }, (_, n) => {
        const parts = wrapped.map((c, i) => {
          const s = c[n] ?? '';
          return ` ${s}${' '.repeat(Math.max(0, widths[i]! - textWidth(stripSgr(s))))} `;
        });
        return `${this.p.gray('│')}${parts.join(this.p.gray('│'))}${this.p.gray('│')}`;
      }).join('\n');
    };
    return [line('┌', '┬', '┐'), row(head), line('├', '┼', '┤'), ...rows.map(row), line('└', '┴', '┘')].join('\n');
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * Column widths for a table that must fit `room` columns, sized by content: a column never gets less
 * than its longest word while the words can all fit (so `gemini-2.5-pro` is not cut), and the room left
 * goes to the columns in proportion to how much more they need. Only when the longest words themselves do
 * not fit are the widest columns narrowed further, breaking inside words.
 */
export function columnWidths(natural: number[], longestWord: number[], room: number): number[] {
  if (sum(natural) <= room) return [...natural];
  const min = natural.map((n, i) => Math.min(n, longestWord[i]!));
  if (sum(min) >= room) {
    const widths = [...min];
    while (sum(widths) > room) {
      const i = widths.indexOf(Math.max(...widths));
      if (widths[i]! <= 3) break;
      widths[i]!--;
    }
    return widths;
  }
  const want = natural.map((n, i) => n - min[i]!);
  const extra = room - sum(min);
  const widths = min.map((m, i) => m + Math.floor((extra * want[i]!) / sum(want)));
  // What the rounding left goes, a column at a time, to those still furthest from their natural width.
  for (let left = room - sum(widths); left > 0; left--) {
    const short = widths.map((w, i) => natural[i]! - w);
    widths[short.indexOf(Math.max(...short))]!++;
  }
  return widths;
}

function wrap(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((l) => wrapLine(l, width))
    .join('\n');
}
