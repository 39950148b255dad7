import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { createStderrLogger } from '../../../servers/common/logger.js';
import { META } from '../../../protocol/meta.js';
import { createFilesystemServer } from '../../../servers/filesystem/server.js';
import { textOf } from '../../helpers/mcp.js';

export interface Connected {
  client: Client;
  call: (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) => Promise<CallToolResult>;
  /** Text of the first text block. */
  text: (name: string, args: Record<string, unknown>) => Promise<string>;
}

/** The real filesystem server in-process over the SDK's in-memory transport (fast per-tool tests). */
export async function connectFs(opts: {
  roots: string[];
  projectTempDir?: string;
  elicit?: (p: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
}): Promise<Connected> {
  const kit = createFilesystemServer({
    roots: opts.roots,
    projectTempDir: opts.projectTempDir,
    log: createStderrLogger('fs-test'),
  });
  const client = new Client(
    { name: 'fs-test', version: '1' },
    { capabilities: opts.elicit ? { elicitation: {} } : {} },
  );
  if (opts.elicit) {
    const elicit = opts.elicit;
    client.setRequestHandler(ElicitRequestSchema, async (req) => elicit(req.params));
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([kit.mcp.connect(a), client.connect(b)]);
  const call = async (name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as CallToolResult;
  return { client, call, text: async (name, args) => firstText(await call(name, args)) };
}

/** Text of the first text block (the shared helper, under the name these tests use). */
export const firstText = textOf;

export const errorTypeOf = (r: CallToolResult): unknown => r._meta?.[META.errorType];
