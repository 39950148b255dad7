import type { Node } from 'web-tree-sitter';

/**
 * The value of one shell word as bash would see it before expansion. Words whose value depends on
 * the run time (parameters, substitutions, globs, brace or tilde expansion) are `dynamic`: their
 * `value` is the source text and they never equal a literal in allowance matching.
 */
export interface Word {
  value: string;
  dynamic: boolean;
  /** Source text, for display. */
  text: string;
}

const GLOB = /(^|[^\\])[*?[]/;
const BRACE = /\{[^{}]*(,|\.\.)[^{}]*\}/;

export function literal(value: string): Word {
  return { value, dynamic: false, text: value };
}

export function evalWord(node: Node): Word {
  const text = node.text;
  switch (node.type) {
    case 'command_name':
      return node.firstNamedChild ? evalWord(node.firstNamedChild) : { value: text, dynamic: true, text };
    case 'word': {
      const dynamic = GLOB.test(text) || text.startsWith('~') || BRACE.test(text);
      return { value: unescapeBare(text), dynamic, text };
    }
    case 'variable_assignment': {
      const name = node.childForFieldName('name');
      const value = node.childForFieldName('value');
      const v = value ? evalWord(value) : literal('');
      const nameDynamic = name?.type !== 'variable_name';
      return { value: `${name?.text ?? ''}=${v.value}`, dynamic: v.dynamic || nameDynamic, text };
    }
    case 'number':
      return { value: text, dynamic: false, text };
    case 'raw_string':
      return { value: text.slice(1, -1), dynamic: false, text };
    case 'ansi_c_string':
      return { value: decodeAnsiC(text.slice(2, -1)), dynamic: false, text };
    case 'translated_string':
      return node.firstNamedChild ? { ...evalWord(node.firstNamedChild), text } : { value: '', dynamic: false, text };
    case 'string': {
      let value = '';
      let dynamic = false;
      for (const child of node.children) {
        if (child.type === '"') continue;
        if (child.type === 'string_content') value += unescapeDouble(child.text);
        else {
          dynamic = true;
          value += child.text;
        }
      }
      return { value, dynamic, text };
    }
    case 'concatenation': {
      let value = '';
      let dynamic = BRACE.test(text);
      for (const child of node.children) {
        const w = evalWord(child);
        value += w.value;
        dynamic ||= w.dynamic;
      }
      return { value, dynamic, text };
    }
    default:
      // expansions, substitutions, arithmetic, arrays: known only at run time.
      return { value: text, dynamic: true, text };
  }
}

/** Outside quotes a backslash quotes the next character; backslash-newline disappears. */
function unescapeBare(s: string): string {
  return s.replace(/\\(\n|[\s\S])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/** Inside double quotes only `$ \` " \\` and newline are escapable. */
function unescapeDouble(s: string): string {
  return s.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

const C_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

function decodeAnsiC(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|U[0-9a-fA-F]{1,8}|[0-7]{1,3}|c.|.)/gs, (m, e: string) => {
    if (e[0] === 'x' || e[0] === 'u' || e[0] === 'U') return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    if (e[0] === 'c' && e.length === 2) return String.fromCharCode(e.charCodeAt(1) & 0x1f);
    return C_ESCAPES[e] ?? m;
  });
}
