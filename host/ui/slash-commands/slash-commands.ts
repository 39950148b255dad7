import type { CommandOutput } from '../../builtin-commands/output.js';
import { builtinsFor, findBuiltin } from '../../builtin-commands/registry.js';
import { builtinView, promptCommands, type ViewEnv } from '../../core/builtin-views.js';
import { toggleSkill } from '../../skills/skill-toggle.js';
import type { UiRuntime } from '../backend-types.js';
import type { Palette } from '../text/palette.js';
import { promptArgs, type SlashInput } from './slash-parse.js';
import { renderOutput } from './render-output.js';
import { toolFor } from '../../tools/builtin-catalogue.js';
import { exposedName } from '../../tools/naming.js';
import { safeBlock, safeText } from '../../safe-text.js';

export { promptCommands };
export type { CommandOutput };

export interface SlashContext {
  runtime?: UiRuntime;
  palette: Palette;
  print(text: string): void;
  error(text: string): void;
  clear(): Promise<void>;
  exit(): void;
  /** Sends text to the model as a user message (MCP prompts end here). */
  submitPrompt(text: string, display: string): void;
  /** Runs a passive tool call (its card shows the result; nothing goes to the model). */
  runTool(name: string, args: Record<string, unknown>): Promise<void>;
  /** Re-reads the memory context (the memory server's resource). */
  readMemory(uri?: string): Promise<string | undefined>;
}

/** Completion table: the chat's built-ins with sub-commands, plus custom commands and MCP prompt commands. */
export function completionTable(runtime: UiRuntime | undefined): Record<string, string[]> {
  const table: Record<string, string[]> = {};
  for (const c of builtinsFor('chat')) table[c.name] = [...c.subs];
  if (runtime) {
    const custom = runtime.commands.commands.map((c) => c.name);
    for (const p of promptCommands(runtime.manager.states(), custom)) table[p.command] = [];
    for (const name of custom) table[name] = [];
    const restart = table.mcp ?? [];
    table.mcp = [...restart, ...runtime.manager.states().map((s) => `restart ${s.alias}`)].filter(
      (v, i, a) => a.indexOf(v) === i,
    );
  }
  return table;
}

/** The chat's view environment: the runtime, and the memory the chat keeps fresh. */
function viewEnv(ctx: SlashContext, rt: UiRuntime): ViewEnv {
  return { runtime: rt, frontEnd: 'chat', readMemory: () => ctx.readMemory() };
}

/** `/help`: the commands (the shared view), then the chat's keys. */
export async function helpText(ctx: SlashContext, rt: UiRuntime): Promise<string> {
  const p = ctx.palette;
  const out = (await builtinView('help', [], viewEnv(ctx, rt))) ?? [];
  return [
    renderOutput(out, p),
    p.bold('Input'),
    `  ${p.cyan('@path')} include a file · ${p.cyan('@server__tool({"arg": 1})')} run a tool yourself (result not sent to the model)`,
    `  ${p.cyan('Enter')} send · ${p.cyan('Alt+Enter')}, ${p.cyan('Ctrl+J')} or ${p.cyan('\\ Enter')} new line · ${p.cyan('Up/Down')} history · ${p.cyan('Tab')} complete`,
    `  ${p.cyan('Shift+Tab')} approval mode · ${p.cyan('Esc')} cancel · ${p.cyan('Ctrl+T')} thoughts · ${p.cyan('Ctrl+O')} expand/collapse tool output · ${p.cyan('F12')} debug log · ${p.cyan('PgUp/PgDn')} scroll · ${p.cyan('Ctrl+C')} twice to exit`,
  ].join('\n');
}

/** `/mcp [desc]`, `/mcp restart|refresh [NAME]`. */
async function runMcpSlash(args: string[], ctx: SlashContext, rt: NonNullable<SlashContext['runtime']>): Promise<void> {
  const p = ctx.palette;
  const [sub, name] = args;
  if (sub === 'enable' || sub === 'disable') return mcpEnable(sub === 'enable', name, ctx, rt);
  if (sub === 'restart' || sub === 'refresh' || sub === 'reload') {
    const targets = name ? [name] : rt.manager.states().map((s) => s.alias);
    for (const alias of targets) {
      if (!rt.manager.states().some((s) => s.alias === alias)) {
        ctx.error(`No MCP server named "${alias}".`);
        continue;
      }
      ctx.print(p.gray(`Restarting ${alias}…`));
      try {
        await rt.manager.restart(alias);
        const st = rt.manager.states().find((s) => s.alias === alias);
        ctx.print(
          `${safeText(alias)}: ${st?.status === 'connected' ? p.green('connected') : p.red(st?.status ?? 'unknown')}${st?.error ? ` ${p.red(safeBlock(st.error))}` : ''}`,
        );
      } catch (err) {
        ctx.error(`Restart of ${alias} failed: ${(err as Error).message}`);
      }
    }
    return;
  }
  const out = await builtinView('mcp', args, viewEnv(ctx, rt));
  if (out) ctx.print(renderOutput(out, p));
  else ctx.error('Usage: /mcp [list|desc] | restart|reload [NAME] | enable|disable NAME');
}

/**
 * `/memory add`: a passive call of the tool that plays save_memory's part (the built-in's name while the
 * registry is not there yet; the call then says what is missing).
 */
async function rememberFact(ctx: SlashContext, fact: string): Promise<void> {
  const tool = toolFor(ctx.runtime?.registry.list() ?? [], 'save_memory');
  await ctx.runTool(tool?.exposedName ?? exposedName('memory', 'save_memory'), { fact });
}

