import type * as acp from '@agentclientprotocol/sdk';
import type { Session } from '../core/session.js';

/**
 * Slash commands usable from the editor: the chat's built-ins that make sense without a terminal (their
 * answer is text), and the servers' MCP prompts under the names the prompt expansion accepts.
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

export function availableCommands(session: Session): acp.AvailableCommand[] {
  const states = session.runtime.manager.states().filter((s) => s.status === 'connected');
  const counts = new Map<string, number>();
  for (const st of states) for (const p of st.prompts) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  const out: acp.AvailableCommand[] = Object.entries(BUILT_INS).map(([name, b]) => ({
    name,
    description: b.description,
  }));
  for (const st of states) {
    for (const p of st.prompts) {
      const hint = (p.arguments ?? []).map((a) => `${a.name}=…`).join(' ');
      // The prompt's own name, or server__name when two servers share it or a built-in has it.
      const shared = counts.get(p.name)! > 1 || Object.hasOwn(BUILT_INS, p.name);
      out.push({
        name: shared ? `${st.alias}__${p.name}` : p.name,
        description: p.description ?? p.title ?? `MCP prompt from ${st.alias}`,
        ...(hint ? { input: { hint } } : {}),
      });
    }
  }
  return out;
}
