import { createTwoFilesPatch } from 'diff';

/** Unified diff with the contract's `Current`/`Proposed` labels and 3 context lines (contract 1.10). */
export function unifiedDiff(fileName: string, oldContent: string, newContent: string): string {
  return createTwoFilesPatch(fileName, fileName, oldContent, newContent, 'Current', 'Proposed', { context: 3 });
}
