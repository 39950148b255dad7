import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { ResolvedServerConfig } from '../../../host/config/servers.js';
import { changesNothing, filterTools, looksLikeConnectionLoss } from '../../../host/mcp/tool-filter.js';

const tool = (name: string, annotations?: Tool['annotations']): Tool => ({
  name,
  inputSchema: { type: 'object' },
  ...(annotations ? { annotations } : {}),
});
const config = (over: Partial<ResolvedServerConfig> = {}): ResolvedServerConfig => ({
  alias: 's',
  builtIn: false,
  trust: false,
  transport: 'stdio',
  timeoutMs: 1000,
  ...over,
});
const names = (tools: Tool[]) => tools.map((t) => t.name);
const tools = ['read', 'write', 'delete', 'read_all'].map((n) => tool(n));

describe('filterTools', () => {
  it('no lists: every tool', () => {
    expect(names(filterTools(tools, config()))).toEqual(['read', 'write', 'delete', 'read_all']);
  });

  it('includeTools keeps only the named tools, by exact name (no prefix match)', () => {
    expect(names(filterTools(tools, config({ includeTools: ['read', 'delete'] })))).toEqual(['read', 'delete']);
  });

  it('exclude wins over include', () => {
    expect(names(filterTools(tools, config({ includeTools: ['read', 'write'], excludeTools: ['write'] })))).toEqual([
      'read',
    ]);
  });

  it('an entry with arguments names its tool, as settings write it; spaces are trimmed', () => {
    expect(names(filterTools(tools, config({ excludeTools: ['write(anything)', '  delete  '] })))).toEqual([
      'read',
      'read_all',
    ]);
  });

  it('an empty include list keeps nothing; an empty exclude list removes nothing', () => {
    expect(filterTools(tools, config({ includeTools: [] }))).toEqual([]);
    expect(names(filterTools(tools, config({ excludeTools: [] })))).toHaveLength(4);
  });

  it('a wildcard is not a pattern here: "*" names no tool', () => {
    expect(filterTools(tools, config({ includeTools: ['*'] }))).toEqual([]);
    expect(names(filterTools(tools, config({ excludeTools: ['read*'] })))).toHaveLength(4);
  });
});

describe('changesNothing', () => {
  const listed = [tool('get', { readOnlyHint: true }), tool('put', { readOnlyHint: false }), tool('bare')];

  it('believes readOnlyHint only from a built-in or trusted server', () => {
    expect(changesNothing(config(), listed, 'get')).toBe(false);
    expect(changesNothing(config({ builtIn: true }), listed, 'get')).toBe(true);
    expect(changesNothing(config({ trust: true }), listed, 'get')).toBe(true);
  });

  it('false for a writing tool, a tool without annotations and a tool not listed', () => {
    const trusted = config({ trust: true });
    expect(changesNothing(trusted, listed, 'put')).toBe(false);
    expect(changesNothing(trusted, listed, 'bare')).toBe(false);
    expect(changesNothing(trusted, listed, 'missing')).toBe(false);
  });

  it('a truthy but non-boolean hint is not believed', () => {
    const odd = [tool('get', { readOnlyHint: 'yes' as unknown as boolean })];
    expect(changesNothing(config({ builtIn: true }), odd, 'get')).toBe(false);
  });
});

describe('looksLikeConnectionLoss', () => {
  it('transport failures and a forgotten HTTP session count as lost connections', () => {
    for (const m of [
      'MCP error -32000: Connection closed',
      'Not connected',
      'TypeError: fetch failed',
      'connect ECONNREFUSED 127.0.0.1:1',
      'read ECONNRESET',
      'socket hang up',
      'write EPIPE',
      'Error POSTing to endpoint (HTTP 404): Session not found',
    ])
      expect(looksLikeConnectionLoss(new Error(m)), m).toBe(true);
    expect(looksLikeConnectionLoss('connection closed')).toBe(true);
  });

  it('tool-level and other HTTP failures do not', () => {
    for (const m of [
      'MCP error -32602: Invalid params',
      'Error POSTing to endpoint (HTTP 500): boom',
      'Request timed out',
    ])
      expect(looksLikeConnectionLoss(new Error(m)), m).toBe(false);
  });
});
