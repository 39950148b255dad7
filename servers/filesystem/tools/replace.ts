import { isAbsolute } from 'node:path';
import * as z from 'zod';
import { META } from '../../../protocol/meta.js';
import { guardPath, type GuardedPath } from '../../common/path-guard.js';
import { textResult, ToolError, userCancelled } from '../../common/result.js';
import { flooredNumber } from '../../common/schema.js';
import { defineTool, type ToolContext } from '../../common/tool.js';
import { yieldToLoop } from '../../common/yield.js';
import { currentText, writeText } from '../lib/editor-io.js';
import { withLineEndings } from '../lib/line-endings.js';
import { editDiff, toLf } from '../lib/edit-support.js';
import { introducesPlaceholder } from '../lib/omission.js';
import { displayRel } from '../lib/paths.js';
import { readGuardedFile } from '../lib/regular-file.js';
import { decodeText } from '../lib/text-decode.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const inputSchema = z.object({
  file_path: z.string().describe("The absolute path to the file to modify. Must start with '/'."),
  old_string: z
    .string()
    .describe(
      'The exact literal text to replace, including all whitespace and indentation, never escaped. Include at least 3 lines ' +
        'of context before and after the target so that it matches exactly once. An empty string creates a new file.',
    ),
  new_string: z
    .string()
    .describe('The exact literal text to replace `old_string` with, including whitespace and indentation.'),
  expected_replacements: flooredNumber(1)
    .optional()
    .describe('Number of occurrences that must match; all of them are replaced. Defaults to 1.'),
  modified_by_user: z.boolean().optional().describe('Set by the host only, when the user edited the proposal.'),
});

type Args = z.infer<typeof inputSchema>;

interface Prepared {
  target: GuardedPath;
  rel: string;
  /** null for a new file. */
  current: string | null;
  /** Raw bytes decoded: keeps the CRLF style for the write. */
  raw: string | null;
  next: string;
  occurrences: number;
}

function fail(text: string, errorType: ToolError['errorType'], display: string): never {
  throw new ToolError(text, errorType, display);
}

/** Validation and the ordered preparation checks of its table. */
async function prepare(args: Args, ctx: ToolContext): Promise<Prepared> {
  const p = args.file_path;
  if (!p || p.trim() === '') throw new ToolError("The 'file_path' parameter must be non-empty.", 'invalid_tool_params');
  if (!isAbsolute(p)) throw new ToolError(`File path must be absolute: ${p}`, 'invalid_tool_params');
  const target = guardPath(p, ctx.roots);
  const oldString = toLf(args.old_string);
  const newString = toLf(args.new_string);
  if (introducesPlaceholder(newString, oldString)) {
    throw new ToolError(
      "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.",
      'invalid_tool_params',
    );
  }
  const rel = displayRel(target.real, ctx.roots);
  let raw: string | null;
  try {
    raw = await currentText(ctx, target, decodeText(await readGuardedFile(target, ctx.roots)));
  } catch (err) {
    if (err instanceof ToolError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.code !== 'ENOENT')
      fail(`Error preparing edit: ${e.message}`, 'edit_preparation_failure', `Error preparing edit: ${e.message}`);
    raw = null;
  }
  if (raw === null) {
    if (oldString !== '') {
      fail(
        `File not found: ${p}`,
        'file_not_found',
        'Error: File not found. Cannot apply edit. Use an empty old_string to create a new file.',
      );
    }
    return { target, rel, current: null, raw: null, next: newString, occurrences: 1 };
  }
  if (oldString === '') {
    fail(
      `File already exists, cannot create: ${p}`,
      'attempt_to_create_existing_file',
      'Error: Failed to edit. Attempted to create a file that already exists.',
    );
  }
  const current = toLf(raw);
  const occurrences = current.split(oldString).length - 1;
  const expected = args.expected_replacements ?? 1;
  if (occurrences === 0) {
    fail(
      `Failed to edit, 0 occurrences found for old_string in ${p}. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.`,
      'edit_no_occurrence_found',
      'Error: Failed to edit, could not find the string to replace.',
    );
  }
  if (occurrences !== expected) {
    const word = expected === 1 ? 'occurrence' : 'occurrences';
    fail(
      `Failed to edit, Expected ${expected} ${word} but found ${occurrences} for old_string in file: ${p}`,
      'edit_expected_occurrence_mismatch',
      `Error: Failed to edit, expected ${expected} ${word} but found ${occurrences}.`,
    );
  }
  if (oldString === newString) {
    fail(
      `No changes to apply. The old_string and new_string are identical in file: ${p}`,
      'edit_no_change',
      'Error: No changes to apply. The old_string and new_string are identical.',
    );
  }
  // split/join: `$&`, `$1` and friends in new_string stay literal.
  const next = current.split(oldString).join(newString);
  if (next === current) {
    fail(
      `No changes to apply. The new content is identical to the current content in file: ${p}`,
      'edit_no_change',
      'Error: No changes to apply. The new content is identical to the current content.',
    );
  }
  return { target, rel, current, raw, next, occurrences };
}

export const replace = defineTool({
  name: 'replace',
  title: 'Edit',
  description:
    'Replaces exact literal text within a file; with an empty `old_string` on a missing file, creates the file. ' +
    '`file_path` must be absolute. `old_string` must be the exact literal text, including whitespace and indentation, ' +
    'never escaped; include at least 3 lines of context before and after the change so the match is unique. ' +
    '`expected_replacements` sets how many occurrences must match (default 1); all of them are replaced. ' +
    'Always read the file with read_file first. The user may modify `new_string` before it is applied.',
  inputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  meta: { [META.confirms]: true },
  handler: async (input, ctx): Promise<CallToolResult> => {
    let args = input;
    for (;;) {
      const prep: Prepared = await prepare(args, ctx);
      await yieldToLoop();
      const views = await editDiff(args.file_path, prep.current, prep.next);
      const confirm = views.confirm;
      const title = `Confirm Edit: ${prep.rel}`;
      const outcome = await ctx.confirm({ kind: 'edit', title, ...confirm }, `${title}\n\n${confirm.fileDiff}`);
      if (outcome.decision === 'cancel') throw userCancelled();
      if (outcome.decision === 'modify') {
        // The user edited the whole proposed file: re-validate it as a one-shot full replacement.
        args = {
          ...args,
          old_string: prep.current ?? '',
          new_string: outcome.content,
          expected_replacements: 1,
          modified_by_user: true,
        };
        continue;
      }
      try {
        await writeText(ctx, prep.target, withLineEndings(prep.next, prep.raw), prep.raw !== null);
      } catch (err) {
        const msg = (err as Error).message;
        throw new ToolError(`Error executing edit: ${msg}`, 'file_write_failure', `Error writing file: ${msg}`);
      }
      const parts = [
        prep.current === null
          ? `Created new file: ${args.file_path} with provided content.`
          : `Successfully modified file: ${args.file_path} (${prep.occurrences} replacements).`,
        `Here is the updated code:\n${views.snippet}`,
      ];
      if (args.modified_by_user) parts.push(`User modified the \`new_string\` content to be: ${args.new_string}.`);
      return textResult(parts.join(' '), confirm);
    }
  },
});
