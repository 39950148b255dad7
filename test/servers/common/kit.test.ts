import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createKitServer } from '../../../servers/common/create-server.js';
import { defineTool, READ_ONLY } from '../../../servers/common/tool.js';
import { createStderrLogger } from '../../../servers/common/logger.js';
import { META } from '../../../protocol/meta.js';
import { flooredNumber } from '../../../servers/common/schema.js';
import { textResult, ToolError } from '../../../servers/common/result.js';

const probe = defineTool({
  name: 'probe',
  title: 'Probe',
  description: 'Reports the roots, floors n, asks for confirmation when told to.',
  inputSchema: z.object({ n: flooredNumber(1).optional(), ask: z.boolean().optional(), fail: z.string().optional() }),
  annotations: READ_ONLY,
  handler: async (args, ctx) => {
    if (args.fail === 'tool') throw new ToolError('expected failure', 'execution_failed');
    if (args.fail === 'crash') throw new Error('boom');
    if (args.ask) {
      const outcome = await ctx.confirm({ kind: 'exec', title: 'Confirm Shell Command', command: 'ls' }, 'Run ls?');
      return textResult(JSON.stringify(outcome));
    }
    return textResult(JSON.stringify({ n: args.n, roots: ctx.roots.list }));
  },
});

async function connect(opts: { elicit?: (p: unknown) => unknown; roots?: (dir: string) => string[] } = {}) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'kit-')));
  const kit = createKitServer({ name: 't', version: '1', tools: [probe], log: createStderrLogger('t'), roots: [dir] });
  const caps: Record<string, unknown> = {};
  if (opts.elicit) caps.elicitation = {};
  if (opts.roots) caps.roots = { listChanged: true };
  const client = new Client({ name: 'c', version: '1' }, { capabilities: caps });
  if (opts.elicit) client.setRequestHandler(ElicitRequestSchema, async (req) => opts.elicit!(req.params) as never);
  if (opts.roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: opts.roots!(dir).map((r) => ({ uri: pathToFileURL(r).href })),
    }));
  }
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([kit.mcp.connect(a), client.connect(b)]);
  const call = async (args: Record<string, unknown>, meta?: Record<string, unknown>) => {
    const r = await client.callTool({ name: 'probe', arguments: args, ...(meta ? { _meta: meta } : {}) });
    return { r, text: (r.content as { text: string }[])[0].text };
  };
  return { dir, client, call };
}

describe('server kit', () => {
  it('declares all four annotations and a schema without additionalProperties', async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools[0].annotations).toMatchObject(READ_ONLY);
    expect(tools[0].inputSchema).not.toHaveProperty('additionalProperties');
    expect(tools[0].inputSchema.properties?.n).toMatchObject({ type: 'number', minimum: 1 });
  });

  it('floors numbers before validation and ignores unknown keys', async () => {
    const { call } = await connect();
    expect(JSON.parse((await call({ n: 2.7, wait_for_previous: true })).text).n).toBe(2);
    const bad = await call({ n: 0.5 });
    expect(bad.r.isError).toBe(true);
    expect(bad.text).toContain('n');
  });

  it('maps thrown errors to isError results with an errorType', async () => {
    const { call } = await connect();
    const t = await call({ fail: 'tool' });
    expect(t.r.isError).toBe(true);
    expect(t.r._meta?.[META.errorType]).toBe('execution_failed');
    const c = await call({ fail: 'crash' });
    expect(c.r._meta?.[META.errorType]).toBe('unhandled_exception');
    expect(c.text).toBe('boom');
  });

  it('client roots narrow the argument roots and never widen them', async () => {
    const other = realpathSync(mkdtempSync(join(tmpdir(), 'kit-root-')));
    const inner = (dir: string) => (mkdirSync(join(dir, 'in'), { recursive: true }), join(dir, 'in'));
    const narrowed = await connect({ roots: (dir) => [other, inner(dir)] });
    expect(JSON.parse((await narrowed.call({})).text).roots).toEqual([join(narrowed.dir, 'in')]);
    const outside = await connect({ roots: () => [other, '/'] });
    expect(JSON.parse((await outside.call({})).text).roots).toEqual([outside.dir]);
  });

  it('elicits with the typed detail and the call id; honours decline and pre-approval', async () => {
    const seen: unknown[] = [];
    let answer: unknown = { action: 'accept', content: { decision: 'proceed_once' } };
    const { call } = await connect({ elicit: (p) => (seen.push(p), answer) });
    expect(JSON.parse((await call({ ask: true }, { [META.callId]: 'c1' })).text)).toEqual({ decision: 'proceed_once' });
    expect((seen[0] as { _meta: Record<string, unknown> })._meta[META.confirmation]).toMatchObject({
      kind: 'exec',
      callId: 'c1',
    });
    answer = { action: 'decline' };
    expect(JSON.parse((await call({ ask: true })).text)).toEqual({ decision: 'cancel' });
    answer = { action: 'accept', content: { decision: 'modify', content: 'x' } };
    expect(JSON.parse((await call({ ask: true })).text)).toEqual({ decision: 'modify', content: 'x' });
    seen.length = 0;
    expect(JSON.parse((await call({ ask: true }, { [META.preapproved]: true })).text)).toEqual({
      decision: 'proceed_once',
    });
    expect(seen).toHaveLength(0);
  });

  it('proceeds directly for a client without elicitation', async () => {
    const { call } = await connect();
    expect(JSON.parse((await call({ ask: true })).text)).toEqual({ decision: 'proceed_once' });
  });
});
