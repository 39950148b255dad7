import type { Part } from '@google/genai';
import { FatalInputError } from '../errors.js';
import type { HostRuntime } from '../core/runtime.js';
import type { ToolCall } from '../scheduler/types.js';
import { expandTypedCommand } from '../commands/run-custom-command.js';
import { formatExtensions, formatSkills } from '../extensions/listing.js';
import { BUILTIN_COMMAND_NAMES } from '../commands/builtin-names.js';
import { safeBlock } from '../safe-text.js';

/**
 * `-p "/name args"`: a custom command expands exactly as in the chat and its text goes to the model; a
 * built-in that only shows something (help, tools, mcp, extensions, skills, memory show) prints it; a
 * built-in that needs the screen is an input error. Anything else (an MCP prompt, an unknown name)
 * is left to the caller.
 */
export type HeadlessSlash = { kind: 'parts'; parts: Part[] } | { kind: 'printed'; text: string };

export interface HeadlessSlashContext {
  runtime: HostRuntime;
  signal: AbortSignal;
  promptId: string;
  warn(message: string): void;
  onCall(call: ToolCall): void;
}

export async function runHeadlessSlash(text: string, ctx: HeadlessSlashContext): Promise<HeadlessSlash | undefined> {
  const rt = ctx.runtime;
  const custom = await expandTypedCommand(rt, rt.commands.commands, text, {
    signal: ctx.signal,
    promptId: ctx.promptId,
    warn: ctx.warn,
    onCall: ctx.onCall,
  });
  if (custom?.ok) return { kind: 'parts', parts: custom.parts };
  if (custom) throw new FatalInputError(custom.message);
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const name = m[1]!.toLowerCase();
  const args = (m[2] ?? '').trim();
  switch (name) {
    case 'help':
    case '?':
      return { kind: 'printed', text: headlessHelp(rt) };
    case 'tools':
      return {
        kind: 'printed',
        text: safeBlock(
          `${rt.registry
            .list()
            .map((t) => t.exposedName)
            .join('\n')}\n`,
        ),
      };
    case 'mcp':
      return {
        kind: 'printed',
        text: safeBlock(
          `${rt.manager
            .states()
            .map((s) => `${s.alias}: ${s.status}${s.config.extension ? ` (from extension ${s.config.extension})` : ''}`)
            .join('\n')}\n`,
        ),
      };
    case 'extensions':
      return { kind: 'printed', text: formatExtensions(rt.extensions) };
    case 'skills':
      return { kind: 'printed', text: formatSkills(rt.skills) };
    case 'memory':
      if (args === '' || args === 'show') {
        const { MemoryContext } = await import('../core/memory-context.js');
        const mem = new MemoryContext(rt.manager);
        try {
          const t = (await mem.get()).trim();
          return { kind: 'printed', text: t ? `${t}\n` : 'Memory is empty.\n' };
        } finally {
          mem.dispose();
        }
      }
      break;
    default:
      break;
  }
  // Every other built-in needs the chat's screen or a session in progress (one reserved list, so a new chat
  // command is refused here rather than sent to the model as a prompt).
  if (BUILTIN_COMMAND_NAMES.includes(name))
    throw new FatalInputError(`/${name}${args ? ` ${args}` : ''} is only available in the interactive chat.`);
  return undefined;
}

function headlessHelp(rt: HostRuntime): string {
  const lines = ['Commands in headless mode: /help, /tools, /mcp, /extensions, /skills, /memory show'];
  if (rt.commands.commands.length) {
    lines.push('Custom commands:');
    for (const c of [...rt.commands.commands].sort((a, b) => a.name.localeCompare(b.name)))
      lines.push(`  /${c.name}  ${c.description}`);
  }
  return `${lines.join('\n')}\n`;
}
