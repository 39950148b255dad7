import { basename } from 'node:path';
import { formatUnified, hunksOf, type LineDiff, lineDiff } from '../../common/line-diff.js';
import { ToolError } from '../../common/result.js';
import { yieldToLoop } from '../../common/yield.js';
import type { FileDiffDisplay } from '../../../protocol/tool-result.js';

const SNIPPET_CONTEXT = 5;

/**
 * The "Here is the updated code" part: changed regions of the new content with 5
 * lines of context, merged when they overlap, `...` marking every gap.
 */
export function updatedSnippet(oldContent: string | null, newContent: string, diff?: LineDiff): string {
  if (oldContent === null) return newContent;
  const hunks = hunksOf((diff ?? lineDiff(oldContent, newContent)).changes, SNIPPET_CONTEXT, false);
  if (hunks.length === 0) return newContent;
  const lines = newContent.split('\n');
  // The empty string after a final newline is not a line of its own for the diff.
  const count = newContent.endsWith('\n') ? lines.length - 1 : lines.length;
  const out: string[] = [];
  let lastEnd = 0; // 1-based last line emitted
  for (const h of hunks) {
    const first = Math.max(1, h.newLines === 0 ? h.newStart + 1 : h.newStart);
    const last = Math.min(count, h.newStart + h.newLines - 1);
    if (first > lastEnd + 1) out.push('...');
    for (let i = Math.max(first, lastEnd + 1); i <= last; i++) out.push(lines[i - 1]);
    lastEnd = Math.max(lastEnd, last);
  }
  if (lastEnd < count) out.push('...');
  else if (count < lines.length) out.push('');
  return out.join('\n');
}

export interface EditDiff {
  /** Labels `Current`/`Proposed`: what the user confirms. */
  confirm: FileDiffDisplay;
  /** Labels `Original`/`Written`: write_file's result display. */
  written: FileDiffDisplay;
  snippet: string;
}

/** Every view of one edit from a single bounded line diff (yielding between the steps of a large one). */
export async function editDiff(
  filePath: string,
  originalContent: string | null,
  newContent: string,
): Promise<EditDiff> {
  const diff = lineDiff(originalContent ?? '', newContent);
  await yieldToLoop();
  const fileName = basename(filePath);
  const display = (labels: readonly [string, string]): FileDiffDisplay => ({
    fileDiff: formatUnified(fileName, labels, diff),
    fileName,
    filePath,
    originalContent,
    newContent,
    isNewFile: originalContent === null,
  });
  const confirm = display(['Current', 'Proposed']);
  const written = display(['Original', 'Written']);
  await yieldToLoop();
  return { confirm, written, snippet: updatedSnippet(originalContent, newContent, diff) };
}

/** Write failures of write_file (permission, full disk, a folder in the way) as the texts the model sees. */
export function writeFileError(filePath: string, err: unknown): ToolError {
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'EACCES':
      return new ToolError(`Permission denied writing to file: ${filePath} (EACCES)`, 'permission_denied');
    case 'ENOSPC':
      return new ToolError(`No space left on device: ${filePath} (ENOSPC)`, 'no_space_left');
    case 'EISDIR':
      return new ToolError(`Target is a directory, not a file: ${filePath} (EISDIR)`, 'target_is_directory');
    case undefined:
      return new ToolError(`Error writing to file: ${e?.message ?? String(err)}`, 'file_write_failure');
    default:
      return new ToolError(`Error writing to file '${filePath}': ${e.message} (${e.code})`, 'file_write_failure');
  }
}

/** Normalises line endings for matching and diffing. */
export const toLf = (s: string): string => s.replace(/\r\n/g, '\n');
