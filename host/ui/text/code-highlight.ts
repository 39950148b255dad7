import hljs from 'highlight.js/lib/common';
import type { Palette } from './palette.js';

type Style = (s: string) => string;

/** highlight.js scopes → palette colours; a scope's first segment decides (`title.function` → title). */
function themeOf(p: Palette): Record<string, Style> {
  return {
    keyword: p.magenta,
    built_in: p.cyan,
    type: p.cyan,
    literal: p.blue,
    number: p.yellow,
    regexp: p.red,
    string: p.green,
    symbol: p.yellow,
    class: p.blue,
    function: p.blue,
    title: p.blue,
    comment: p.gray,
    doctag: p.gray,
    meta: p.gray,
    tag: p.gray,
    name: p.blue,
    attr: p.cyan,
    attribute: p.cyan,
    variable: p.red,
    deletion: p.red,
    addition: p.green,
    section: p.bold,
    bullet: p.yellow,
    quote: p.gray,
  };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };
const decodeEntities = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#x27);/g, (e) => ENTITIES[e]!);
const TAG = /<span class="([^"]*)">|<\/span>|[^<]+/g;

/**
 * Code → ANSI with highlight.js 11 (its common languages): the language named on the fence, or a guess
 * when none is named. highlight.js emits HTML spans; each text run takes the colour of the innermost
 * span the theme knows, so nested scopes (a string inside a template) colour correctly.
 */
export function highlightCode(code: string, lang: string, p: Palette): string {
  const theme = themeOf(p);
  const html =
    lang && hljs.getLanguage(lang)
      ? hljs.highlight(code, { language: lang, ignoreIllegals: true }).value
      : hljs.highlightAuto(code).value;
  const stack: (Style | undefined)[] = [];
  let out = '';
  for (const [tok, cls] of html.matchAll(TAG)) {
    if (cls !== undefined) {
      const scope = cls.replace(/^hljs-/, '').split(/[ .]/)[0]!;
      stack.push(theme[scope] ?? stack.at(-1));
    } else if (tok === '</span>') stack.pop();
    else {
      const style = stack.at(-1);
      // Styles close at line ends so a wrapped or indented line never carries colour into the margin.
      out += decodeEntities(tok)
        .split('\n')
        .map((line) => (style && line ? style(line) : line))
        .join('\n');
    }
  }
  return out;
}
