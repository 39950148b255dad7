import { FatalInputError } from '../errors.js';
import type { HostRuntime } from '../core/runtime.js';
import { formatExtensions, formatSkills } from '../extensions/listing.js';
import { BUILTIN_COMMAND_NAMES } from '../custom-commands/builtin-names.js';
import { safeBlock } from '../safe-text.js';

/**
 * `-p "/name args"` of a built-in (custom commands are expanded first, by the shared prompt preparation):
 * a built-in that only shows something (help, tools, mcp, extensions, skills, memory show) returns its
 * text; a built-in that needs the screen is an input error. Anything else (an MCP prompt, an unknown
 * name) is left to the caller.
 */
export interface HeadlessSlashContext {
  runtime: HostRuntime;
}

export async function runHeadlessSlash(text: string, ctx: HeadlessSlashContext): Promise<string | undefined> {
  const rt = ctx.runtime;
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const name = m[1]!.toLowerCase();
  const args = (m[2] ?? '').trim();
  switch (name) {
    case 'help':
    case '?':
      return headlessHelp(rt);
    case 'tools':
      return safeBlock(
        `${rt.registry
          .list()
          .map((t) => t.exposedName)
          .join('\n')}\n`,
      );
    case 'mcp':
      return safeBlock(
        `${rt.manager
          .states()
          .map((s) => `${s.alias}: ${s.status}${s.config.extension ? ` (from extension ${s.config.extension})` : ''}`)
          .join('\n')}\n`,
      );
    case 'extensions':
      return formatExtensions(rt.extensions);
    case 'skills':
      return formatSkills(rt.skills);
    case 'memory':
      if (args === '' || args === 'show') return memoryShow(rt);
      if (args === 'list') return memoryList(rt);
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

/** `/memory show`: the memory server's context, then the enabled extensions' context files. */
async function memoryShow(rt: HostRuntime): Promise<string> {
  const { MemoryContext } = await import('../core/memory-context.js');
  const mem = new MemoryContext(rt.manager);
  try {
    const t = [(await mem.get()).trim(), rt.extensionContext.trim()].filter(Boolean).join('\n\n');
    return t ? `${t}\n` : 'Memory is empty.\n';
  } finally {
    mem.dispose();
  }
}

/** `/memory list`: every context file in use, one a line, with where it comes from. */
async function memoryList(rt: HostRuntime): Promise<string> {
  const { contextFilesInUse } = await import('../core/context-files.js');
  await rt.manager.whenReady();
  const files = await contextFilesInUse(rt.manager, rt.extensions);
  if (!files) throw new FatalInputError('/memory list: no memory server is connected.');
  if (!files.length) return 'No context files are in use.\n';
  return safeBlock(`${files.map((f) => `${f.path}${f.scope ? ` (${f.scope})` : ''}`).join('\n')}\n`);
}

function headlessHelp(rt: HostRuntime): string {
  const lines = ['Commands in headless mode: /help, /tools, /mcp, /extensions, /skills, /memory show, /memory list'];
  if (rt.commands.commands.length) {
    lines.push('Custom commands:');
    for (const c of [...rt.commands.commands].sort((a, b) => a.name.localeCompare(b.name)))
      lines.push(`  /${c.name}  ${c.description}`);
  }
  return `${lines.join('\n')}\n`;
}
