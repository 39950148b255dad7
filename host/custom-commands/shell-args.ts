import shellQuote from 'shell-quote';

/**
 * `{{args}}` inside a `!{…}` block is replaced by what the user typed, which must stay one inert shell
 * word whatever quoting the command's author put around the placeholder. Quoting the argument once, for
 * an unquoted position, is not enough: inside the author's own `'…'` the quote we add closes theirs
 * (`printf '%s' '{{args}}'` with `'; touch X` ran `touch`). So the template is read as bash reads it up to
 * each placeholder, and the argument is escaped for the quoting in force there:
 * - unquoted (also inside `$(…)`): one shell-quoted word;
 * - inside `'…'`: every `'` becomes `'\''` (close, an escaped quote, reopen);
 * - inside `"…"`: `\`, `"`, `$` and backquote get a backslash, the only characters special there.
 * Places where no escaping is sound — backquotes, `$'…'`, a here-document, a comment (a newline in the
 * argument would end it) — are refused with a message saying where to put the placeholder instead.
 */

const ARGS = '{{args}}';

type Context = 'plain' | 'single' | 'double' | 'subst' | 'backquote' | 'ansi' | 'comment' | 'heredoc';

export class UnsafeArgsPlacement extends Error {}

/** The quoting context at every `{{args}}` of `template`, in order. */
function contextsOfPlaceholders(template: string): Context[] {
  const stack: Context[] = ['plain'];
  const top = () => stack[stack.length - 1]!;
  const out: Context[] = [];
  let heredoc = false;
  for (let i = 0; i < template.length; i++) {
    if (template.startsWith(ARGS, i)) {
      out.push(heredoc ? 'heredoc' : top());
      i += ARGS.length - 1;
      continue;
    }
    const c = template[i]!;
    const ctx = top();
    if (ctx === 'single' || ctx === 'ansi') {
      if (ctx === 'ansi' && c === '\\') i++;
      else if (c === "'") stack.pop();
    } else if (ctx === 'comment') {
      if (c === '\n') stack.pop();
    } else if (c === '\\') i++;
    else if (ctx === 'double') {
      if (c === '"') stack.pop();
      else if (template.startsWith('$(', i)) stack.push('subst'), i++;
      else if (c === '`') stack.push('backquote');
    } else if (ctx === 'backquote' && c === '`') stack.pop();
    else if (ctx === 'subst' && c === ')') stack.pop();
    else if (template.startsWith("$'", i)) stack.push('ansi'), i++;
    else if (template.startsWith('$(', i)) stack.push('subst'), i++;
    else if (c === "'") stack.push('single');
    else if (c === '"') stack.push('double');
    else if (c === '`') stack.push('backquote');
    else if (c === '#' && (i === 0 || /[\s;&|()]/.test(template[i - 1]!))) stack.push('comment');
    else if (template.startsWith('<<<', i)) i += 2;
    else if (template.startsWith('<<', i)) heredoc = true;
  }
  return out;
}

const WHERE: Partial<Record<Context, string>> = {
  backquote: 'inside backquotes',
  ansi: "inside $'…'",
  comment: 'inside a shell comment',
  heredoc: 'in a here-document',
};

function escapeFor(ctx: Context, args: string): string {
  if (ctx === 'single') return args.replaceAll("'", "'\\''");
  if (ctx === 'double') return args.replace(/[\\"$`]/g, '\\$&');
  return args ? shellQuote.quote([args]) : '';
}

/**
 * The `!{…}` block `template` with every `{{args}}` replaced by `args` as one inert word in its quoting
 * context; throws UnsafeArgsPlacement (naming the command) where the placeholder cannot be made inert.
 */
export function substituteShellArgs(template: string, args: string, command: string): string {
  if (!template.includes(ARGS)) return template;
  const contexts = contextsOfPlaceholders(template);
  const unsafe = contexts.find((c) => WHERE[c]);
  if (unsafe)
    throw new UnsafeArgsPlacement(
      `Command '${command}': {{args}} ${WHERE[unsafe]} cannot be passed safely to the shell. ` +
        `Put it where a shell word goes: unquoted ({{args}}), in single quotes ('{{args}}') or in double ` +
        `quotes ("{{args}}"); the arguments are then always one literal word.`,
    );
  let n = 0;
  return template.replaceAll(ARGS, () => escapeFor(contexts[n++]!, args));
}
