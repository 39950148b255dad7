/** A typed slash command: `/mcp restart web` → {name:'mcp', args:['restart','web'], rest:'restart web'}. */
export interface SlashInput {
  name: string;
  args: string[];
  rest: string;
}

export function parseSlash(line: string): SlashInput | undefined {
  const m = /^\/([A-Za-z0-9_:.-]*)(?:\s+([\s\S]*))?$/.exec(line.trim());
  if (!m) return undefined;
  const rest = (m[2] ?? '').trim();
  return { name: m[1].toLowerCase(), args: rest === '' ? [] : rest.split(/\s+/), rest };
}

/**
 * Arguments for an MCP prompt typed as a slash command: `--key=value` / `--key value` pairs, or
 * positional values assigned to the declared arguments in order.
 */
export function promptArgs(rest: string, declared: { name: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  const words = rest.match(/"[^"]*"|'[^']*'|\S+/g)?.map((w) => w.replace(/^(["'])([\s\S]*)\1$/, '$2')) ?? [];
  const positional: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const kv = /^--([^=]+)=([\s\S]*)$/.exec(w);
    if (kv) out[kv[1]] = kv[2];
    else if (w.startsWith('--') && i + 1 < words.length) out[w.slice(2)] = words[++i];
    else positional.push(w);
  }
  const free = declared.filter((a) => !(a.name in out));
  if (positional.length && free.length) {
    free.forEach((a, i) => {
      if (i < positional.length) out[a.name] = i === free.length - 1 ? positional.slice(i).join(' ') : positional[i];
    });
  }
  return out;
}
