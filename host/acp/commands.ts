import type * as acp from '@agentclientprotocol/sdk';
import { plainText } from '../builtin-commands/output.js';
import { BUILTIN_COMMAND_NAMES, builtinsFor, findBuiltin, notHere } from '../builtin-commands/registry.js';
import { builtinView, promptCommands } from '../core/builtin-views.js';
import { type CustomCommand, loadCommandFiles } from '../custom-commands/custom-commands.js';
import { geminiHome } from '../config/paths.js';
import type { Session } from '../core/session.js';
import { commandDirs } from '../extensions/contributions.js';

/**
 * Slash commands usable from the editor: the built-ins the registry marks for editors (their views as
 * text, and `/compress`), the custom commands (.toml, Claude Code .md) under the names the chat shows, and
 * the servers' MCP prompts under the names the prompt expansion accepts.
 */
interface BuiltIn {
  run(session: Session, signal: AbortSignal): Promise<string>;
}

/** `/compress`: the one editor built-in that is an action rather than a view. */
async function compress(s: Session, signal: AbortSignal): Promise<string> {
  const info = await s.client.compress(signal, true);
  return info.status === 'compressed'
    ? `Chat history compressed: ${info.originalTokenCount} → ${info.newTokenCount} tokens.`
    : `Chat history not compressed (${info.status}${info.reason ? `: ${info.reason}` : ''}).`;
}

/** The built-in a prompt runs, when it starts with `/name` of one the editor may run. */
export function builtInCommand(text: string): BuiltIn | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  const builtin = m ? findBuiltin(m[1]!) : undefined;
  if (!m || !builtin) return undefined;
  const typed = m[0]!.trim();
  if (!builtin.frontEnds.includes('acp')) return { run: async () => notHere(builtin, typed) };
  if (builtin.name === 'compress') return { run: compress };
  const args = (m[2] ?? '').trim().split(/\s+/).filter(Boolean);
  return {
    run: async (session) => {
      const env = { runtime: session.runtime, frontEnd: 'acp' as const };
      const out = await builtinView(builtin.name, args, env);
      return out ? plainText(out).trimEnd() : notHere({ ...builtin, frontEnds: ['chat'] }, typed);
    },
  };
}

/** Whether the command's prompt takes the typed arguments in place (else they are appended). */
function takesArguments(c: CustomCommand): boolean {
  return c.format === 'markdown' ? /\$(ARGUMENTS|[1-9])\b/.test(c.prompt) : c.prompt.includes('{{args}}');
}

function customEntry(c: CustomCommand): acp.AvailableCommand {
  return {
    name: c.name,
    description: c.description,
    ...(takesArguments(c) ? { input: { hint: 'arguments' } } : {}),
  };
}

export function availableCommands(session: Session): acp.AvailableCommand[] {
  const states = session.runtime.manager.states().filter((s) => s.status === 'connected');
  const custom = session.runtime.commands.commands;
  const out: acp.AvailableCommand[] = builtinsFor('acp').map((c) => ({
    name: c.name,
    description: c.help,
    ...(c.subs.length ? { input: { hint: c.subs.join(' | ') } } : {}),
  }));
  // A custom command wins over an MCP prompt of its name, as in the chat (it is matched first).
  out.push(...[...custom].sort((a, b) => a.name.localeCompare(b.name)).map(customEntry));
  for (const pc of promptCommands(
    states,
    custom.map((c) => c.name),
  )) {
    const hint = (pc.prompt.arguments ?? []).map((a) => `${a.name}=…`).join(' ');
    out.push({
      name: pc.command,
      description: pc.prompt.description ?? pc.prompt.title ?? `MCP prompt from ${pc.alias}`,
      ...(hint ? { input: { hint } } : {}),
    });
  }
  return out;
}

/**
 * Reads the command folders again (the session's own folders, as the runtime first read them) and takes
 * the new list when a command was added, removed or changed: an editor session lives long and the user
 * writes commands meanwhile. True when the list changed, so the editor is told.
 */
export function rescanCustomCommands(session: Session, cwd: string): boolean {
  const rt = session.runtime;
  const { settings } = rt;
  const fresh = loadCommandFiles(
    commandDirs({
      cwd,
      home: geminiHome(settings.env),
      trusted: settings.trust.trusted,
      extensions: settings.extensions.extensions,
    }),
    BUILTIN_COMMAND_NAMES,
  );
  if (JSON.stringify(fresh.commands) === JSON.stringify(rt.commands.commands)) return false;
  rt.commands = fresh;
  return true;
}
