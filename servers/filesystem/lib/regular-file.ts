import { isEscape, readChecked } from '../../common/confined-fs.js';
import { isAllowedReal, notInWorkspaceMessage, type GuardedPath } from '../../common/path-guard.js';
import { ToolError } from '../../common/result.js';
import type { WorkspaceRoots } from '../../common/roots.js';

/**
 * Reads a whole guarded file through a descriptor whose real location is checked after the open, refusing
 * FIFOs, sockets and devices (opened non-blocking, so a FIFO cannot hang the call). A path that was
 * swapped to lead outside the roots since the guard looked fails with the guard's own error.
 */
export async function readGuardedFile(target: GuardedPath, roots: WorkspaceRoots): Promise<Buffer> {
  try {
    return await readChecked(target.real, (real) => isAllowedReal(real, roots));
  } catch (err) {
    if (isEscape(err)) throw new ToolError(notInWorkspaceMessage(target.resolved, roots), 'path_not_in_workspace');
    throw err;
  }
}
