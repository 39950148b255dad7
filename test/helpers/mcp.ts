import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { requireBuilt } from './paths.js';

export interface StdioServerOptions {
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Declares the elicitation capability and answers each request with this function. */
  elicit?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  /** Declares the roots capability and offers these directories. */
  roots?: string[];
}

export interface StdioServer {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  pid: () => number | null;
  call: (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) => Promise<CallToolResult>;
  close: () => Promise<void>;
}

/** Spawns a built server binary over stdio with the real SDK client. */
export async function startStdioServer(entry: string, opts: StdioServerOptions = {}): Promise<StdioServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [requireBuilt(entry), ...(opts.args ?? [])],
    env: { ...(process.env as Record<string, string>), ...opts.env },
    cwd: opts.cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const capabilities: Record<string, unknown> = {};
  if (opts.elicit) capabilities.elicitation = {};
  if (opts.roots) capabilities.roots = { listChanged: true };
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities });
  if (opts.elicit) {
    const elicit = opts.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (req) => elicit(req.params));
  }
  if (opts.roots) {
    const roots = opts.roots;
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: r })),
    }));
  }
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    pid: () => transport.pid,
    call: async (name, args, meta) =>
      (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of the first text block of a result. */
export function textOf(result: CallToolResult): string {
  const block = result.content.find((c) => c.type === 'text');
  return block && block.type === 'text' ? block.text : '';
}
