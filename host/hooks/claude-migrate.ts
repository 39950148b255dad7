import { CLAUDE_EVENTS } from './hook-config.js';

/**
 * Claude Code's `hooks` (from .claude/settings.json) in Gemini CLI's format, as `gemini hooks migrate
 * --from-claude` writes them: events renamed, the tool names in matchers renamed, `$CLAUDE_PROJECT_DIR`
 * in commands becomes `$GEMINI_PROJECT_DIR`, only `type`, `command` and `timeout` of each hook kept.
 * Where Gemini CLI 0.61 loses something we do not: timeouts are converted from Claude's seconds to
 * milliseconds (0.61 copies 30 s as 30 ms), two Claude events that fire on the same Gemini event (Stop and
 * SubagentStop) keep both their hooks, and an event Gemini CLI does not have is reported, not written.
 */

/** Gemini CLI 0.61's table, name for name: matchers that name these tools keep working after the move. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  Edit: 'replace',
  Bash: 'run_shell_command',
  Read: 'read_file',
  Write: 'write_file',
  Glob: 'glob',
  Grep: 'grep',
  LS: 'ls',
};

export interface MigratedHooks {
  /** Gemini CLI event → its hook definitions. */
  hooks: Record<string, object[]>;
  /** Claude events with no Gemini CLI event, left out. */
  skipped: string[];
}

function matcherOf(matcher: string): string {
  let out = matcher;
  for (const [claude, gemini] of Object.entries(TOOL_NAMES))
    out = out.replace(new RegExp(`\\b${claude}\\b`, 'g'), gemini);
  return out;
}

function hookOf(raw: unknown): object {
  if (!raw || typeof raw !== 'object') return {};
  const h = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof h.command === 'string') out.command = h.command.replace(/\$CLAUDE_PROJECT_DIR/g, '$GEMINI_PROJECT_DIR');
  if (h.type === 'command') out.type = 'command';
  if (typeof h.timeout === 'number') out.timeout = h.timeout * 1000;
  return out;
}

function definitionOf(raw: unknown): object | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const d = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof d.matcher === 'string') out.matcher = matcherOf(d.matcher);
  if ('sequential' in d) out.sequential = d.sequential;
  if (Array.isArray(d.hooks)) out.hooks = d.hooks.map(hookOf);
  return out;
}

export function migrateClaudeHooks(claudeSettings: Record<string, unknown>): MigratedHooks {
  const hooks: Record<string, object[]> = {};
  const skipped: string[] = [];
  const section = claudeSettings.hooks;
  if (!section || typeof section !== 'object' || Array.isArray(section)) return { hooks, skipped };
  for (const [event, defs] of Object.entries(section)) {
    if (!Array.isArray(defs)) continue;
    const gemini = Object.hasOwn(CLAUDE_EVENTS, event) ? CLAUDE_EVENTS[event] : undefined;
    if (!gemini) {
      skipped.push(event);
      continue;
    }
    const migrated = defs.map(definitionOf).filter((d): d is object => d !== undefined);
    hooks[gemini] = [...(hooks[gemini] ?? []), ...migrated];
  }
  return { hooks, skipped };
}
