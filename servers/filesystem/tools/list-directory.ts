import { type Dirent, type Stats, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import * as z from 'zod';
import { childOf, fdPathsWork, isEscape, openChecked } from '../../common/confined-fs.js';
import { guardPath, isAllowedReal, notInWorkspaceMessage } from '../../common/path-guard.js';
import { errorResult, textResult } from '../../common/result.js';
import { defineTool, READ_ONLY, type ToolContext } from '../../common/tool.js';
import { yieldToLoop } from '../../common/yield.js';
import { IgnoreRules } from '../lib/ignore-rules.js';
import { rootOf } from '../lib/paths.js';

const inputSchema = z.object({
  path: z.string().describe('The absolute path to the directory to list (must be absolute, not relative).'),
  ignore: z.array(z.string()).optional().describe('List of glob patterns to ignore, matched against entry names.'),
  respect_git_ignore: z.boolean().optional().describe('Whether to respect .gitignore patterns. Defaults to true.'),
  respect_gemini_ignore: z
    .boolean()
    .optional()
    .describe('Whether to respect .geminiignore patterns. Defaults to true.'),
});

/** `*` → `.*`, `?` → `.`, everything else literal, anchored. */
export function nameGlobToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\*?]/g, (c) => (c === '*' ? '.*' : c === '?' ? '.' : `\\${c}`));
  return new RegExp(`^${body}$`);
}

interface Entry {
  name: string;
  isDir: boolean;
  size: number;
}

export const listDirectory = defineTool({
  name: 'list_directory',
  title: 'ReadFolder',
  description:
    'Lists the names of files and subdirectories directly within a specified directory path (non-recursive). ' +
    'The path must be absolute. Entries can optionally be filtered with glob patterns in `ignore`; ' +
    '.gitignore and .geminiignore rules are respected.',
  inputSchema,
  annotations: READ_ONLY,
  handler: async (args, ctx) => {
    if (!isAbsolute(args.path)) return errorResult(`Path must be absolute: ${args.path}`, 'invalid_tool_params');
    const target = guardPath(args.path, ctx.roots);
    const abs = target.resolved;
    try {
      const st = await stat(target.real);
      if (!st.isDirectory()) return errorResult(`Error: Path is not a directory: ${abs}`, 'path_is_not_a_directory');
    } catch (err) {
      return errorResult(
        `Error listing directory: ${(err as Error).message}`,
        'ls_execution_error',
        'Error: Failed to list directory.',
      );
    }
    let dirents;
    // The listing comes from the opened directory itself, judged where it really is.
    let dir;
    try {
      dir = await openChecked(target.real, { directory: true, allowed: (real) => isAllowedReal(real, ctx.roots) });
    } catch (err) {
      if (isEscape(err)) return errorResult(notInWorkspaceMessage(abs, ctx.roots), 'path_not_in_workspace');
      return errorResult(
        `Error listing directory: ${(err as Error).message}`,
        'ls_execution_error',
        'Error: Failed to list directory.',
      );
    }
    const entryPath = (name: string) => (fdPathsWork() ? childOf(dir, name) : join(target.real, name));
    try {
      dirents = await readdir(fdPathsWork() ? `/proc/self/fd/${dir.fd}` : target.real, { withFileTypes: true });
    } catch (err) {
      await dir.close();
      return errorResult(
        `Error listing directory: ${(err as Error).message}`,
        'ls_execution_error',
        'Error: Failed to list directory.',
      );
    }
    if (dirents.length === 0) {
      await dir.close();
      return textResult(`Directory ${abs} is empty.`, 'Directory is empty.');
    }
    const { entries, ignored } = await describeEntries(dirents, entryPath, target.real, ctx, args).finally(() =>
      dir.close(),
    );
    entries.sort((a, b) => (a.isDir !== b.isDir ? (a.isDir ? -1 : 1) : a.name.localeCompare(b.name)));
    const lines = entries.map((e) => (e.isDir ? `[DIR] ${e.name}` : `${e.name} (${e.size} bytes)`));
    const tail = ignored > 0 ? `\n\n(${ignored} ignored)` : '';
    const display = `Found ${entries.length} item(s).${ignored > 0 ? ` (${ignored} ignored)` : ''}`;
    return textResult(`Directory listing for ${abs}:\n${lines.join('\n')}${tail}`, display);
  },
});

/** Entries stat'ed between two turns of the event loop. */
const STAT_CHUNK = 256;

/** The entry's stat (through a final link, as `ls -L` sizes it), or undefined for a broken or vanished one. */
function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

async function describeEntries(
  dirents: Dirent[],
  entryPath: (name: string) => string,
  real: string,
  ctx: ToolContext,
  args: { ignore?: string[]; respect_git_ignore?: boolean; respect_gemini_ignore?: boolean },
): Promise<{ entries: Entry[]; ignored: number }> {
  const located = rootOf(real, ctx.roots);
  const rules = located
    ? new IgnoreRules(located.root, {
        git: args.respect_git_ignore ?? true,
        gemini: args.respect_gemini_ignore ?? true,
      })
    : undefined;
  const patterns = (args.ignore ?? []).map(nameGlobToRegExp);
  let ignored = 0;
  const entries: Entry[] = [];
  for (let i = 0; i < dirents.length; i++) {
    // Stats run here, a chunk at a time: a stat is a few microseconds of metadata work, while one round
    // trip through the thread pool per entry cost more than the stat itself on a server answering many
    // clients. Between chunks, other calls get their turn.
    if (i > 0 && i % STAT_CHUNK === 0) await yieldToLoop();
    const d = dirents[i]!;
    const st = statOrUndefined(entryPath(d.name));
    const isDir = st ? st.isDirectory() : d.isDirectory();
    if (rules && located) {
      const rel = located.rel ? `${located.rel}/${d.name}` : d.name;
      if (rules.isIgnored(rel, isDir)) {
        ignored++;
        continue;
      }
    }
    if (patterns.some((re) => re.test(d.name))) continue;
    // Broken links and vanished entries are left out silently.
    if (st) entries.push({ name: d.name, isDir, size: isDir ? 0 : st.size });
  }
  return { entries, ignored };
}
