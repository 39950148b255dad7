import { formatUnified, lineDiff } from './line-diff.js';

/**
 * Unified diff with 3 context lines; labels default to the confirmation's `Current`/`Proposed`. The
 * work is bounded (see line-diff.ts): a huge rewrite gives a non-minimal patch or a summary of its
 * extent instead of holding the server for minutes.
 */
export function unifiedDiff(
  fileName: string,
  oldContent: string,
  newContent: string,
  labels: readonly [string, string] = ['Current', 'Proposed'],
): string {
  return formatUnified(fileName, labels, lineDiff(oldContent, newContent));
}
