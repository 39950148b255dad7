import { hookName } from '../../hooks/hook-config.js';
import type { UiRuntime } from '../backend-types.js';
import type { Palette } from '../text/palette.js';
import { safeBlock, safeText } from '../../safe-text.js';

/** `/hooks`: every hook in force, by event, with its matcher, format, timeout and where it comes from. */
export function formatHooks(rt: UiRuntime, p: Palette): string {
  const hooks = rt.hooks?.list() ?? [];
  if (!hooks.length)
    return p.gray('No hooks configured (settings.json "hooks"; project hooks run only in trusted folders).');
  const lines = [p.bold(`Hooks (${hooks.length})`)];
  for (const h of hooks) {
    const event = h.writtenEvent === h.event ? h.event : `${h.writtenEvent} → ${h.event}`;
    lines.push(
      // Names, matchers and files may come from an extension's hooks.json.
      `  ${p.cyan(safeText(event))}${h.matcher ? ` [${safeText(h.matcher)}]` : ''} ${safeText(hookName(h))}` +
        p.gray(
          ` — ${h.format === 'claude' ? 'Claude Code' : 'Gemini CLI'} format, ${h.timeoutMs} ms, ${safeText(h.source)}: ${safeText(h.file)}`,
        ),
    );
  }
  return lines.join('\n');
}

/** `/policies`: the policy file rules in force, highest priority first, and the files that did not load. */
export function formatPolicies(rt: UiRuntime, p: Palette): string {
  const loaded = rt.policies;
  const rules = [...(loaded?.rules ?? [])].sort((a, b) => b.priority - a.priority);
  const lines: string[] = [];
  if (!rules.length)
    lines.push(p.gray('No policy file rules (~/.gemini/policies/*.toml, .gemini/policies/*.toml, --policy).'));
  else lines.push(p.bold(`Policy rules (${rules.length}), highest priority first`));
  for (const r of rules) {
    const what = [
      r.mcpName !== undefined ? `mcpName=${r.mcpName}` : '',
      r.toolNames ? `toolName=${r.toolNames.join('|')}` : '',
      r.commandPrefixes ? `commandPrefix=${r.commandPrefixes.join('|')}` : '',
      r.argsPattern ? `args~/${r.argsPattern.source}/` : '',
      r.modes ? `modes=${r.modes.join(',')}` : '',
      r.interactive !== undefined ? `interactive=${r.interactive}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    // Rule texts and file names come from policy files (an extension's too).
    lines.push(
      `  ${p.cyan(r.decision.padEnd(8))} ${r.priority.toFixed(3)} ${safeText(what)}${p.gray(` — ${safeText(r.origin)}`)}`,
    );
  }
  for (const problem of loaded?.problems ?? []) lines.push(p.red(`  not loaded: ${safeBlock(problem)}`));
  return lines.join('\n');
}
