import { existsSync, realpathSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import * as z from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../../protocol/meta.js';
import { isAllowedReal, isWithin } from '../../common/path-guard.js';
import type { WorkspaceRoots } from '../../common/roots.js';
import { ToolError } from '../../common/result.js';
import { defineTool, READ_ONLY } from '../../common/tool.js';
import { detectFileKind, isMediaKind } from '../lib/file-types.js';
import { IgnoreRules } from '../lib/ignore-rules.js';
import { confinedReaddir } from '../lib/confined-glob-fs.js';
import { loadFastGlob, type FastGlob } from '../lib/lazy.js';
import { displayRel, rootOf } from '../lib/paths.js';
import {
  DEFAULT_MAX_INLINE_MEDIA_BYTES,
  DEFAULT_MAX_TEXT_BYTES,
  FileReadError,
  readForModel,
} from '../lib/read-content.js';

export const DEFAULT_EXCLUDES = [
  '**/node_modules/**',
  '**/.git/**',
  '**/.vscode/**',
  '**/.idea/**',
  '**/dist/**',
  '**/build/**',
  '**/coverage/**',
  '**/__pycache__/**',
  '**/*.pyc',
  '**/*.bin',
  '**/*.exe',
  '**/*.dll',
  '**/*.so',
  '**/*.dylib',
  '**/*.class',
  '**/*.jar',
  '**/*.war',
  '**/*.zip',
  '**/*.tar',
  '**/*.gz',
  '**/*.bz2',
  '**/*.rar',
  '**/*.7z',
  '**/*.doc',
  '**/*.docx',
  '**/*.xls',
  '**/*.xlsx',
  '**/*.ppt',
  '**/*.pptx',
  '**/*.odt',
  '**/*.ods',
  '**/*.odp',
  '**/*.DS_Store',
  '**/.env',
  '**/GEMINI.md',
];

/** Text budget of one result: the same room below the kit's 8 MiB bound a single read gets. */
const RESULT_BUDGET_BYTES = DEFAULT_MAX_TEXT_BYTES;

const inputSchema = z.object({
  paths: z
    .array(z.string().min(1))
    .min(1)
    .describe(
      "Files, directories or glob patterns relative to the workspace roots, e.g. ['src/**/*.ts'] or ['README.md', 'docs/'].",
    ),
  include: z.array(z.string().min(1)).optional().describe('Optional: more glob patterns, merged with `paths`.'),
  exclude: z
    .array(z.string().min(1))
    .optional()
    .describe('Optional: glob patterns to exclude, added to the default excludes.'),
  recursive: z
    .boolean()
    .optional()
    .describe('Optional: whether directories are searched recursively. Defaults to true.'),
  useDefaultExcludes: z
    .boolean()
    .optional()
    .describe(
      'Optional: whether to apply the default exclude list (node_modules, .git, dist, binaries, ...). Defaults to true.',
    ),
  respect_git_ignore: z
    .boolean()
    .optional()
    .describe('Optional: whether to respect .gitignore patterns. Defaults to true.'),
  respect_gemini_ignore: z
    .boolean()
    .optional()
    .describe('Optional: whether to respect .geminiignore patterns. Defaults to true.'),
});

type Block = CallToolResult['content'][number];

export const readManyFiles = defineTool({
  name: 'read_many_files',
  title: 'ReadManyFiles',
  description:
    'Reads the content of several files selected by paths or glob patterns relative to the workspace roots (e.g. ' +
    "'src/**/*.ts'). Text files are concatenated, each introduced by a '--- <path> ---' separator, and the output ends " +
    "with '--- End of content ---'. Images and PDF files are returned only when named explicitly by name or extension. " +
    'Default excludes (node_modules, .git, dist, build, binaries, ...) apply unless `useDefaultExcludes` is false.',
  inputSchema,
  annotations: READ_ONLY,
  meta: { [META.maxResultSizeChars]: 8_000_000 },
  handler: async (args, ctx) => {
    if (ctx.roots.list.length === 0) throw new ToolError('No workspace roots are configured.', 'path_not_in_workspace');
    const entries = [...args.paths, ...(args.include ?? [])].map((e) => e.replace(/\\/g, '/'));
    const ignoreGlobs = [...(args.useDefaultExcludes === false ? [] : DEFAULT_EXCLUDES), ...(args.exclude ?? [])];
    const opts = { git: args.respect_git_ignore ?? true, gemini: args.respect_gemini_ignore ?? true };
    const skipped: { path: string; reason: string }[] = [];
    const files = await findFiles(ctx.roots, entries, ignoreGlobs, opts, args.recursive ?? true, skipped);

    const lowerEntries = entries.map((e) => e.toLowerCase());
    const content: Block[] = [];
    let text = '';
    let bytes = 0;
    const processed: string[] = [];
    for (const [file, real] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (ctx.signal.aborted) break;
      const kind = detectFileKind(file);
      if (isMediaKind(kind) && !explicitlyRequested(file, lowerEntries)) {
        skipped.push({
          path: file,
          reason: 'asset file (image/pdf/audio) was not explicitly requested by name or extension',
        });
        continue;
      }
      if (bytes >= RESULT_BUDGET_BYTES) {
        skipped.push({ path: file, reason: 'result size limit reached' });
        continue;
      }
      let outcome;
      try {
        outcome = await readForModel({
          abs: file,
          real,
          roots: ctx.roots,
          rel: displayRel(real, ctx.roots),
          maxTextBytes: RESULT_BUDGET_BYTES - bytes,
          maxInlineMediaBytes: Math.min(DEFAULT_MAX_INLINE_MEDIA_BYTES, RESULT_BUDGET_BYTES - bytes),
          editorText: ctx.editorFiles?.read,
        });
      } catch (err) {
        if (!(err instanceof FileReadError)) throw err;
        skipped.push({ path: file, reason: `Read error: ${err.message}` });
        continue;
      }
      processed.push(file);
      if (outcome.kind === 'media') {
        if (text) content.push({ type: 'text', text });
        text = '';
        content.push(outcome.block);
        bytes += mediaBytes(outcome.block);
        continue;
      }
      const body = outcome.kind === 'notice' ? outcome.text : outcome.content;
      const warning =
        outcome.kind === 'text' && outcome.truncated
          ? "[WARNING: This file was truncated. To view the full content, use the 'read_file' tool on this specific file.]\n\n"
          : '';
      const part = `--- ${file} ---\n\n${warning}${body}\n\n`;
      text += part;
      bytes += Buffer.byteLength(part);
    }
    if (processed.length === 0) {
      return withDisplay(
        { content: [{ type: 'text', text: 'No files matching the criteria were found or all were skipped.' }] },
        ctx.roots.primary!,
        processed,
        skipped,
      );
    }
    content.push({ type: 'text', text: `${text}\n--- End of content ---` });
    return withDisplay({ content }, ctx.roots.primary!, processed, skipped);
  },
});

/**
 * The files the entries match in every root, by path → real path: confined to the roots by real path (the
 * walk never enters a directory outside them) and filtered by each root's ignore files. Paths refused or
 * ignored are added to `skipped`.
 */
async function findFiles(
  roots: WorkspaceRoots,
  entries: string[],
  ignoreGlobs: string[],
  opts: { git: boolean; gemini: boolean },
  recursive: boolean,
  skipped: { path: string; reason: string }[],
): Promise<Map<string, string>> {
  /** Matched path → its real path. */
  const files = new Map<string, string>();
  let ignoredCount = 0;
  // Keyed by root: a `../` or absolute entry may match files of another root, judged by that root's rules.
  const rulesByRoot = new Map<string, IgnoreRules>();
  const rulesFor = (root: string) =>
    rulesByRoot.get(root) ?? rulesByRoot.set(root, new IgnoreRules(root, opts)).get(root)!;
  const inRoots = (real: string) =>
    roots.list.some((r) => isWithin(r, real)) || (!!roots.projectTempDir && isWithin(roots.projectTempDir, real));
  try {
    const fg = await loadFastGlob();
    for (const root of roots.list) {
      const patterns = entries.map((e) => patternFor(fg, root, e, recursive));
      const matches = await fg(patterns, {
        cwd: root,
        absolute: true,
        onlyFiles: true,
        dot: true,
        caseSensitiveMatch: false,
        followSymbolicLinks: false,
        ignore: ignoreGlobs,
        suppressErrors: true,
        fs: { readdir: confinedReaddir(inRoots) as never },
      });
      for (const file of matches) {
        if (files.has(file)) continue;
        let real: string;
        try {
          real = realpathSync(file);
        } catch {
          continue;
        }
        if (!isAllowedReal(real, roots)) {
          skipped.push({ path: file, reason: 'Security: Path not in workspace' });
          continue;
        }
        const located = rootOf(real, roots);
        if (located && !rulesFor(located.root).isEmpty && rulesFor(located.root).isIgnored(located.rel)) {
          ignoredCount++;
          continue;
        }
        files.set(file, real);
      }
    }
  } catch (err) {
    throw new ToolError(`Error during file search: ${(err as Error).message}`, 'read_many_files_search_error');
  }
  if (ignoredCount > 0) skipped.push({ path: `${ignoredCount} file(s)`, reason: 'ignored by project ignore files' });
  return files;
}

/** An existing file is meant literally, a directory expands, anything else is a glob. */
function patternFor(fg: FastGlob, root: string, entry: string, recursive: boolean): string {
  const full = join(root, entry);
  try {
    if (existsSync(full)) {
      const escaped = fg.escapePath(entry.replace(/\/+$/, ''));
      if (statSync(full).isDirectory()) return `${escaped}/${recursive ? '**' : '*'}`;
      return escaped;
    }
  } catch {
    // unreadable: treat as a glob
  }
  return entry;
}

/** Media is read only when some entry names its extension or its base name. */
function explicitlyRequested(file: string, lowerEntries: string[]): boolean {
  const ext = extname(file).toLowerCase();
  const stem = basename(file, extname(file)).toLowerCase();
  return lowerEntries.some((e) => (ext !== '' && e.includes(ext)) || (stem !== '' && e.includes(stem)));
}

function mediaBytes(block: Block): number {
  if (block.type === 'image' || block.type === 'audio') return block.data.length;
  if (block.type === 'resource' && 'blob' in block.resource) return block.resource.blob.length;
  return 0;
}

function withDisplay(
  result: CallToolResult,
  primary: string,
  processed: string[],
  skipped: { path: string; reason: string }[],
): CallToolResult {
  const lines = [`### ReadManyFiles Result (Target Dir: \`${primary}\`)`, ''];
  if (processed.length > 0) {
    lines.push(`Successfully read and concatenated content from **${processed.length} file(s)**.`, '');
    lines.push(...processed.slice(0, 10).map((f) => `- \`${f}\``));
    if (processed.length > 10) lines.push(`- ...and ${processed.length - 10} more.`);
  } else {
    lines.push('No files were read and concatenated based on the criteria.');
  }
  if (skipped.length > 0) {
    lines.push('', `**Skipped ${skipped.length} item(s):**`);
    lines.push(...skipped.slice(0, 5).map((s) => `- \`${s.path}\` (Reason: ${s.reason})`));
    if (skipped.length > 5) lines.push(`- ...and ${skipped.length - 5} more.`);
  }
  return { ...result, _meta: { [META.display]: lines.join('\n') } };
}
