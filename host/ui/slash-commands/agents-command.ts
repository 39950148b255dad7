import type { AgentDefinition } from '../../agents/agent-definition.js';
import type { AgentSet } from '../../agents/agent-set.js';
import { safeText } from '../../safe-text.js';
import type { Palette } from '../text/palette.js';
import type { ChatCommand } from './command-context.js';

/**
 * `/agents` (Gemini CLI's): `list` (the default) shows every subagent with where it comes from, the
 * project's awaiting acknowledgement and the ones settings turned off; `reload` reads the folders again;
 * `acknowledge` enables the project's new agents after a yes (0.61 asks that in a dialog at start);
 * `enable` / `disable NAME` write Gemini CLI's `agents.overrides.<name>.enabled`.
 */
export const AGENTS_USAGE = 'Usage: /agents [list] | reload | acknowledge | enable NAME | disable NAME';

export const agentsCommand: ChatCommand = async (input, ctx) => {
  const rt = ctx.runtime;
  if (!rt) return ctx.error('The host runtime is still starting.');
  const sub = input.args[0] ?? 'list';
  if (sub === 'list') return ctx.print(formatAgents(rt.agents, ctx.palette));
  if (sub === 'reload' || sub === 'refresh') {
    const set = rt.reloadAgents();
    return ctx.print(
      `Agents reloaded: ${set.agents.length} available to the model.\n\nRun /agents list to see all available agents.`,
    );
  }
  if (sub === 'acknowledge') {
    const pending = rt.agents.unacknowledged;
    if (!pending.length) return ctx.print('No project agents are awaiting acknowledgement.');
    const names = pending.map((a) => safeText(a.name)).join(', ');
    const yes = await ctx.confirm?.(`Acknowledge and enable the project's agents ${names}?`);
    if (!yes) return ctx.print('Not enabled; /agents acknowledge asks again.');
    const set = rt.acknowledgeAgents();
    return ctx.print(`Enabled ${names}: ${set.agents.length} agents available to the model.`);
  }
  if (sub === 'enable' || sub === 'disable') {
    const name = input.args[1];
    if (!name) return ctx.error(`Usage: /agents ${sub} <agent-name>`);
    const r = rt.toggleAgent(sub, name);
    return r.ok ? ctx.print(safeText(r.text)) : ctx.error(safeText(r.text));
  }
  ctx.error(AGENTS_USAGE);
};

function where(a: AgentDefinition): string {
  return a.file ? `${a.source}: ${a.file}` : a.source;
}

function line(a: AgentDefinition, p: Palette): string {
  const name = a.displayName && a.displayName !== a.name ? `${a.displayName} (${a.name})` : a.name;
  const description = a.description.replace(/\s+/g, ' ').trim();
  const short = description.length > 160 ? `${description.slice(0, 157)}...` : description;
  return `  - ${p.bold(safeText(name))} ${p.dim(`[${safeText(where(a))}]`)}\n    ${safeText(short)}`;
}

export function formatAgents(set: AgentSet, p: Palette): string {
  const out: string[] = [];
  out.push(
    set.agents.length
      ? `${p.bold('Local Agents')}\n\n${set.agents.map((a) => line(a, p)).join('\n')}`
      : 'No agents available.',
  );
  if (set.unacknowledged.length)
    out.push(
      `${p.bold('New project agents')} (not offered to the model until you run /agents acknowledge)\n\n${set.unacknowledged.map((a) => line(a, p)).join('\n')}`,
    );
  if (set.disabled.length)
    out.push(
      `${p.bold('Disabled in settings')} (agents.overrides)\n\n${set.disabled.map((a) => line(a, p)).join('\n')}`,
    );
  return out.join('\n\n');
}
