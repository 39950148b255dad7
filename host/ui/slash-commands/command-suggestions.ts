import { closestNames } from '../../scheduler/texts.js';
import { safeText } from '../../safe-text.js';
import type { UiRuntime } from '../backend-types.js';
import { builtinsFor, GEMINI_CLI_ONLY } from '../../builtin-commands/registry.js';
import { completionTable, promptCommands } from './slash-commands.js';

/** `Unknown command /expotr. Did you mean /export-session?`: the closest names, as `/model` suggests models. */
export function unknownCommandText(name: string, known: string[]): string {
  const instead = Object.hasOwn(GEMINI_CLI_ONLY, name.toLowerCase()) ? GEMINI_CLI_ONLY[name.toLowerCase()] : undefined;
  if (instead) return `/${name.toLowerCase()} is Gemini CLI's: ${instead}.`;
  // A prefix of a command is the likeliest meaning (`/export` for `/export-session`), then the nearest spellings.
  const prefixed = known.filter((k) => k.startsWith(name) && k !== name);
  const near = prefixed.length ? prefixed.slice(0, 3) : closestNames(name, known, 3);
  const hint = near.length ? ` Did you mean ${near.map((n) => `/${n}`).join(', ')}?` : '';
  return `Unknown command /${safeText(name)}.${hint} Type /help for the list.`;
}

export interface Suggestion {
  /** What Tab inserts: `/memory`. */
  value: string;
  help: string;
}

/**
 * The live list while a command name is typed (`/me` → `/memory`, `/mcp`, …), each with what it does:
 * built-ins, custom commands and MCP prompts, as Gemini CLI lists them under the input.
 */
export function slashSuggestions(text: string, runtime: UiRuntime | undefined): Suggestion[] {
  const m = /^\/(\S*)$/.exec(text);
  if (!m) return [];
  const help = new Map<string, string>(builtinsFor('chat').map((c) => [c.name, c.help]));
  const custom = runtime?.commands.commands ?? [];
  for (const c of custom) help.set(c.name, c.description || 'custom command');
  for (const pc of runtime
    ? promptCommands(
        runtime.manager.states(),
        custom.map((c) => c.name),
      )
    : [])
    help.set(pc.command, pc.prompt.description || 'MCP prompt');
  return Object.keys(completionTable(runtime))
    .filter((n) => n.startsWith(m[1]!) && n !== m[1])
    .sort()
    .map((n) => ({ value: `/${n}`, help: help.get(n) ?? '' }));
}
