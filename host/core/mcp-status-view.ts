import type { Block, Tone } from '../builtin-commands/output.js';
import type { ServerState } from '../mcp/types.js';
import { safeBlock, safeText } from '../safe-text.js';

/** The first line of a description, cut at 100 characters. */
export function firstLine(s: string): string {
  const l = s.trim().split('\n')[0] ?? '';
  return l.length > 100 ? `${l.slice(0, 99)}…` : l;
}

const ICONS: Record<string, string> = { connected: '●', connecting: '◌', idle: '○' };

function tone(s: ServerState): Tone {
  if (s.status === 'connected') return 'ok';
  return s.status === 'failed' || s.status === 'disconnected' ? 'bad' : 'busy';
}

function counts(s: ServerState): string {
  const tools = `${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`;
  return s.prompts.length ? `${tools}, ${s.prompts.length} prompt${s.prompts.length === 1 ? '' : 's'}` : tools;
}

/** One server: its state line, its failure (the error, then stderr lines the error does not quote), its tools. */
function serverBlocks(s: ServerState, withDescriptions: boolean): Block[] {
  const listed = s.status === 'connected' || s.status === 'idle';
  const where = s.config?.builtIn ? '(built-in)' : (s.config?.url ?? '');
  const lazy = s.status === 'idle' ? ' (not started: tools from the cache; starts on first use)' : '';
  const out: Block[] = [
    {
      kind: 'item',
      icon: ICONS[s.status] ?? '✗',
      name: safeText(s.alias),
      note: `${where ? `${safeText(where)} ` : ''}${s.status}`,
      detail: listed ? `${counts(s)}${lazy}` : undefined,
      tone: tone(s),
    },
  ];
  // A server's error and stderr are its own words: made safe before anyone colours them.
  const error = s.error ? safeBlock(s.error) : undefined;
  for (const l of error?.split('\n') ?? []) out.push({ kind: 'item', name: l, tone: 'bad', indent: 1 });
  const tail =
    s.status === 'failed'
      ? safeBlock(s.stderrTail ?? '')
          .trim()
          .split('\n')
          .slice(-5)
      : [];
  for (const l of tail)
    if (l.trim() && !error?.includes(l.trim())) out.push({ kind: 'item', name: l, tone: 'off', indent: 1 });
  for (const t of s.tools) {
    const detail = withDescriptions && t.description ? safeText(firstLine(t.description)) : undefined;
    out.push({ kind: 'item', name: safeText(t.name), detail, indent: 1 });
  }
  for (const pr of s.prompts) {
    const detail = pr.description ? safeText(firstLine(pr.description)) : undefined;
    out.push({ kind: 'item', name: `/${safeText(pr.name)}`, detail, indent: 1, tone: 'busy' });
  }
  return out;
}

/** `/mcp` and `/mcp desc`: every server, its state and what it offers; one turned off says how to turn it on. */
export function mcpStatusView(
  states: ServerState[],
  withDescriptions: boolean,
  isEnabled: (alias: string) => boolean = () => true,
): Block[] {
  if (states.length === 0) return [{ kind: 'hint', text: 'No MCP servers configured.' }];
  const out: Block[] = [{ kind: 'heading', text: 'MCP servers' }];
  for (const s of states) {
    if (isEnabled(s.alias)) out.push(...serverBlocks(s, withDescriptions));
    else
      out.push({
        kind: 'item',
        icon: '○',
        name: safeText(s.alias),
        note: `disabled for this session (/mcp enable ${safeText(s.alias)})`,
        tone: 'off',
      });
  }
  return out;
}
