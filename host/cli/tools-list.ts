import { EXIT } from '../errors.js';
import { resolvePassiveTool } from '../passive-call.js';
import type { HostRuntime } from '../core/runtime.js';
import type { RegisteredTool } from '../tools/registry.js';
import { safeBlock, safeText } from '../safe-text.js';

type Out = NodeJS.WritableStream;

/** Words wrapped to `width` columns, every row indented by `indent` spaces. */
export function wrapWords(text: string, width: number, indent: number): string[] {
  const rows: string[] = [];
  const room = Math.max(20, width - indent);
  for (const para of text.split('\n')) {
    let row = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      if (row && row.length + 1 + word.length > room) {
        rows.push(row);
        row = word;
      } else row = row ? `${row} ${word}` : word;
    }
    rows.push(row);
  }
  while (rows.length > 1 && rows[rows.length - 1] === '') rows.pop();
  return rows.map((r) => (r ? ' '.repeat(indent) + r : ''));
}

function toolJson(t: RegisteredTool): Record<string, unknown> {
  return {
    name: t.exposedName,
    server: t.serverAlias,
    tool: t.toolName,
    description: t.description,
    readOnly: t.readOnly,
    confirmsInCall: t.confirmsInCall,
    trusted: t.trusted,
    builtIn: t.builtIn,
    inputSchema: t.inputSchema,
  };
}

function columns(out: Out): number {
  return (out as { columns?: number }).columns ?? 100;
}

function reportServers(rt: HostRuntime, err: Out): void {
  for (const s of rt.manager.states()) {
    if (s.status === 'failed' || s.status === 'disconnected')
      err.write(`${safeText(s.alias)}: ${s.status}${s.error ? `: ${safeBlock(s.error)}` : ''}\n`);
  }
  for (const w of rt.registry.warnings()) err.write(`warning: ${safeText(w)}\n`);
}

/** `tools list`: every server with its tools and their whole descriptions, wrapped. */
export function listTools(rt: HostRuntime, json: boolean, out: Out, err: Out): number {
  const tools = rt.registry.list() as RegisteredTool[];
  if (json) {
    const servers = rt.manager.states().map((s) => ({ alias: s.alias, status: s.status, error: s.error }));
    out.write(`${JSON.stringify({ servers, tools: tools.map(toolJson) }, null, 2)}\n`);
  } else {
    const width = columns(out);
    for (const s of rt.manager.states()) {
      const mine = tools.filter((t) => t.serverAlias === s.alias);
      out.write(`${safeText(s.alias)} (${s.status}, ${mine.length} tool${mine.length === 1 ? '' : 's'})\n`);
      for (const t of mine) {
        out.write(`  ${safeText(t.exposedName)}\n`);
        const rows = wrapWords(safeBlock(t.description || '(no description)'), width, 6);
        out.write(`${rows.join('\n')}\n`);
      }
    }
  }
  reportServers(rt, err);
  return EXIT.ok;
}

/** `tools describe NAME`: the description, how the host treats the tool, and its input schema. */
export function describeTool(rt: HostRuntime, name: string, json: boolean, out: Out, err: Out): number {
  const found = resolvePassiveTool(name, rt.registry);
  if (!found.ok) {
    err.write(`${safeText(found.error)}\n`);
    reportServers(rt, err);
    return EXIT.error;
  }
  const t = found.value as unknown as RegisteredTool;
  if (json) {
    out.write(`${JSON.stringify(toolJson(t), null, 2)}\n`);
    return EXIT.ok;
  }
  const traits = [
    t.readOnly ? 'read-only' : 'may change things',
    t.builtIn ? 'built-in' : t.trusted ? 'trusted server' : 'untrusted server',
  ];
  if (t.confirmsInCall) traits.push('asks for confirmation itself');
  out.write(
    `${safeText(t.exposedName)}  (server ${safeText(t.serverAlias)}, tool ${safeText(t.toolName)}; ${traits.join(', ')})\n\n`,
  );
  out.write(`${wrapWords(safeBlock(t.description || '(no description)'), columns(out), 2).join('\n')}\n\n`);
  out.write(`Input schema:\n${JSON.stringify(t.inputSchema, null, 2)}\n`);
  return EXIT.ok;
}
