import { Lexer } from 'marked';
import { BlockRenderer } from './markdown-blocks.js';
import type { Palette } from './palette.js';

/**
 * Markdown → ANSI text for the conversation view: marked's lexer for the structure, our own renderer for
 * the terminal (host/ui/markdown-blocks.ts) and highlight.js 11 for code. Every style comes from the
 * palette, so output depends only on the terminal's colour depth, never on whether stdout is a TTY.
 */
export interface MarkdownRenderer {
  render(markdown: string, width: number): string;
}

export function createMarkdownRenderer(palette: Palette): MarkdownRenderer {
  const blocks = new BlockRenderer(palette);
  return {
    render(markdown, width) {
      const tokens = new Lexer({ gfm: true }).lex(markdown);
      return blocks
        .blocks(tokens, Math.max(20, width))
        .replace(/\n{3,}/g, '\n\n')
        .replace(/\s+$/, '');
    },
  };
}
