import { stat } from 'node:fs/promises';
import { withDeadline } from '../../common/deadline.js';
import { basename } from 'node:path';
import * as z from 'zod';
import { META } from '../../../protocol/meta.js';
import { guardPath } from '../../common/path-guard.js';
import { textResult, ToolError } from '../../common/result.js';
import { defineTool, READ_ONLY } from '../../common/tool.js';
import type { SearchGate } from '../lib/search-gate.js';
import type { Launcher } from '../lib/spawn-relay.js';
import type { WorkspaceRoots } from '../../common/roots.js';
import { formatGrepOutput } from '../lib/grep-format.js';
import { compareMatches, groupWithContext, searchDirectory, type FoundMatch } from '../lib/grep-search.js';
import { rootOf } from '../lib/paths.js';

export const MAX_MATCHES = 100;
export const SEARCH_TIMEOUT_MS = 30_000;

const inputSchema = z.object({
  pattern: z
    .string()
    .describe(
      "The regular expression (JavaScript syntax) to search for in file contents, e.g. 'function\\s+myFunction'.",
    ),
  path: z
    .string()
    .optional()
    .describe(
      'Optional: the absolute path of the directory to search (or relative to the first workspace root). Defaults to all workspace roots.',
    ),
  include: z
    .string()
    .optional()
    .describe(
      "Optional: a glob filtering which files are searched, e.g. '*.js', '*.{ts,tsx}', 'src/**'. Defaults to all files.",
    ),
});

export interface SearchDeps {
  /** The gate search processes wait for (the process's, shared by every session's server). */
  searches: SearchGate;
  /** How search processes are started (the process's; spawn-relay.ts); a direct spawn without it. */
  launcher?: Launcher;
}

export const createSearchFileContentTool = (deps: SearchDeps) =>
  defineTool({
    name: 'search_file_content',
    title: 'SearchText',
    description:
      'Searches for a regular expression (JavaScript regex syntax, matched case-insensitively) within the content of files ' +
      'in a directory (optional `path`; by default all workspace roots), optionally filtered by an `include` glob. ' +
      `Returns at most ${MAX_MATCHES} matching lines, grouped by file, with their line numbers.`,
    inputSchema,
    annotations: READ_ONLY,
    meta: { [META.maxResultSizeChars]: 4_100_000 },
    handler: async (args, ctx) => {
      let regex: RegExp;
      try {
        regex = new RegExp(args.pattern, 'i');
      } catch (err) {
        throw new ToolError(
          `Invalid regular expression pattern provided: ${args.pattern}. Error: ${(err as Error).message}`,
          'invalid_tool_params',
        );
      }
      const dirs = await searchDirs(args.path, ctx.roots);
      const location =
        args.path !== undefined
          ? `in path "${args.path}"`
          : dirs.length > 1
            ? `across ${dirs.length} workspace directories`
            : 'in the workspace directory';
      const filter = args.include ? ` (filter: "${args.include}")` : '';

      const all: FoundMatch[] = [];
      const linesByFile = new Map<string, string[]>();
      let timedOut = () => false;
      try {
        await withDeadline(ctx.signal, SEARCH_TIMEOUT_MS, async (signal, expired) => {
          timedOut = expired;
          for (const { dir, prefix } of dirs) {
            const located = rootOf(dir, ctx.roots);
            const found = await searchDirectory({
              dir,
              root: located?.root,
              dirRel: located?.rel ?? '',
              pattern: args.pattern,
              regex,
              include: args.include,
              roots: ctx.roots,
              signal,
              max: MAX_MATCHES,
              gate: deps.searches,
              launcher: deps.launcher,
              linesByFile,
            });
            for (const m of found) all.push(prefix ? { ...m, file: prefix + m.file } : m);
          }
        });
      } catch (err) {
        if (timedOut() && !ctx.signal.aborted) {
          throw new ToolError(
            `Error during grep search operation: Operation timed out after ${SEARCH_TIMEOUT_MS}ms. In large repositories, consider narrowing your search scope by specifying a 'path' or an 'include'.`,
            'grep_execution_error',
            'Error: Operation timed out',
          );
        }
        const msg = (err as Error).message;
        throw new ToolError(`Error during grep search operation: ${msg}`, 'grep_execution_error', `Error: ${msg}`);
      }
      all.sort(compareMatches);
      const chosen = all.slice(0, MAX_MATCHES);
      const groups = groupWithContext(chosen, linesByFile);
      const out = formatGrepOutput({
        groups,
        pattern: args.pattern,
        location,
        filter,
        max: MAX_MATCHES,
        limited: all.length >= MAX_MATCHES,
      });
      return textResult(out.text, out.display);
    },
  });

/** The folders to search: the `path` given (a directory inside the workspace), else every root. */
async function searchDirs(path: string | undefined, roots: WorkspaceRoots): Promise<{ dir: string; prefix: string }[]> {
  if (path !== undefined) {
    const target = guardPath(path, roots);
    let isDir: boolean;
    try {
      isDir = (await stat(target.real)).isDirectory();
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'ENOENT') throw new ToolError(`Path does not exist: ${target.resolved}`, 'invalid_tool_params');
      throw new ToolError(`Failed to access path stats for ${target.resolved}: ${e.message}`, 'invalid_tool_params');
    }
    if (!isDir) throw new ToolError(`Path is not a directory: ${target.resolved}`, 'invalid_tool_params');
    return [{ dir: target.real, prefix: '' }];
  } else {
    if (roots.list.length === 0) throw new ToolError('No workspace roots are configured.', 'path_not_in_workspace');
    const several = roots.list.length > 1;
    return roots.list.map((r) => ({ dir: r, prefix: several ? `${basename(r)}/` : '' }));
  }
}
