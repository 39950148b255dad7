import { lstatSync } from 'node:fs';
import { extname, isAbsolute, resolve } from 'node:path';
import { isWithin, realPathOf } from '../../protocol/path-within.js';
import type { PolicyTool } from '../scheduler/types.js';

/**
 * The one write plan mode allows: a Markdown plan file under the session's plans folder, written with the
 * filesystem server's write_file or replace (as Gemini CLI 0.61's plan mode allows, `.md` only).
 */

/** Gemini CLI's words for a refused write in plan mode. */
export const PLAN_WRITE_DENIAL =
  'You are in Plan Mode and cannot modify source code. You may ONLY use write_file or replace to save plans to the designated plans directory as .md files.';

/** Our filesystem server's write_file and replace: the tools that may write a plan. */
export function isPlanWriteTool(tool: Pick<PolicyTool, 'serverAlias' | 'toolName' | 'builtIn'>): boolean {
  return tool.builtIn && tool.serverAlias === 'filesystem' && ['write_file', 'replace'].includes(tool.toolName);
}

/**
 * How Gemini CLI 0.61 declares write_file and replace in plan mode: the same tool, its description saying it
 * writes plans only and where, so the model does not try the project's files first.
 */
export function forPlansOnly<D extends { description?: string }>(declaration: D, plansFolder: string): D {
  return {
    ...declaration,
    description: `ONLY FOR PLANS: ${declaration.description ?? ''}. You are currently in Plan Mode and may ONLY use this tool to write or update plans (.md files) in the plans directory: ${plansFolder}/. You cannot use this tool to modify source code directly.`,
  };
}

/**
 * In plan mode a relative path given to write_file or replace names a plan, as in Gemini CLI 0.61: taken
 * from the project root when that lands in the plans folder, else from the plans folder (`plan.md`).
 * Anything else passes unchanged; policy still checks where the path really leads.
 */
export function planFileArgs(
  tool: Pick<PolicyTool, 'serverAlias' | 'toolName' | 'builtIn'>,
  args: Record<string, unknown>,
  root: string,
  plansFolder: string | undefined,
): Record<string, unknown> {
  const p = args.file_path;
  if (plansFolder === undefined || !isPlanWriteTool(tool) || typeof p !== 'string' || !p || isAbsolute(p)) return args;
  const fromRoot = resolve(root, p);
  return { ...args, file_path: isWithin(plansFolder, fromRoot) ? fromRoot : resolve(plansFolder, p) };
}

/**
 * True when `path` is a `.md` file strictly inside `plansDir`, by real paths: a link inside the folder that
 * leads out of it (to the project's sources) does not count, and neither does a plans folder that is
 * itself a link (it would make anywhere a plans folder).
 */
export function isPlanFile(plansDir: string, path: unknown): boolean {
  if (typeof path !== 'string' || !isAbsolute(path) || extname(path) !== '.md') return false;
  try {
    if (lstatSync(plansDir, { throwIfNoEntry: false })?.isSymbolicLink()) return false;
    const folder = realPathOf(plansDir);
    const real = realPathOf(path);
    return real !== folder && isWithin(folder, real);
  } catch {
    return false;
  }
}
