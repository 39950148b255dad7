import { realpath } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { isWithin } from '../../common/path-guard.js';
import { readContextFile } from './read-context-file.js';

export const MAX_IMPORT_DEPTH = 5;

export interface ImportOptions {
  /** Imports must resolve (by realpath) inside this directory. */
  projectRoot: string;
  maxDepth?: number;
  /** Called with every file read through an import, and every missing one (for change watching). */
  onImport?: (path: string) => void;
}

/** Byte ranges `[start, end)` of fenced code blocks and inline code spans, where `@` is literal. */
export function codeRegions(text: string): Array<[number, number]> {
  const regions: Array<[number, number]> = [];
  const fenced: Array<[number, number]> = [];
  let offset = 0;
  let open: { char: string; len: number; start: number } | undefined;
  for (const line of text.split('\n')) {
    const end = offset + line.length + 1;
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (open) {
      if (fence && fence[1][0] === open.char && fence[1].length >= open.len && line.trim() === fence[1]) {
        fenced.push([open.start, Math.min(end, text.length)]);
        open = undefined;
      }
    } else if (fence) {
      open = { char: fence[1][0], len: fence[1].length, start: offset };
    }
    offset = end;
  }
  if (open) fenced.push([open.start, text.length]);

  // Inline spans: a run of n backticks closes at the next run of exactly n backticks.
  const inFence = (i: number) => fenced.some(([s, e]) => i >= s && i < e);
  const runs = [...text.matchAll(/`+/g)].filter((m) => !inFence(m.index));
  for (let i = 0; i < runs.length; i++) {
    const closer = runs.findIndex((r, j) => j > i && r[0].length === runs[i][0].length);
    if (closer < 0) continue;
    regions.push([runs[i].index, runs[closer].index + runs[closer][0].length]);
    i = closer;
  }
  return [...fenced, ...regions];
}

const IMPORT_TOKEN = /(^|\s)@([./A-Za-z][^\s]*)/g;

/**
 * Replaces `@path` tokens with the imported files' processed content. `chain` holds
 * the realpaths of the files currently being imported, so a cycle is reported instead of followed.
 */
export async function processImports(
  content: string,
  baseDir: string,
  opts: ImportOptions,
  depth = 0,
  chain: Set<string> = new Set(),
): Promise<string> {
  if (depth >= (opts.maxDepth ?? MAX_IMPORT_DEPTH)) return content;
  const regions = codeRegions(content);
  let out = '';
  let last = 0;
  for (const m of content.matchAll(IMPORT_TOKEN)) {
    const at = m.index + m[1].length;
    if (regions.some(([s, e]) => at >= s && at < e)) continue;
    const token = m[2];
    out += content.slice(last, at) + (await importOne(token, baseDir, opts, depth, chain));
    last = at + 1 + token.length;
  }
  return out + content.slice(last);
}

async function importOne(
  token: string,
  baseDir: string,
  opts: ImportOptions,
  depth: number,
  chain: Set<string>,
): Promise<string> {
  if (/^(https?|file):\/\//i.test(token)) return `<!-- Import failed: ${token} - Path traversal attempt -->`;
  const full = resolve(baseDir, token);
  let real: string;
  try {
    real = await realpath(full);
  } catch (err) {
    // A missing file outside the root is still a traversal attempt, not a read failure.
    if (!isWithin(opts.projectRoot, full)) return `<!-- Import failed: ${token} - Path traversal attempt -->`;
    // Still an input of the context: creating the file changes the text.
    opts.onImport?.(full);
    return `<!-- Import failed: ${token} - ${(err as Error).message} -->`;
  }
  const rootReal = await realpath(opts.projectRoot).catch(() => opts.projectRoot);
  if (!isWithin(rootReal, real)) return `<!-- Import failed: ${token} - Path traversal attempt -->`;
  if (chain.has(real)) return `<!-- File already processed: ${token} -->`;
  let text: string;
  try {
    text = await readContextFile(real, rootReal);
  } catch (err) {
    return `<!-- Import failed: ${token} - ${(err as Error).message} -->`;
  }
  opts.onImport?.(real);
  const nested = new Set(chain).add(real);
  const processed = await processImports(text, dirname(full), opts, depth + 1, nested);
  return `<!-- Imported from: ${token} -->\n${processed}\n<!-- End of import from: ${token} -->`;
}
