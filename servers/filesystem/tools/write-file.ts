import { lstat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import * as z from 'zod';
import { META } from '../../../protocol/meta.js';
import { guardPath, type GuardedPath } from '../../common/path-guard.js';
import { textResult, ToolError, userCancelled } from '../../common/result.js';
import { defineTool, type ToolContext } from '../../common/tool.js';
import { yieldToLoop } from '../../common/yield.js';
import { currentText, writeText } from '../lib/editor-io.js';
import { withLineEndings } from '../lib/line-endings.js';
import { editDiff, toLf, writeFileError } from '../lib/edit-support.js';
import { hasOmissionPlaceholder } from '../lib/omission.js';
import { displayRel } from '../lib/paths.js';
import { readGuardedFile } from '../lib/regular-file.js';
import { decodeText } from '../lib/text-decode.js';

const inputSchema = z.object({
  file_path: z
    .string()
    .describe(
      "The absolute path to the file to write to (e.g., '/home/user/project/file.txt'). Relative paths are not supported.",
    ),
  content: z
    .string()
    .describe(
      'The complete content to write to the file. Provide the whole file: no placeholders or omitted sections.',
    ),
  modified_by_user: z.boolean().optional().describe('Set by the host only, when the user edited the proposed content.'),
});

type Args = z.infer<typeof inputSchema>;

/** write_file's validation checks, in their documented order; returns the guarded target. */
async function validate(args: Args, ctx: ToolContext): Promise<GuardedPath> {
  const p = args.file_path;
  if (!p || p.trim() === '') throw new ToolError('Missing or empty "file_path"', 'invalid_tool_params');
  if (!isAbsolute(p)) throw new ToolError(`File path must be absolute: ${p}`, 'invalid_tool_params');
  const target = guardPath(p, ctx.roots);
  try {
    if ((await lstat(target.real)).isDirectory())
      throw new ToolError(`Path is a directory, not a file: ${p}`, 'invalid_tool_params');
  } catch (err) {
    if (err instanceof ToolError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.code !== 'ENOENT') {
      throw new ToolError(
        `Error accessing path properties for validation: ${p}. Reason: ${e.message}`,
        'invalid_tool_params',
      );
    }
  }
  if (hasOmissionPlaceholder(args.content)) {
    throw new ToolError(
      "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.",
      'invalid_tool_params',
    );
  }
  return target;
}

async function readExisting(target: GuardedPath, filePath: string, ctx: ToolContext): Promise<string | null> {
  try {
    return await currentText(ctx, target, decodeText(await readGuardedFile(target, ctx.roots)));
  } catch (err) {
    if (err instanceof ToolError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') return null;
    throw new ToolError(`Error checking existing file '${filePath}': ${e.message} (${e.code})`, 'file_write_failure');
  }
}

export const writeFile = defineTool({
  name: 'write_file',
  title: 'WriteFile',
  description:
    'Writes content to a specified file, creating it and any missing parent directories, or overwriting it. ' +
    '`file_path` must be absolute. Provide the complete file content: no placeholders such as "rest of code ...". ' +
    'The user may modify the content before it is written; the response then says so and shows the final content.',
  inputSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  meta: { [META.confirms]: true },
  handler: async (input, ctx) => {
    let args = input;
    for (;;) {
      const target = await validate(args, ctx);
      await yieldToLoop();
      const existing = await readExisting(target, args.file_path, ctx);
      const original = existing === null ? null : toLf(existing);
      const proposed = toLf(args.content);
      await yieldToLoop();
      const rel = displayRel(target.real, ctx.roots);
      const views = await editDiff(args.file_path, original, proposed);
      const confirm = views.confirm;
      const title = `Confirm Write: ${rel}`;
      const outcome = await ctx.confirm({ kind: 'edit', title, ...confirm }, `${title}\n\n${confirm.fileDiff}`);
      if (outcome.decision === 'cancel') throw userCancelled();
      if (outcome.decision === 'modify') {
        args = { ...args, content: outcome.content, modified_by_user: true };
        continue;
      }
      try {
        await writeText(ctx, target, withLineEndings(args.content, existing), existing !== null);
      } catch (err) {
        const e = writeFileError(args.file_path, err);
        throw new ToolError(e.message, e.errorType, `Error writing file: ${(err as Error).message}`);
      }
      const parts = [
        existing === null
          ? `Successfully created and wrote to new file: ${args.file_path}.`
          : `Successfully overwrote file: ${args.file_path}.`,
      ];
      if (args.modified_by_user) parts.push(`User modified the \`content\` to be: ${args.content}`);
      parts.push(`Here is the updated code:\n${views.snippet}`);
      return textResult(parts.join(' '), views.written);
    }
  },
});
