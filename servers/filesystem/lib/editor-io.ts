import { atomicWrite } from '../../common/atomic-write.js';
import { writeBaseOf, type GuardedPath } from '../../common/path-guard.js';
import type { ToolContext } from '../../common/tool.js';

/**
 * Text I/O of the edit tools through the editor, when the client lends its files (docs/editor-file-system.md):
 * the file is always checked on disk first (workspace, type, size); its text is then the editor's buffer, and
 * a change to an existing file is handed to the editor, so it lands in the buffer and its undo history.
 * A new file is created on disk (atomically), as without an editor: there is no buffer to land in.
 */
export async function currentText(ctx: ToolContext, target: GuardedPath, diskText: string): Promise<string> {
  if (!ctx.editorFiles?.read) return diskText;
  // An editor that cannot open the file has no buffer of it; the write still goes to the editor (and fails
  // there visibly if it cannot take it).
  return ctx.editorFiles.read(target.real).catch((err: unknown) => {
    ctx.log.warn(`editor could not read ${target.real}: ${(err as Error)?.message ?? err}; using the disk's text`);
    return diskText;
  });
}

export async function writeText(
  ctx: ToolContext,
  target: GuardedPath,
  content: string,
  exists: boolean,
): Promise<void> {
  if (exists && ctx.editorFiles?.write) return ctx.editorFiles.write(target.real, content);
  await atomicWrite(target.real, content, { base: writeBaseOf(target, ctx.roots) });
}
