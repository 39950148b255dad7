import { realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { discoverContextFiles, type ContextFileRef, type DiscoveryOptions } from './discovery.js';
import { processImports } from './import-processor.js';
import { OutsideProjectError, readContextFile } from './read-context-file.js';

export interface LoadedContext {
  /** The assembled text: one `--- Context from: ---` block per non-empty file, blank-line separated. */
  text: string;
  files: ContextFileRef[];
  /** Every file read (top-level and imported), for change watching. */
  touched: string[];
  /** Project context files not loaded because they are links leading out of their project. */
  skipped: string[];
}

export function renderBlock(path: string, content: string): string {
  return `--- Context from: ${path} ---\n${content}\n--- End of Context from: ${path} ---`;
}

/** Discovers, reads, import-processes and renders the memory context. */
export async function loadContext(opts: DiscoveryOptions): Promise<LoadedContext> {
  const skipped: string[] = [];
  const refs = await discoverContextFiles(opts, skipped);
  const touched: string[] = [];
  const blocks: string[] = [];
  const files: ContextFileRef[] = [];
  for (const ref of refs) {
    let raw: string;
    try {
      // A project's file is checked again where it is read: a link swapped in since discovery is refused.
      raw = await readContextFile(ref.path, ref.scope === 'project' ? ref.importRoot : undefined);
    } catch (err) {
      if (err instanceof OutsideProjectError) skipped.push(ref.path);
      continue; // removed between discovery and read, or not a file to load
    }
    touched.push(ref.path);
    const real = await realpath(ref.path).catch(() => ref.path);
    const processed = await processImports(
      raw,
      dirname(ref.path),
      { projectRoot: ref.importRoot, onImport: (p) => touched.push(p) },
      0,
      new Set([real]),
    );
    const trimmed = processed.trim();
    if (!trimmed) continue;
    blocks.push(renderBlock(ref.path, trimmed));
    files.push(ref);
  }
  return { text: blocks.join('\n\n'), files, touched, skipped };
}
