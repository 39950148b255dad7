import { isAbsolute } from 'node:path';
import * as z from 'zod';
import { META } from '../../../protocol/meta.js';
import { guardPath } from '../../common/path-guard.js';
import { errorResult, textResult } from '../../common/result.js';
import { flooredNumber } from '../../common/schema.js';
import { defineTool, READ_ONLY } from '../../common/tool.js';
import { IgnoreRules } from '../lib/ignore-rules.js';
import { displayRel, rootOf } from '../lib/paths.js';
import { readForModel, truncatedHeader } from '../lib/read-content.js';

const inputSchema = z.object({
  absolute_path: z
    .string()
    .describe(
      "The absolute path to the file to read (e.g., '/home/user/project/file.txt'). Relative paths are not supported.",
    ),
  offset: flooredNumber()
    .optional()
    .describe(
      "Optional: for text files, the 0-based line number to start reading from. Use with 'limit' to paginate through large files.",
    ),
  limit: flooredNumber()
    .optional()
    .describe(
      "Optional: for text files, the maximum number of lines to read (default 2000). Use with 'offset' to paginate.",
    ),
});

export const readFile = defineTool({
  name: 'read_file',
  title: 'ReadFile',
  description:
    'Reads and returns the content of a specified file. `absolute_path` must be absolute. Large text files are ' +
    "truncated with a notice that says how to read more; use 'offset' and 'limit' to paginate through text files. " +
    'Handles text, images (PNG, JPG, GIF, WEBP, SVG, BMP), audio (MP3, WAV, AIFF, AAC, OGG, FLAC) and PDF files.',
  inputSchema,
  annotations: READ_ONLY,
  meta: { [META.maxResultSizeChars]: 4_100_000 },
  handler: async (args, ctx) => {
    const p = args.absolute_path;
    if (p.trim() === '') return errorResult("The 'absolute_path' parameter must be non-empty.", 'invalid_tool_params');
    if (!isAbsolute(p)) {
      return errorResult(
        `File path must be absolute, but was relative: ${p}. You must provide an absolute path.`,
        'invalid_tool_params',
      );
    }
    const target = guardPath(p, ctx.roots);
    if (args.offset !== undefined && args.offset < 0)
      return errorResult('Offset must be a non-negative number', 'invalid_tool_params');
    if (args.limit !== undefined && args.limit <= 0)
      return errorResult('Limit must be a positive number', 'invalid_tool_params');
    const located = rootOf(target.real, ctx.roots);
    if (located && new IgnoreRules(located.root, { git: true, gemini: true }).isIgnored(located.rel)) {
      return errorResult(`File path '${p}' is ignored by configured ignore patterns.`, 'invalid_tool_params');
    }

    const rel = displayRel(target.real, ctx.roots);
    // A FileReadError carries its errorType and display; the kit makes the error result of it.
    const outcome = await readForModel({
      abs: target.resolved,
      real: target.real,
      roots: ctx.roots,
      rel,
      offset: args.offset,
      limit: args.limit,
      editorText: ctx.editorFiles?.read,
    });
    if (outcome.kind === 'notice') return textResult(outcome.text, outcome.display);
    if (outcome.kind === 'media') return { content: [outcome.block], _meta: { [META.display]: outcome.display } };
    if (!outcome.truncated) return textResult(outcome.content, '');
    const shortened = outcome.linesCut ? ' (some lines were shortened)' : '';
    const windowed = (args.offset ?? 0) > 0 || outcome.end < outcome.total;
    const display = windowed
      ? `Read lines ${outcome.start + 1}-${outcome.end} of ${outcome.total} from ${rel}${shortened}`
      : `Read all ${outcome.total} lines from ${rel}${shortened}`;
    return textResult(truncatedHeader(outcome) + outcome.content, display);
  },
});
