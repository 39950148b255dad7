import type * as acp from '@agentclientprotocol/sdk';
import { BUILTIN_COMMAND_NAMES } from '../custom-commands/builtin-names.js';
import { type CustomCommand, loadCommandFiles } from '../custom-commands/custom-commands.js';
import { geminiHome } from '../config/paths.js';
import type { Session } from '../core/session.js';
import { commandDirs } from '../extensions/contributions.js';

/**
 * Slash commands usable from the editor: the chat's built-ins that make sense without a terminal (their
 * answer is text), the custom commands (.toml, Claude Code .md) under the names the chat shows, and the
 * servers' MCP prompts under the names the prompt expansion accepts.
 */
interface BuiltIn {
  description: string;
  run(session: Session, signal: AbortSignal): Promise<string>;
}

const BUILT_INS: Record<string, BuiltIn> = {
  compress: {
    description: 'Summarise the conversation now to free context',
    run: async (s, signal) => {
      const info = await s.client.compress(signal, true);
      return info.status === 'compressed'
        ? `Chat history compressed: ${info.originalTokenCount} → ${info.newTokenCount} tokens.`
        : `Chat history not compressed (${info.status}${info.reason ? `: ${info.reason}` : ''}).`;
    },
  },
  mcp: {
    description: 'MCP servers of this session and their status',
    run: async (s) =>
      s.runtime.manager
        .states()
        .map((st) => {
          const what = st.status === 'failed' ? `failed: ${st.error ?? 'unknown error'}` : st.status;
          return `- ${st.alias}: ${what}, ${st.tools.length} tools, ${st.prompts.length} prompts`;
        })
        .join('\n'),
  },
  tools: {
    description: 'The tools the model can call',
    run: async (s) =>
      s.runtime.registry
        .list()
        .map((t) => `- ${t.exposedName}: ${t.description.split('\n')[0]}`)
        .join('\n'),
  },
};

/** The built-in a prompt runs, when it is exactly `/name` of one. */
export function builtInCommand(text: string): BuiltIn | undefined {
  const m = /^\/([a-z]+)\s*$/.exec(text.trim());
  return m && Object.hasOwn(BUILT_INS, m[1]!) ? BUILT_INS[m[1]!] : undefined;
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
  const taken = new Set([...Object.keys(BUILT_INS), ...custom.map((c) => c.name)]);
  const counts = new Map<string, number>();
  for (const st of states) for (const p of st.prompts) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  const out: acp.AvailableCommand[] = Object.entries(BUILT_INS).map(([name, b]) => ({
    name,
    description: b.description,
  }));
  // A custom command wins over an MCP prompt of its name, as in the chat (it is matched first).
  out.push(...[...custom].sort((a, b) => a.name.localeCompare(b.name)).map(customEntry));
  for (const st of states) {
    for (const p of st.prompts) {
      const hint = (p.arguments ?? []).map((a) => `${a.name}=…`).join(' ');
      // The prompt's own name, or server__name when two servers share it or a command has it.
      const shared = counts.get(p.name)! > 1 || taken.has(p.name);
      out.push({
        name: shared ? `${st.alias}__${p.name}` : p.name,
        description: p.description ?? p.title ?? `MCP prompt from ${st.alias}`,
        ...(hint ? { input: { hint } } : {}),
      });
    }
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