/**
 * `/skills enable NAME [--scope user]`, `/skills disable NAME`, `/skills reload`: Gemini CLI's sub-commands,
 * the same files and words as `gemini-mcp skills`; enable and disable reload the skills, so the next
 * request already has the change.
 */
function skillsCommand(input: SlashInput, ctx: SlashContext, rt: NonNullable<SlashContext['runtime']>): void {
  const [sub, name, ...rest] = input.args;
  const cwd = rt.roots[0] ?? process.cwd();
  if (sub === 'reload') {
    const skills = rt.reloadSkills();
    ctx.print(`Skills reloaded: ${skills.length} available to the model.`);
    return;
  }
  if ((sub === 'enable' || sub === 'disable') && name) {
    const scope = rest.join(' ').match(/--scope[= ](user|workspace)/)?.[1] === 'user' ? 'user' : 'workspace';
    ctx.print(safeBlock(toggleSkill(sub, name, scope, { cwd, env: process.env })));
    const skills = rt.reloadSkills();
    ctx.print(`${skills.length} skill${skills.length === 1 ? '' : 's'} now available to the model.`);
    return;
  }
  ctx.error('Usage: /skills [list] | enable NAME | disable NAME [--scope user|workspace] | reload');
}

/** `/mcp enable|disable NAME`: for this session only (Gemini CLI's sub-commands); the settings stay as they are. */
function mcpEnable(
  enable: boolean,
  name: string | undefined,
  ctx: SlashContext,
  rt: NonNullable<SlashContext['runtime']>,
) {
  const p = ctx.palette;
  if (!name) return ctx.error(`Usage: /mcp ${enable ? 'enable' : 'disable'} NAME`);
  if (!rt.manager.states().some((s) => s.alias === name)) return ctx.error(`No MCP server named "${name}".`);
  rt.registry.setServerEnabled(name, enable);
  const count = rt.registry.list().filter((t) => t.serverAlias === name).length;
  ctx.print(
    enable
      ? `MCP server ${p.cyan(name)} enabled for this session: ${count} tool${count === 1 ? '' : 's'} back.`
      : `MCP server ${p.cyan(name)} disabled for this session: its tools are not offered. /mcp enable ${name} brings them back.`,
  );
}

/** `/memory add|refresh`: the chat's actions on memory (show and list are the shared view). */
async function memoryAction(input: SlashInput, ctx: SlashContext, rt: UiRuntime): Promise<void> {
  const sub = input.args[0];
  if (sub === 'add') {
    const fact = input.rest.replace(/^add\s*/, '').trim();
    if (!fact) return ctx.error('Usage: /memory add <text to remember>');
    return rememberFact(ctx, fact);
  }
  if (sub === 'refresh') {
    const text = await ctx.readMemory();
    const all = [text?.trim(), rt.extensionContext.trim()].filter(Boolean).join('\n\n');
    if (text === undefined && !all) return ctx.error('No memory server is connected.');
    return ctx.print(`Memory refreshed: ${all.length} characters of context.`);
  }
  ctx.error('Usage: /memory show | list | refresh | add <text>');
}

/** A built-in's action (what is not a view): the chat's own sub-commands. */
async function runAction(input: SlashInput, ctx: SlashContext, rt: UiRuntime): Promise<void> {
  switch (input.name) {
    case 'mcp':
      return runMcpSlash(input.args, ctx, rt);
    case 'memory':
      return memoryAction(input, ctx, rt);
    case 'skills':
      return skillsCommand(input, ctx, rt);
    default:
      ctx.error(`/${input.name} ${input.args[0] ?? ''}: unknown sub-command.`);
  }
}

/** Runs a slash command; false when the name is unknown. */
export async function runSlash(input: SlashInput, ctx: SlashContext): Promise<boolean> {
  const rt = ctx.runtime;
  const builtin = findBuiltin(input.name);
  if (builtin?.name === 'quit') return ctx.exit(), true;
  if (builtin?.name === 'clear') return await ctx.clear(), true;
  if (builtin) {
    if (!rt) return ctx.error('The host runtime is still starting.'), true;
    if (builtin.name === 'help') return ctx.print(await helpText(ctx, rt)), true;
    const out = await builtinView(builtin.name, input.args, viewEnv(ctx, rt));
    if (out) ctx.print(renderOutput(out, ctx.palette));
    else await runAction(input, ctx, rt);
    return true;
  }
  if (!rt) return false;
  const custom = rt.commands.commands.map((c) => c.name);
  const pc = promptCommands(rt.manager.states(), custom).find((c) => c.command === input.name);
  if (!pc) return false;
  const args = promptArgs(input.rest, pc.prompt.arguments ?? []);
  const missing = (pc.prompt.arguments ?? []).filter((a) => a.required && !(a.name in args)).map((a) => a.name);
  if (missing.length)
    return ctx.error(`/${pc.command} needs: ${missing.join(', ')} (e.g. --${missing[0]}=value)`), true;
  try {
    const res = await rt.manager.getPrompt(pc.alias, pc.prompt.name, args);
    const text = res.messages
      .map((m) => contentText(m.content))
      .filter(Boolean)
      .join('\n\n');
    ctx.submitPrompt(text, `/${pc.command}${input.rest ? ' ' + input.rest : ''}`);
  } catch (err) {
    ctx.error(`Prompt ${pc.prompt.name} failed: ${(err as Error).message}`);
  }
  return true;
}

function contentText(c: unknown): string {
  if (Array.isArray(c)) return c.map(contentText).join('\n');
  const o = c as { type?: string; text?: string; resource?: { text?: string; uri?: string } };
  if (o?.type === 'text') return o.text ?? '';
  if (o?.type === 'resource') return o.resource?.text ?? o.resource?.uri ?? '';
  return '';
}
