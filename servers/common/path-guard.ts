import { relative, resolve, sep } from 'node:path';
import type { WorkspaceRoots } from './roots.js';
import { ToolError } from './result.js';
import { isWithin, realPathOf } from '../../protocol/path-within.js';

/**
 * Workspace confinement, the one module every path-taking tool goes through.
 * Resolves against the primary root, follows symlinks through the longest existing prefix, and
 * refuses anything that lands outside the roots or on a sensitive segment.
 */

export interface GuardedPath {
  /** `path.resolve`d input: what messages show. */
  resolved: string;
  /** Real path: what the tool opens. */
  real: string;
  /** The root containing the real path, or undefined when it lies in the project temp dir. */
  root: string | undefined;
}

const LOG_FRAGMENTS = ['AssertionError:', 'FAIL ', '✓ ', '× ', 'TestingLibraryElementError:'];

/** Returns the pre-flight reason, or undefined when the string is fine. */
export function preflightReason(p: unknown): string | undefined {
  if (typeof p !== 'string' || p.trim() === '') return 'Path must be a non-empty string.';
  if (/[\n\r\t\0]/.test(p)) return 'Path contains invalid characters (newlines or control characters).';
  const parts = p.split(/[\\/]/);
  if (parts.some((c) => LOG_FRAGMENTS.some((f) => c.startsWith(f)))) {
    return 'Path appears to be a misinterpreted log fragment.';
  }
  if ((p.includes('"') || p.includes('...')) && p.length > 20) {
    return 'Path contains suspicious characters (double quotes or ellipses) and is too long to be a simple filename.';
  }
  if (p.length > 4096) return 'Path is too long (maximum 4096 characters).';
  const long = parts.find((c) => c.length > 255);
  if (long) return `Path component "${long.slice(0, 20)}..." is too long (maximum 255 characters).`;
  return undefined;
}

export { isWithin, realPathOf };

export function isSensitiveSegment(segment: string): boolean {
  const cleaned = segment
    .split(':')[0]
    .replace(/[. ]+$/, '')
    .toLowerCase();
  if (cleaned === '.git' || cleaned === '.env' || cleaned === 'node_modules') return true;
  return cleaned.startsWith('gha-creds-') && cleaned.endsWith('.json');
}

export function hasSensitiveSegment(root: string, real: string): boolean {
  const rel = relative(root, real);
  return rel !== '' && rel.split(sep).some(isSensitiveSegment);
}

export function notInWorkspaceMessage(resolved: string, roots: WorkspaceRoots): string {
  const tmp = roots.projectTempDir ? ` or the project temp directory: ${roots.projectTempDir}` : '';
  return (
    `Path not in workspace: Attempted path "${resolved}" resolves outside the allowed workspace ` +
    `directories: ${roots.list.join(', ')}${tmp}`
  );
}

/** Checks a path; returns the guarded path or an error message (no throw). */
export function checkPath(
  input: unknown,
  roots: WorkspaceRoots,
):
  | { ok: true; path: GuardedPath }
  | { ok: false; message: string; errorType: 'invalid_tool_params' | 'path_not_in_workspace' } {
  const reason = preflightReason(input);
  if (reason) return { ok: false, message: `Invalid path: ${reason}`, errorType: 'invalid_tool_params' };
  const primary = roots.primary;
  if (!primary) return { ok: false, message: 'No workspace roots are configured.', errorType: 'path_not_in_workspace' };
  const resolved = resolve(primary, input as string);
  // /proc/<pid>/cwd, /proc/self/root and /dev/fd links point anywhere, even back inside a root.
  if (/^\/(proc|dev\/fd)(\/|$)/.test(resolved)) {
    return { ok: false, message: notInWorkspaceMessage(resolved, roots), errorType: 'path_not_in_workspace' };
  }
  let real: string;
  try {
    real = realPathOf(resolved);
  } catch {
    return { ok: false, message: notInWorkspaceMessage(resolved, roots), errorType: 'path_not_in_workspace' };
  }
  const root = roots.list.find((r) => isWithin(r, real));
  if (root) {
    if (hasSensitiveSegment(root, real)) {
      return { ok: false, message: notInWorkspaceMessage(resolved, roots), errorType: 'path_not_in_workspace' };
    }
    return { ok: true, path: { resolved, real, root } };
  }
  if (roots.projectTempDir && isWithin(roots.projectTempDir, real)) {
    return { ok: true, path: { resolved, real, root: undefined } };
  }
  return { ok: false, message: notInWorkspaceMessage(resolved, roots), errorType: 'path_not_in_workspace' };
}

/** Same as checkPath, throwing a ToolError the kit turns into an `isError` result. */
export function guardPath(input: unknown, roots: WorkspaceRoots): GuardedPath {
  const r = checkPath(input, roots);
  if (!r.ok) throw new ToolError(r.message, r.errorType);
  return r.path;
}

/** For files a tool discovers itself (walks, globs): inside a root, no sensitive segment. */
export function isAllowedReal(real: string, roots: WorkspaceRoots): boolean {
  const root = roots.list.find((r) => isWithin(r, real));
  if (root) return !hasSensitiveSegment(root, real);
  return !!roots.projectTempDir && isWithin(roots.projectTempDir, real);
}

/** The directory a write to a guarded path starts its no-follow walk from: its root or the temp dir. */
export function writeBaseOf(p: GuardedPath, roots: WorkspaceRoots): string {
  const base = p.root ?? roots.projectTempDir;
  if (base === undefined) throw new ToolError(notInWorkspaceMessage(p.resolved, roots), 'path_not_in_workspace');
  return base;
}
