/**
 * Omission placeholders such as `// rest of methods ...`: a model that
 * writes one means "keep the old code here", which a whole-file write would silently delete.
 */
const PLACEHOLDER = /^(rest of( (methods?|code))?|unchanged (code|methods?))\s*(\.\.\.|\u2026)$/i;

export function hasOmissionPlaceholder(text: string): boolean {
  return ellipsisLines(text).some((line) => PLACEHOLDER.test(normalise(line)));
}

/** Placeholders of `next` that do not already occur in `previous` (replace: old_string may hold them). */
export function introducesPlaceholder(next: string, previous: string): boolean {
  const before = new Set(
    ellipsisLines(previous)
      .map(normalise)
      .filter((l) => PLACEHOLDER.test(l)),
  );
  return ellipsisLines(next)
    .map(normalise)
    .some((l) => PLACEHOLDER.test(l) && !before.has(l));
}

/**
 * The lines holding `...` or `…`, the only ones that can be placeholders: found by searching the text,
 * so a multi-megabyte file without ellipses costs two scans instead of a split and a regex per line.
 */
function ellipsisLines(text: string): string[] {
  const starts = new Set<number>();
  for (const mark of ['...', '…']) {
    for (let at = text.indexOf(mark); at !== -1; at = text.indexOf(mark, at + mark.length)) {
      starts.add(text.lastIndexOf('\n', at) + 1);
    }
  }
  return [...starts].map((start) => {
    const end = text.indexOf('\n', start);
    return text.slice(start, end === -1 ? undefined : end).replace(/\r$/, '');
  });
}

function normalise(line: string): string {
  let s = line.trim();
  s = s.replace(/^(\/\/|#)\s*/, '').trim();
  if (s.startsWith('(') && s.endsWith(')')) s = s.slice(1, -1).trim();
  return s.replace(/\s+/g, ' ');
}
