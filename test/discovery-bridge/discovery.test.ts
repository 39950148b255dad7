import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../helpers/paths.js';
import type { StdioServer } from '../helpers/mcp.js';
import { DISCOVER, FIXTURES, startBridge } from './bridge.js';

let srv: StdioServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

async function listed(mode: string) {
  srv = await startBridge(`${DISCOVER} ${mode}`);
  const { tools } = await srv.client.listTools();
  return tools;
}

describe('discovery output forms', () => {
  it('reads a bare array, skips a declaration without a name, keeps schemas and annotations', async () => {
    const tools = await listed('bare');
    expect(tools.map((t) => t.name)).toEqual([
      'hello',
      'stderr0',
      'fail3',
      'selfkill',
      'sleepy',
      'echo',
      'huge',
      'hugeerr',
      'annotated',
    ]);
    const hello = tools[0];
    expect(hello.inputSchema).toEqual({ type: 'object', properties: { who: { type: 'string' } }, required: ['who'] });
    expect(hello.description).toMatch(
      /^Greets\.\n\nThis tool was discovered from the project by running `.*discover\.sh bare`/,
    );
    expect(hello.description).toContain('call.sh hello');
    expect(hello.description).toContain('Stdout, Stderr, Error, Exit Code and Signal');
    expect(hello.annotations).toBeUndefined();
    // A missing schema still publishes an object schema; ill-typed annotation keys are dropped.
    expect(tools[1].inputSchema).toEqual({ type: 'object' });
    expect(tools[8].annotations).toEqual({ title: 'Annotated', destructiveHint: true });
    expect(srv!.stderr()).toContain('a declaration without a name was skipped');
    expect(srv!.client.getInstructions()).toContain('(9 at startup)');
  });

  it('reads functionDeclarations wrappers', async () => {
    const tools = await listed('camel');
    expect(tools.map((t) => [t.name, t.description?.split('\n')[0]])).toEqual([
      ['a', 'A.'],
      ['b', 'B.'],
    ]);
  });

  it('reads function_declarations wrappers and gives a type-less schema type object', async () => {
    const tools = await listed('snake');
    expect(tools).toHaveLength(1);
    expect(tools[0].inputSchema).toEqual({ type: 'object', properties: { x: { type: 'string' } } });
  });

  it('reads an array mixing both wrappers and bare declarations, ignoring other elements', async () => {
    expect((await listed('mixed')).map((t) => t.name)).toEqual(['a', 'b', 'c']);
    expect(srv!.stderr()).toContain('element 3 is not an object');
  });

  it('accepts a lone wrapper object (extension)', async () => {
    expect((await listed('wrapper-object')).map((t) => t.name)).toEqual(['solo']);
  });

  it('converts a legacy parameters schema to JSON Schema', async () => {
    const [tool] = await listed('legacy');
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'A path.' },
        count: { type: ['integer', 'null'], minimum: 1 },
        tags: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, maxItems: 3 },
      },
      required: ['path'],
    });
    // The converted schema is enforced before the call command runs.
    const bad = await srv!.call('legacy', { count: 2 });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]).toMatchObject({
      text: expect.stringContaining("params must have required property 'path'"),
    });
  });

  it('reads the discovery command with node and quoted arguments', async () => {
    srv = await startBridge(`node "${FIXTURES}/discover-file.mjs" '${FIXTURES}/static-tools.json'`);
    expect((await srv.client.listTools()).tools.map((t) => t.name)).toEqual(['from_file']);
  });
});

describe('failed discovery', () => {
  it.each([
    ['invalid', 'Tool discovery command did not return a JSON array of tools.'],
    ['object', 'Tool discovery command did not return a JSON array of tools.'],
    ['exit7', 'Tool discovery command failed with exit code 7. Stderr: discovery broke'],
    ['huge', 'Tool discovery command output exceeded size limit of 10485760 bytes.'],
  ])('%s: starts with no tools and reports why', async (mode, reason) => {
    const tools = await listed(mode);
    expect(tools).toEqual([]);
    expect(srv!.client.getInstructions()).toContain(`Tool discovery failed: ${reason}`);
    expect(srv!.stderr()).toContain(`discovery failed: ${reason}`);
    const call = await srv!.call('hello', {});
    expect(call.isError).toBe(true);
    expect(call.content[0]).toMatchObject({ text: expect.stringContaining(`(tool discovery failed: ${reason})`) });
  });

  it('bounds a discovery command that hangs', async () => {
    srv = await startBridge(`${DISCOVER} hang`, ['--discovery-timeout-s', '1']);
    expect((await srv.client.listTools()).tools).toEqual([]);
    expect(srv.client.getInstructions()).toContain(
      'Tool discovery failed: Tool discovery command timed out after 1 seconds.',
    );
  });

  it('reports a discovery program that cannot be started', async () => {
    srv = await startBridge('/no/such/discover --x');
    expect((await srv.client.listTools()).tools).toEqual([]);
    expect(srv.client.getInstructions()).toContain(
      'Tool discovery command could not be started: spawn /no/such/discover ENOENT',
    );
  });
});

describe('configuration errors', () => {
  const run = (args: string[]) =>
    spawnSync(process.execPath, [requireBuilt(ENTRY.discoveryBridge), ...args], { encoding: 'utf8', input: '' });

  it.each([
    [[], '--discovery-command is required'],
    [
      ['--discovery-command', `${DISCOVER} bare | jq .`],
      `--discovery-command: command "${DISCOVER} bare | jq ." contains "|", which needs a shell`,
    ],
    [
      ['--discovery-command', `${DISCOVER} bare`, '--call-command', 'run >out'],
      '--call-command: command "run >out" contains ">", which needs a shell',
    ],
    [
      ['--discovery-command', `${DISCOVER} bare`, '--timeout-s', 'soon'],
      '--timeout-s must be a number of seconds >= 0',
    ],
  ])('%j exits 2 with a clear message', (args, message) => {
    const r = run(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`gemini-mcp-discovery-bridge: ${message}`);
  });
});
