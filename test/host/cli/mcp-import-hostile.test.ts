import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonc } from '../../../host/config/json-location.js';
import { setMembersText } from '../../../host/config/jsonc-members.js';
import { mcpWorld } from './mcp-world.js';

/** `mcp import` fed a hostile `.mcp.json`: prototype names, escape sequences, thousands of entries, a FIFO. */
const setup = () => mcpWorld('gmc-import-hostile-');

describe('mcp import with a hostile source file', () => {
  it('prototype names are plain names: imported, never "already configured"; a top-level __proto__ is not the file', async () => {
    const t = setup();
    // Written by hand: JSON.stringify would not keep a "__proto__" key.
    writeFileSync(
      t.mcpJson,
      `{
        "__proto__": { "mcpServers": { "smuggled": { "command": "evil" } } },
        "mcpServers": {
          "constructor": { "command": "c1" },
          "toString": { "command": "c2" },
          "hasOwnProperty": { "command": "c3" },
          "__proto__": { "command": "c4" }
        }
      }`,
    );
    const r = await t.run('import', '--from', 'claude-code');
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain('already configured');
    for (const n of ['constructor', 'toString', 'hasOwnProperty', '__proto__'])
      expect(r.out).toContain(`  + ${n}: stdio`);
    expect(r.out).toContain('4 servers imported.');
    expect(r.out).not.toContain('smuggled');
    const text = readFileSync(t.projectFile, 'utf8');
    expect(text).toContain('"__proto__": {');
    const servers = (parseJsonc(text) as { mcpServers: Record<string, unknown> }).mcpServers;
    expect(Object.keys(servers).sort()).toEqual(['__proto__', 'constructor', 'hasOwnProperty', 'toString']);
    // The settings loader keeps them too (zod's record would drop "__proto__"): mcp list shows all four.
    const list = await t.run('list', '--skip-trust');
    for (const n of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
      expect(list.out).toMatch(new RegExp(`${n}( \\[tools: [^\\]]+\\])? \\(stdio: c\\d`));
    // Importing again: now each really is configured already.
    const again = await t.run('import', '--from', 'claude-code');
    expect(again.out.match(/already configured/g)?.length).toBe(4);
  });

  it('server names and commands with ESC/CR are shown escaped; the real command stays readable', async () => {
    const t = setup();
    writeFileSync(
      t.mcpJson,
      JSON.stringify({
        mcpServers: { 'safe\u001b[8m': { command: 'rm', args: ['-rf', '~\r\u001b[2Kls'] } },
      }),
    );
    const r = await t.run('import', '--from', 'claude-code');
    expect(r.code, r.err).toBe(0);
    expect(r.out + r.err).not.toMatch(/[\u001b\r]/);
    expect(r.out).toContain('  + safe\\x1b[8m: stdio rm -rf ~\\r\\x1b[2Kls');
  });

  it('8,000 entries import in one pass (linear), well under 10 s', async () => {
    const t = setup();
    const servers: Record<string, unknown> = {};
    for (let i = 0; i < 8000; i++) servers[`s${i}`] = { command: 'node', args: [`server-${i}.js`] };
    writeFileSync(t.mcpJson, JSON.stringify({ mcpServers: servers }));
    mkdirSync(join(t.projectFile, '..'), { recursive: true });
    writeFileSync(t.projectFile, '{\n  // keep me\n  "mcpServers": {\n    "mine": { "command": "x" }\n  }\n}\n');
    const started = Date.now();
    const r = await t.run('import', '--from', 'claude-code');
    const seconds = (Date.now() - started) / 1000;
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('8000 servers imported.');
    const text = readFileSync(t.projectFile, 'utf8');
    expect(text).toContain('// keep me');
    const parsed = parseJsonc(text) as { mcpServers: Record<string, { args: string[] }> };
    expect(Object.keys(parsed.mcpServers)).toHaveLength(8001);
    expect(parsed.mcpServers.s7999!.args).toEqual(['server-7999.js']);
    expect(seconds).toBeLessThan(10); // was 81 s: one reparse of the growing file per entry
    // And into a settings file that does not exist yet (no mcpServers object to add to).
    const fresh = Date.now();
    const user = await t.run('import', '--from', 'claude-code', '--scope', 'user', '--dry-run');
    expect(user.out).toContain('8000 servers would be imported.');
    const r2 = await t.run('import', '--from', 'claude-code', '--scope', 'user');
    expect(r2.code, r2.err).toBe(0);
    expect((Date.now() - fresh) / 1000).toBeLessThan(10);
  });

  it('setMembersText replaces existing members in place and adds new ones in one insertion', () => {
    const text = '{\n  // c\n  "mcpServers": {\n    // stays\n    "a": { "command": "old" },\n    "b": 1\n  }\n}\n';
    const out = setMembersText(
      text,
      ['mcpServers'],
      new Map<string, unknown>([
        ['a', { command: 'new' }],
        ['c', { command: 'added' }],
        ['b', undefined],
      ]),
    );
    expect(out).toContain('// c');
    expect(out).toContain('// stays');
    expect(parseJsonc(out)).toEqual({ mcpServers: { a: { command: 'new' }, c: { command: 'added' } } });
    expect(parseJsonc(setMembersText('', ['mcpServers'], new Map([['x', { command: 'y' }]])))).toEqual({
      mcpServers: { x: { command: 'y' } },
    });
    expect(parseJsonc(setMembersText('{ "mcpServers": {} }', ['mcpServers'], new Map([['x', 1]])))).toEqual({
      mcpServers: { x: 1 },
    });
  });

  it('a .mcp.json that is a FIFO is refused at once, naming the file', async () => {
    const t = setup();
    execFileSync('mkfifo', [t.mcpJson]);
    const r = await t.run('import', '--from', 'claude-code');
    expect(r.code).not.toBe(0);
    expect(r.err).toContain(`Refusing to read ${t.mcpJson}: it is a named pipe (FIFO)`);
  });
});
