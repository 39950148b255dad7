/** One `@{…}` or `!{…}` in a command's prompt: its trimmed content and where it sits. */
export interface Injection {
  content: string;
  start: number;
  end: number;
}

/**
 * Finds `trigger{…}` blocks with balanced braces, as Gemini CLI reads them; an unclosed block is an
 * error naming the command (braces inside must balance).
 */
export function findInjections(text: string, trigger: '@{' | '!{', command: string): Injection[] {
  const out: Injection[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(trigger, from);
    if (start < 0) return out;
    let depth = 1;
    let i = start + trigger.length;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}') depth--;
    }
    if (depth > 0)
      throw new Error(
        `Invalid syntax in command '${command}': Unclosed injection starting at index ${start} ('${trigger}'). Ensure braces are balanced. Paths or commands with unbalanced braces are not supported directly.`,
      );
    out.push({ content: text.slice(start + trigger.length, i - 1).trim(), start, end: i });
    from = i;
  }
}
