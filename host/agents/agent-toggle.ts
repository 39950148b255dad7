import { existsSync } from 'node:fs';
import { editJsoncFile } from '../config/jsonc-edit.js';
import { readJsoncObject } from '../config/jsonc-file.js';
import { type ScopeFile, type ToggleResult, toggleMessage } from '../skills/skill-toggle.js';

/**
 * `/agents enable|disable NAME`, as Gemini CLI 0.61 stores it: `agents.overrides.<name>.enabled` in the
 * workspace or user settings file. Enabling sets `true` in every file that does not say so yet; disabling
 * sets `false` in one scope's file (the workspace's when there is one). Edits keep the file's comments.
 */
type Overrides = Record<string, { enabled?: unknown } | undefined>;

function overridesIn(file: string): Overrides {
  if (!existsSync(file)) return {};
  const agents = readJsoncObject(file).value.agents as { overrides?: unknown } | undefined;
  const o = agents?.overrides;
  return o && typeof o === 'object' && !Array.isArray(o) ? (o as Overrides) : {};
}

const enabledIn = (file: string, name: string) => overridesIn(file)[name]?.enabled;

/** A toggle's outcome, as a skill's is. */
export type AgentToggle = ToggleResult;

/** `files` in Gemini CLI's order: workspace first, then user. */
export function enableAgent(name: string, files: ScopeFile[]): AgentToggle {
  const modified = files.filter((f) => enabledIn(f.path, name) !== true);
  const already = files.filter((f) => !modified.includes(f));
  if (!modified.length) return { status: 'no-op', action: 'enable', name, modified, already };
  for (const f of modified) editJsoncFile(f.path, [{ path: ['agents', 'overrides', name, 'enabled'], value: true }]);
  return { status: 'success', action: 'enable', name, modified, already };
}

export function disableAgent(name: string, target: ScopeFile, other: ScopeFile | undefined): AgentToggle {
  if (enabledIn(target.path, name) === false)
    return { status: 'no-op', action: 'disable', name, modified: [], already: [target] };
  editJsoncFile(target.path, [{ path: ['agents', 'overrides', name, 'enabled'], value: false }]);
  const already = other && enabledIn(other.path, name) === false ? [other] : [];
  return { status: 'success', action: 'disable', name, modified: [target], already };
}

/** Gemini CLI 0.61's wording of the outcome, word for word. */
export function agentToggleFeedback(r: AgentToggle): string {
  return toggleMessage(r, {
    noun: 'Agent',
    enabling: 'by setting it to enabled in',
    disabling: 'by setting it to disabled in',
    scopeName: (scope) => (scope === 'workspace' ? 'project' : scope),
  });
}

/**
 * `agents.overrides` as the files say now (the session's merged settings are from its start): the merged
 * overrides, then the user file's, then the workspace file's (when it may apply) on top, name by name.
 */
export function currentOverrides(merged: Record<string, unknown>, files: ScopeFile[]): Record<string, unknown> {
  const base = ((merged.agents as { overrides?: Overrides } | undefined)?.overrides ?? {}) as Overrides;
  const out: Overrides = { ...base };
  for (const f of [...files].reverse())
    for (const [name, o] of Object.entries(overridesIn(f.path)))
      if (o && typeof o === 'object') out[name] = { ...(out[name] ?? {}), ...o };
  return { ...merged, agents: { ...((merged.agents as object | undefined) ?? {}), overrides: out } };
}
