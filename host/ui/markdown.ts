import { Marked, type Tokens } from 'marked';
import { markedTerminal } from 'marked-terminal';
import { highlight, supportsLanguage } from 'cli-highlight';
import type { Palette } from './palette.js';

/**
 * Markdown → ANSI text for the conversation view, built on marked + marked-terminal. marked-terminal
 * styles through its own chalk, which switches colours off when stdout is not a TTY; every style is
 * passed in from the palette instead so output depends only on the terminal's colour depth.
 */
export interface MarkdownRenderer {
  render(markdown: string, width: number): string;
}

export function createMarkdownRenderer(palette: Palette): MarkdownRenderer {
  const byWidth = new Map<number, Marked>();
  const theme = highlightTheme(palette);

  const instance = (width: number): Marked => {
    let m = byWidth.get(width);
    if (m) return m;
    m = new Marked();
    const p = palette;
    m.use(
      markedTerminal({
        code: p.yellow,
        blockquote: (s: string) => p.gray(s),
        html: p.gray,
        heading: (s: string) => p.bold(p.accent(s)),
        firstHeading: (s: string) => p.bold(p.accent(s)),
        hr: (s: string) => p.gray(s),
        listitem: (s: string) => s,
        table: (s: string) => s,
        paragraph: (s: string) => s,
        strong: p.bold,
        em: p.italic,
        codespan: p.yellow,
        del: p.gray,
        link: p.blue,
        href: (s: string) => p.underline(p.blue(s)),
        text: (s: string) => s,
        emoji: false,
        width,
        reflowText: true,
        showSectionPrefix: false,
        tab: 2,
        tableOptions: { style: { head: [], border: [] } },
      } as Parameters<typeof markedTerminal>[0]) as never,
    );
    // Fenced code: highlighted with the palette theme, indented, never reflowed.
    m.use({
      renderer: {
        // marked-terminal renders a list item's text token from its raw source, so `code` and
        // **bold** inside list items stayed literal; parse its inline tokens instead.
        text(token: Tokens.Text | Tokens.Escape): string | false {
          if ('tokens' in token && token.tokens?.length) return this.parser.parseInline(token.tokens);
          return false;
        },
        code(token: Tokens.Code): string {
          const lang = (token.lang ?? '').split(/\s/)[0];
          let body = token.text;
          if (palette.depth > 0) {
            try {
              body = supportsLanguage(lang)
                ? highlight(body, { language: lang, theme, ignoreIllegals: true })
                : highlight(body, { theme, ignoreIllegals: true });
            } catch {
              body = palette.yellow(body);
            }
          }
          const label = lang ? `${palette.gray(lang)}\n` : '';
          return `${label}${body
            .split('\n')
            .map((l) => `  ${l}`)
            .join('\n')}\n\n`;
        },
      },
    });
    if (byWidth.size > 8) byWidth.clear();
    byWidth.set(width, m);
    return m;
  };

  return {
    render(markdown, width) {
      const out = instance(Math.max(20, width)).parse(markdown, { async: false }) as string;
      return out.replace(/\n{3,}/g, '\n\n').replace(/\s+$/, '');
    },
  };
}

function highlightTheme(p: Palette): Record<string, (s: string) => string> {
  return {
    keyword: p.magenta,
    built_in: p.cyan,
    type: p.cyan,
    literal: p.blue,
    number: p.yellow,
    regexp: p.red,
    string: p.green,
    subst: (s) => s,
    symbol: p.yellow,
    class: p.blue,
    function: p.blue,
    title: p.blue,
    params: (s) => s,
    comment: p.gray,
    doctag: p.gray,
    meta: p.gray,
    'meta-keyword': p.magenta,
    'meta-string': p.green,
    tag: p.gray,
    name: p.blue,
    attr: p.cyan,
    attribute: p.cyan,
    variable: p.red,
    deletion: p.red,
    addition: p.green,
    default: (s) => s,
  };
}
