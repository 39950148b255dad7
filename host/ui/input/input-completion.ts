import type { UiRuntime } from '../backend-types.js';
import {
  applyCompletion,
  type Completion,
  completeAtPath,
  completeAtResource,
  completeAtTool,
  completeSlash,
} from './completion.js';
import { completionTable } from '../slash-commands/slash-commands.js';

const SHOWN_CANDIDATES = 12;

/**
 * Tab in the prompt: `/commands`, `@server__tool(`, `@server:resource-uri`, then `@paths`, first that
 * applies. Several candidates are listed as a hint (grayed by `gray`).
 */
export function completeInput(
  text: string,
  cursor: number,
  rt: UiRuntime | undefined,
  cwd: string,
  gray: (s: string) => string,
): { text: string; cursor: number; hint?: string } | undefined {
  const tools = rt?.registry.list().map((t) => t.exposedName) ?? [];
  const resources = (rt?.manager.states() ?? []).flatMap((s) => (s.resources ?? []).map((r) => `${s.alias}:${r.uri}`));
  const c: Completion | undefined =
    completeSlash(text, cursor, completionTable(rt)) ??
    completeAtTool(text, cursor, tools) ??
    completeAtResource(text, cursor, resources) ??
    completeAtPath(text, cursor, cwd);
  if (!c || c.candidates.length === 0) return undefined;
  const applied = applyCompletion(text, c);
  const more = c.candidates.length > SHOWN_CANDIDATES ? '  …' : '';
  const hint = c.candidates.length > 1 ? gray(c.candidates.slice(0, SHOWN_CANDIDATES).join('  ') + more) : undefined;
  return applied ? { ...applied, hint } : hint ? { text, cursor, hint } : undefined;
}
