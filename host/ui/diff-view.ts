import type { Palette } from './palette.js';

/** Colours a unified diff line by line: additions green, removals red, hunk headers cyan. */
export function colourDiff(diff: string, p: Palette): string {
  return diff
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => {
      if (line.startsWith('+++') || line.startsWith('---')) return p.bold(line);
      if (line.startsWith('@@')) return p.cyan(line);
      if (line.startsWith('+')) return p.added(line);
      if (line.startsWith('-')) return p.removed(line);
      if (line.startsWith('\\')) return p.gray(line);
      if (/^(Index:|={5,}|diff )/.test(line)) return p.gray(line);
      return line;
    })
    .join('\n');
}

/** Counts added / removed lines, for a one-line summary on a collapsed card. */
export function diffStats(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}
