import { createTwoFilesPatch } from 'diff';

/**
 * Unified diff with 3 context lines; labels default to the confirmation's
 * `Current`/`Proposed`.
 */
export function unifiedDiff(
  fileName: string,
  oldContent: string,
  newContent: string,
  labels: readonly [string, string] = ['Current', 'Proposed'],
): string {
  return createTwoFilesPatch(fileName, fileName, oldContent, newContent, labels[0], labels[1], { context: 3 });
}
