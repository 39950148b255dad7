import { basename } from 'node:path';
import type { LoadedExtension } from '../extensions/loader.js';
import { resourceText } from '../mcp/util.js';

/** The memory server's list of the context files it loaded (GEMINI.md, AGENTS.md, … as configured). */
const FILES_URI = 'gemini-memory://files';

export interface ContextFile {
  path: string;
  /** `global`, `project`, … as the memory server says, or `extension NAME`. */
  scope?: string;
}

interface ResourceReader {
  states(): { alias: string; status: string }[];
  readResource(alias: string, uri: string): Promise<{ contents: ({ text: string } | { blob: string })[] }>;
}

/**
 * Every context file a request carries: the memory server's (when it is connected) and the enabled
 * extensions' — which are most of a request's context when extensions are installed, so `/memory list`
 * and the start line count them too. Undefined when the memory server cannot say and no extension adds any.
 */
export async function contextFilesInUse(
  manager: ResourceReader,
  extensions: readonly LoadedExtension[],
): Promise<ContextFile[] | undefined> {
  let fromMemory: ContextFile[] | undefined;
  if (manager.states().some((s) => s.alias === 'memory' && s.status === 'connected')) {
    try {
      const parsed = JSON.parse(resourceText(await manager.readResource('memory', FILES_URI)) || '{}') as {
        files?: ContextFile[];
      };
      fromMemory = parsed.files ?? [];
    } catch {
      fromMemory = undefined;
    }
  }
  const fromExtensions = extensions
    .filter((e) => e.enabled)
    .flatMap((e) => e.contextFiles.map((path) => ({ path, scope: `extension ${e.name}` })));
  if (!fromMemory && !fromExtensions.length) return undefined;
  return [...(fromMemory ?? []), ...fromExtensions];
}

/** The distinct file names, for a one-line summary (`GEMINI.md, AGENTS.md`). */
export function contextFileNames(files: readonly ContextFile[]): string {
  return [...new Set(files.map((f) => basename(f.path)))].join(', ');
}
