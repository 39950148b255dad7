import { describe, expect, it } from 'vitest';
import type { ExtensionSet, LoadedExtension } from '../../../host/extensions/loader.js';
import { mergeExtensions } from '../../../host/extensions/settings-merge.js';
import { fakeExtension } from './fake-extension.js';

const ext = (name: string, over: Partial<LoadedExtension> = {}) => fakeExtension(name, over, '1.0.0', '/x');
const set = (...extensions: LoadedExtension[]): ExtensionSet => ({ extensions, errors: [] });
function merge(merged: Record<string, unknown>, s: ExtensionSet) {
  const warnings: string[] = [];
  const notices: string[] = [];
  const from = mergeExtensions(merged, s, warnings, notices);
  return { merged, from: { ...from }, warnings, notices };
}

describe('mergeExtensions', () => {
  it("adds enabled extensions' servers and records where each came from", () => {
    const r = merge(
      { mcpServers: { mine: { command: 'a' } } },
      set(
        ext('e1', { mcpServers: { s1: { command: 'x' } } }),
        ext('off', { enabled: false, mcpServers: { s2: { command: 'y' } } }),
      ),
    );
    expect(r.merged.mcpServers).toEqual({ mine: { command: 'a' }, s1: { command: 'x' } });
    expect(r.from).toEqual({ s1: 'e1' });
    expect(r.warnings).toEqual([]);
  });

  it("a settings.json server of the same name wins; a second extension cannot take the first one's name", () => {
    const r = merge(
      { mcpServers: { shared: { command: 'user' } } },
      set(
        ext('e1', { mcpServers: { shared: { command: 'e1' }, tool: { command: 'e1' } } }),
        ext('e2', { mcpServers: { tool: { command: 'e2' } } }),
      ),
    );
    expect(r.merged.mcpServers).toEqual({ shared: { command: 'user' }, tool: { command: 'e1' } });
    expect(r.warnings).toEqual([
      'MCP server "shared" of extension e1 is skipped: settings.json defines a server of that name',
      'MCP server "tool" of extension e2 is skipped: extension e1 already defines it',
    ]);
  });

  it('an extension may not replace a built-in server (filesystem, shell, web, memory, discovered, mcp)', () => {
    const servers = Object.fromEntries(
      ['filesystem', 'shell', 'web', 'memory', 'discovered', 'mcp'].map((n) => [n, { command: 'evil' }]),
    );
    const r = merge({}, set(ext('bad', { mcpServers: servers })));
    expect(r.merged.mcpServers).toBeUndefined();
    expect(r.from).toEqual({});
    expect(r.notices).toHaveLength(6);
    expect(r.notices[0]).toBe(
      'MCP server "filesystem" of extension bad is not started: "filesystem" is the name of a built-in server, which an extension may not replace (its author can rename it).',
    );
  });

  it('names like __proto__ and constructor are plain server names, and pollute nothing', () => {
    const servers = JSON.parse('{"__proto__": {"command": "p"}, "constructor": {"command": "c"}}');
    const r = merge({}, set(ext('e', { mcpServers: servers })));
    const out = r.merged.mcpServers as Record<string, unknown>;
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.hasOwn(out, 'constructor')).toBe(true);
    expect(Object.hasOwn(r.from, '__proto__')).toBe(true);
    expect(r.from.constructor).toBe('e');
    expect(({} as Record<string, unknown>).command).toBeUndefined();
  });

  it("excludeTools of enabled extensions join tools.exclude once each, the user's entries kept", () => {
    const r = merge(
      { tools: { exclude: ['a'], core: ['x'] } },
      set(
        ext('e1', { excludeTools: ['b', 'a'] }),
        ext('e2', { excludeTools: ['b', 'c'] }),
        ext('off', { enabled: false, excludeTools: ['z'] }),
      ),
    );
    expect(r.merged.tools).toEqual({ exclude: ['a', 'b', 'c'], core: ['x'] });
  });

  it('nothing to add leaves the settings as they were', () => {
    const merged = { mcpServers: { m: {} }, tools: { exclude: ['a'] } };
    const before = JSON.stringify(merged);
    merge(merged, set(ext('e')));
    expect(JSON.stringify(merged)).toBe(before);
  });
});
