import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { editJsoncFile } from '../config/jsonc-edit.js';
import { readJsoncObject } from '../config/jsonc-file.js';
import { geminiHome } from '../config/paths.js';
import { userSettingsPath, workspaceSettingsPath } from '../config/settings-files.js';

/**
 * Enabling and disabling a skill, as Gemini CLI 0.61 stores it: the skill's name in `skills.disabled` of
 * the user or workspace settings file (the lists of both files add up). Enabling removes the name from
 * every file that lists it; disabling adds it to one scope's file. Edits keep the file's comments.
 */
export type SkillScope = 'user' | 'workspace';

export interface ScopeFile {
  scope: SkillScope;
  path: string;
}

export interface ToggleResult {
  status: 'success' | 'no-op';
  action: 'enable' | 'disable';
  name: string;
  modified: ScopeFile[];
  already: ScopeFile[];
}

export function disabledIn(file: string): string[] {
  if (!existsSync(file)) return [];
  const skills = readJsoncObject(file).value.skills as { disabled?: unknown } | undefined;
  const list = skills?.disabled;
  return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
}

/** `files` in Gemini CLI's order: workspace first, then user. */
export function enableSkill(name: string, files: ScopeFile[]): ToggleResult {
  const listed = files.filter((f) => disabledIn(f.path).includes(name));
  const already = files.filter((f) => !listed.includes(f));
  for (const f of listed) {
    const next = disabledIn(f.path).filter((n) => n !== name);
    editJsoncFile(f.path, [{ path: ['skills', 'disabled'], value: next }]);
  }
  return { status: listed.length ? 'success' : 'no-op', action: 'enable', name, modified: listed, already };
}

export function disableSkill(name: string, target: ScopeFile, other: ScopeFile | undefined): ToggleResult {
  const current = disabledIn(target.path);
  if (current.includes(name)) return { status: 'no-op', action: 'disable', name, modified: [], already: [target] };
  editJsoncFile(target.path, [{ path: ['skills', 'disabled'], value: [...current, name] }]);
  const already = other && disabledIn(other.path).includes(name) ? [other] : [];
  return { status: 'success', action: 'disable', name, modified: [target], already };
}

/** How a toggle's outcome is told (Gemini CLI's sentences, with its words for the thing and the change). */
export interface ToggleWording {
  noun: string;
  enabling: string;
  disabling: string;
  /** What a scope is called (agents say "project" for the workspace). */
  scopeName?: (scope: ScopeFile['scope']) => string;
}

/** Gemini CLI 0.61's wording of a toggle's outcome, word for word. */
export function toggleMessage(r: ToggleResult, w: ToggleWording): string {
  const what = `${w.noun} "${r.name}"`;
  if (r.status === 'no-op') return `${what} is already ${r.action === 'enable' ? 'enabled' : 'disabled'}.`;
  const enable = r.action === 'enable';
  const verb = enable ? 'enabled' : 'disabled';
  const preposition = enable ? w.enabling : w.disabling;
  const label = (s: ScopeFile) => `${w.scopeName?.(s.scope) ?? s.scope} (${s.path})`;
  const all = [...r.modified, ...r.already];
  if (all.length === 2) {
    if (enable) return `${what} ${verb} ${preposition} ${label(all[0]!)} and ${label(all[1]!)} settings.`;
    return `${what} is now disabled in both ${label(all[0]!)} and ${label(all[1]!)} settings.`;
  }
  return `${what} ${verb} ${preposition} ${label(all[0]!)} settings.`;
}

/** A skill toggle's outcome in 0.61's words (`/skills enable|disable`). */
export function toggleFeedback(r: ToggleResult): string {
  return toggleMessage(r, {
    noun: 'Skill',
    enabling: 'by removing it from the disabled list in',
    disabling: 'by adding it to the disabled list in',
  });
}

/** The settings files a toggle reads and edits, in Gemini CLI's order (workspace first, then user). */
export function skillScopeFiles(cwd: string, env: NodeJS.ProcessEnv): ScopeFile[] {
  const user: ScopeFile = { scope: 'user', path: userSettingsPath(geminiHome(env)) };
  const project: ScopeFile = { scope: 'workspace', path: workspaceSettingsPath(cwd) };
  // Run in the home folder, the workspace file is the user file: one file, edited once.
  return resolve(user.path) === resolve(project.path) ? [user] : [project, user];
}

/**
 * `skills enable NAME` / `skills disable NAME [--scope]`, for the CLI and the chat alike: Gemini CLI's
 * defaults (disable in the workspace file unless the scope says user) and its wording of the outcome.
 */
export function toggleSkill(
  action: 'enable' | 'disable',
  name: string,
  scope: SkillScope,
  where: { cwd: string; env: NodeJS.ProcessEnv },
): string {
  const files = skillScopeFiles(where.cwd, where.env);
  const user = files.find((f) => f.scope === 'user')!;
  const project = files.find((f) => f.scope === 'workspace');
  const result =
    action === 'enable'
      ? enableSkill(name, files)
      : disableSkill(name, scope === 'user' || !project ? user : project, scope === 'user' ? project : user);
  return toggleFeedback(result);
}
