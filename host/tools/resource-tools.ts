import type {
  CallToolResult,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { hostToolEntry } from './registered-tool.js';

/**
 * Host-provided tools over MCP resources: the model lists what every connected server offers (resources
 * and templates) and reads one by server alias and URI. They are declared only while some server
 * offers resources, under bare names like search_tools (the `@host` alias is no server's).
 */

export const LIST_RESOURCES = 'list_mcp_resources';
export const READ_RESOURCE = 'read_mcp_resource';
const MAX_LISTED = 200;

/** The manager calls these tools need. */
export interface ResourceSource {
  states(): { alias: string; status: string; resources?: Resource[] }[];
  listResources(alias: string): Promise<Resource[]>;
  listResourceTemplates(alias: string): Promise<ResourceTemplate[]>;
  readResource(alias: string, uri: string): Promise<ReadResourceResult>;
}

const LIST_SCHEMA = {
  type: 'object',
  properties: {
    server: { type: 'string', description: 'Only this MCP server (its alias); all servers when omitted.' },
  },
};
const READ_SCHEMA = {
  type: 'object',
  properties: {
    server: {
      type: 'string',
      description: 'The alias of the MCP server that offers the resource (may be left out when the URI is listed).',
    },
    uri: { type: 'string', description: 'The resource URI, as listed (or a template filled in).' },
  },
  required: ['uri'],
};

const DESCRIPTIONS: Record<string, string> = {
  [LIST_RESOURCES]:
    'Lists the resources (documents, files, data) and resource templates that connected MCP servers offer, with their URIs.',
  [READ_RESOURCE]: 'Reads one MCP resource by server alias and URI and returns its content.',
};

export function isResourceTool(name: string): boolean {
  return name === LIST_RESOURCES || name === READ_RESOURCE;
}

/** The registry entries of the two tools (the same shape as search_tools'). */
export function resourceToolEntries() {
  return [LIST_RESOURCES, READ_RESOURCE].map((name) => {
    const schema = name === LIST_RESOURCES ? LIST_SCHEMA : READ_SCHEMA;
    return hostToolEntry(name, name, DESCRIPTIONS[name]!, schema);
  });
}

const text = (t: string, isError = false): CallToolResult => ({
  content: [{ type: 'text', text: t }],
  ...(isError ? { isError } : {}),
});

export async function callResourceTool(
  src: ResourceSource,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  try {
    return name === LIST_RESOURCES
      ? await listAll(src, args.server)
      : await readOne(src, serverOf(src, args), String(args.uri ?? ''));
  } catch (err) {
    return text(`${name} failed: ${(err as Error).message}`, true);
  }
}

async function listAll(src: ResourceSource, server: unknown): Promise<CallToolResult> {
  const connected = src
    .states()
    .filter((s) => s.status === 'connected' && (server === undefined || s.alias === server));
  if (server !== undefined && connected.length === 0) return text(`No connected MCP server "${String(server)}".`, true);
  const lines: string[] = [];
  for (const s of connected) {
    const [resources, templates] = await Promise.all([
      src.listResources(s.alias).catch(() => []),
      src.listResourceTemplates(s.alias).catch(() => []),
    ]);
    if (!resources.length && !templates.length) continue;
    lines.push(`Server ${s.alias}:`);
    for (const r of resources.slice(0, MAX_LISTED))
      lines.push(
        `- ${r.uri}${r.name ? ` (${r.name})` : ''}${r.mimeType ? ` [${r.mimeType}]` : ''}${r.description ? `: ${r.description}` : ''}`,
      );
    if (resources.length > MAX_LISTED) lines.push(`- … ${resources.length - MAX_LISTED} more`);
    for (const t of templates)
      lines.push(
        `- template ${t.uriTemplate}${t.name ? ` (${t.name})` : ''}${t.description ? `: ${t.description}` : ''}`,
      );
  }
  return text(lines.length ? lines.join('\n') : 'No MCP server offers resources.');
}

/**
 * The server to read from: the one named, else (Gemini CLI 0.61 sends only the URI) the connected server
 * that lists the URI, else the only connected server that offers resources.
 */
function serverOf(src: ResourceSource, args: Record<string, unknown>): string {
  if (typeof args.server === 'string' && args.server) return args.server;
  const offering = src.states().filter((s) => s.status === 'connected' && (s.resources?.length ?? 0) > 0);
  const listing = offering.find((s) => s.resources!.some((r) => r.uri === args.uri));
  return listing?.alias ?? (offering.length === 1 ? offering[0]!.alias : '');
}

async function readOne(src: ResourceSource, server: string, uri: string): Promise<CallToolResult> {
  if (!server || !uri) return text('read_mcp_resource needs "server" and "uri".', true);
  const res = await src.readResource(server, uri);
  const content: CallToolResult['content'] = [];
  for (const c of res.contents) {
    if ('text' in c && typeof c.text === 'string') content.push({ type: 'text', text: c.text });
    else if ('blob' in c && typeof c.blob === 'string') {
      const mime = c.mimeType ?? 'application/octet-stream';
      if (mime.startsWith('image/')) content.push({ type: 'image', data: c.blob, mimeType: mime });
      else
        content.push({
          type: 'text',
          text: `[binary ${mime}, ${Math.floor((c.blob.length * 3) / 4)} bytes: ${c.uri}]`,
        });
    }
  }
  return content.length ? { content } : text(`Resource ${uri} of ${server} is empty.`);
}

/** `@server:uri` in a prompt: the server must be a known alias, the URI must have a scheme. */
export function findResourceRefs(
  text: string,
  aliases: string[],
): { start: number; end: number; server: string; uri: string }[] {
  const known = new Set(aliases);
  const out: { start: number; end: number; server: string; uri: string }[] = [];
  for (const m of text.matchAll(/(^|\s)@([A-Za-z][A-Za-z0-9_-]*):([A-Za-z][A-Za-z0-9+.-]*:\S+)/g)) {
    if (!known.has(m[2]!)) continue;
    const uri = m[3]!.replace(/[,.;!?)\]'"]+$/, '');
    const start = m.index! + m[1]!.length;
    out.push({ start, end: start + 2 + m[2]!.length + uri.length, server: m[2]!, uri });
  }
  return out;
}
