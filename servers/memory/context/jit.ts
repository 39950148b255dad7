import { realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { isWithin } from '../../common/path-guard.js';
import { findGitRoot, staysInProject } from './discovery.js';
import { readContextFile } from './read-context-file.js';
import { processImports } from './import-processor.js';
import { renderBlock } from './render.js';

export interface JitFile {
  path: string;
  /** The rendered `--- Context from: … ---` block. */
  text: string;
}

/** The path's real location, or its nearest existing ancestor's (a file about to be written). */
async function realOrAncestor(p: string): Promise<{ real: string; isDir: boolean } | undefined> {
  let cur = resolve(p);
  for (;;) {
    const real = await realpath(cur).catch(() => undefined);
    if (real) return { real, isDir: cur === resolve(p) ? (await stat(real)).isDirectory() : true };
    const up = dirname(cur);
    if (up === cur) return undefined;
    cur = up;
  }
}

/**
 * Context files in the directories between a workspace root (exclusive: the root and its ancestors are
 * in the start-up context) and the directory of `target`, outermost first — what Gemini CLI loads
 * "just in time" when the model reads or writes there. Paths outside every root give nothing.
 * `inputs`: every path whose presence or content decides the answer (for the roots given): the target, and
 * in each directory of the chain each context file name (present or not), its `.git` (the import boundary)
 * and the files the imports read; a client may reuse the answer while none of them changed.
 */
export async function subdirectoryContext(
  target: string,
  roots: readonly string[],
  fileNames: readonly string[],
): Promise<{ files: JitFile[]; inputs: string[] }> {
  const inputs = new Set([resolve(target)]);
  const at = await realOrAncestor(target);
  if (!at) return { files: [], inputs: [...inputs] };
  const dir = at.isDir ? at.real : dirname(at.real);
  const realRoots = await Promise.all(roots.map((r) => realpath(r).catch(() => resolve(r))));
  const root = realRoots.filter((r) => isWithin(r, dir)).sort((a, b) => b.length - a.length)[0];
  if (!root || root === dir) return { files: [], inputs: [...inputs] };
  const dirs: string[] = [];
  for (let d = dir; d !== root; d = dirname(d)) dirs.unshift(d);
  inputs.add(resolve(root, '.git'));
  const out: JitFile[] = [];
  const onImport = (p: string) => inputs.add(p);
  for (const d of dirs) {
    inputs.add(resolve(d, '.git'));
    for (const name of fileNames) {
      const path = resolve(d, name);
      inputs.add(path);
      const info = await stat(path).catch(() => undefined);
      // A link out of the workspace would send what it names to the model.
      if (!info?.isFile() || !(await staysInProject(path, root))) continue;
      const raw = await readContextFile(path, root).catch(() => undefined);
      if (raw === undefined) continue;
      const projectRoot = findGitRoot(d) ?? root;
      const text = (await processImports(raw, d, { projectRoot, onImport }, 0, new Set([path]))).trim();
      if (text) out.push({ path, text: renderBlock(path, text) });
    }
  }
  return { files: out, inputs: [...inputs] };
}
