import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomHex } from './lazy-require.js';

export const DEFAULT_TRUNCATE_THRESHOLD = 40_000;

const fmt = (n: number) => n.toLocaleString('en-US');

/**
 * Cuts text over the threshold to head 20 % / tail 80 % in the tools' contractual format, naming
 * the file that holds the full text. Shared by the shell server and the host so both read the same.
 */
export function formatTruncated(text: string, threshold: number, fullOutputFile: string): string {
  const head = Math.floor(threshold * 0.2);
  const tail = threshold - head;
  const omitted = text.length - head - tail;
  return (
    `Output too large. Showing first ${fmt(head)} and last ${fmt(tail)} characters. ` +
    `For full output see: ${fullOutputFile}\n` +
    `${text.slice(0, head)}\n\n... [${fmt(omitted)} characters omitted] ...\n\n${text.slice(text.length - tail)}`
  );
}

/** Saves the full text under `<dir>/tool-outputs/` and returns the truncated text, or the text itself. */
export async function truncateWithFile(
  text: string,
  opts: {
    threshold?: number;
    dir: string;
    label: string;
    /** A fixed file name (the shell's contract names its own), asked for only when the text is saved. */
    fileName?: () => string;
  },
): Promise<{ text: string; file?: string }> {
  const threshold = opts.threshold ?? DEFAULT_TRUNCATE_THRESHOLD;
  if (threshold <= 0 || text.length <= threshold) return { text };
  const outDir = join(opts.dir, 'tool-outputs');
  // Saved outputs can hold anything a command printed: private (0600 in 0700 folders) whatever the umask.
  await mkdir(outDir, { recursive: true, mode: 0o700 });
  const safeLabel = opts.label.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 60);
  const file = join(outDir, opts.fileName?.() ?? `${safeLabel}-${Date.now()}-${randomHex(3)}.txt`);
  await writeFile(file, text, { encoding: 'utf8', mode: 0o600 });
  return { text: formatTruncated(text, threshold, file), file };
}
