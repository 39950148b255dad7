/**
 * Omission placeholders such as `// rest of methods ...`: a model that
 * writes one means "keep the old code here", which a whole-file write would silently delete.
 */
const PLACEHOLDER = /^(rest of( (methods?|code))?|unchanged (code|methods?))\s*(\.\.\.|…)$/i;

export function hasOmissionPlaceholder(text: string): boolean {
  return text.split(/\r?\n/).some((line) => PLACEHOLDER.test(normalise(line)));
}

/** Placeholders of `next` that do not already occur in `previous` (replace: old_string may hold them). */
export function introducesPlaceholder(next: string, previous: string): boolean {
  const before = new Set(previous.split(/\r?\n/).map(normalise).filter((l) => PLACEHOLDER.test(l)));
  return next.split(/\r?\n/).map(normalise).some((l) => PLACEHOLDER.test(l) && !before.has(l));
}

function normalise(line: string): string {
  let s = line.trim();
  s = s.replace(/^(\/\/|#)\s*/, '').trim();
  if (s.startsWith('(') && s.endsWith(')')) s = s.slice(1, -1).trim();
  return s.replace(/\s+/g, ' ');
}
