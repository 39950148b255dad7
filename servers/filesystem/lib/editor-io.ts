import { atomicWrite } from '../../common/atomic-write.js';
import { guardPath, writeBaseOf, type GuardedPath } from '../../common/path-guard.js';
import { ToolError } from '../../common/result.js';
import type { WorkspaceRoots } from '../../common/roots.js';
import type { ToolContext } from '../../common/tool.js';

/**
 * Text I/O of the edit tools through the editor, when the client lends its files (docs/editor-file-system.md):
 * the file is always checked on disk first (workspace, type, size); its text is then the editor's buffer, and
 * a change to an existing file is handed to the editor, so it lands in the buffer and its undo history.
 * A new file is created on disk (atomically), as without an editor: there is no buffer to land in.
 */
export async function currentText(ctx: ToolContext, target: GuardedPath, diskText: string): Promise<string> {
  if (!ctx.editorFiles?.read) return diskText;
  recheck(target, ctx.roots);
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
  if (exists && ctx.editorFiles?.write) {
    // The editor opens the file by name, after a confirmation that may have waited minutes: the path is
    // checked again now, so a file or parent swapped for a symlink meanwhile cannot send the write elsewhere.
    recheck(target, ctx.roots);
    return ctx.editorFiles.write(target.real, content);
  }
  await atomicWrite(target.real, content, { base: writeBaseOf(target, ctx.roots) });
}

/**
 * The path guard again, at use time: the input must still resolve to the same real path (inside the
 * workspace), and that real path must still be its own real path (no component turned into a symlink).
 */
export function recheck(target: GuardedPath, roots: WorkspaceRoots): void {
  const now = guardPath(target.resolved, roots);
  if (now.real !== target.real || guardPath(target.real, roots).real !== target.real) {
    throw new ToolError(
      `Path changed during the operation: "${target.resolved}" no longer resolves to ${target.real}; nothing was written or read through the editor.`,
      'path_not_in_workspace',
    );
  }
}
