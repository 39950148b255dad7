import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TIMEOUT_MS, hookName, hookSwitches, loadHooks } from '../../../host/hooks/hook-config.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hook-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a settings file holding `doc` and returns its path. */
function settings(name: string, doc: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof doc === 'string' ? doc : JSON.stringify(doc));
  return file;
}

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command, ...extra });

describe('loadHooks: Gemini CLI format', () => {
  it('reads an event, its matcher, sequential flag, name, env and a timeout in milliseconds', () => {
    const file = settings('settings.json', {
      hooks: {
        BeforeTool: [
          {
            matcher: 'write_file|replace',
            sequential: true,
            hooks: [cmd('./check.sh', { name: 'check', description: 'd', timeout: 5000, env: { N: 3 } })],
          },
        ],
      },
    });
    expect(loadHooks([{ path: file, source: 'project' }])).toEqual({
      hooks: [
        {
          event: 'BeforeTool',
          writtenEvent: 'BeforeTool',
          format: 'gemini',
          matcher: 'write_file|replace',
          sequential: true,
          command: './check.sh',
          name: 'check',
          description: 'd',
          timeoutMs: 5000,
          env: { N: '3' },
          source: 'project',
          file,
        },
      ],
      problems: [],
    });
  });

  it('defaults the timeout to 60 s and sequential to false, and skips the on/off keys beside the events', () => {
    const file = settings('s.json', {
      hooks: { enabled: true, disabled: ['x'], notifications: {}, AfterAgent: [{ hooks: [cmd('log')] }] },
    });
    const { hooks, problems } = loadHooks([{ path: file, source: 'user' }]);
    expect(problems).toEqual([]);
    expect(hooks.map((h) => [h.event, h.timeoutMs, h.sequential, h.matcher])).toEqual([
      ['AfterAgent', DEFAULT_TIMEOUT_MS, false, undefined],
    ]);
  });

  it('reports a Claude-only event name in a Gemini block as unknown', () => {
    const file = settings('s.json', { hooks: { BeforeTool: [{ hooks: [cmd('a')] }], beforetool: [] } });
    const { hooks, problems } = loadHooks([{ path: file, source: 'user' }]);
    expect(hooks.map((h) => h.command)).toEqual(['a']);
    expect(problems).toEqual([`${file}: unknown hook event "beforetool" (Gemini CLI format)`]);
  });
});

describe('loadHooks: Claude Code format', () => {
  it('maps Claude events to Gemini ones and reads timeouts in seconds, for the whole block', () => {
    const file = settings('s.json', {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [cmd('pre', { timeout: 2 })] }],
        SessionStart: [{ hooks: [cmd('start', { timeout: 3 })] }],
        SubagentStop: [{ hooks: [cmd('sub')] }],
      },
    });
    const { hooks, problems } = loadHooks([{ path: file, source: 'user' }]);
    expect(problems).toEqual([]);
    expect(hooks.map((h) => [h.writtenEvent, h.event, h.format, h.timeoutMs])).toEqual([
      ['PreToolUse', 'BeforeTool', 'claude', 2000],
      ['SessionStart', 'SessionStart', 'claude', 3000],
      ['SubagentStop', 'AfterAgent', 'claude', DEFAULT_TIMEOUT_MS],
    ]);
  });

  it('reports a Gemini-only event inside a Claude block', () => {
    const file = settings('s.json', { hooks: { PreToolUse: [], BeforeModel: [{ hooks: [cmd('x')] }] } });
    expect(loadHooks([{ path: file, source: 'user' }])).toEqual({
      hooks: [],
      problems: [`${file}: unknown hook event "BeforeModel" (Claude Code format)`],
    });
  });
});

describe('loadHooks: bad entries are reported with their place, the rest still load', () => {
  it('names each bad hook by event, definition and index', () => {
    const file = settings('s.json', {
      hooks: {
        BeforeTool: [
          {
            hooks: [
              'echo',
              cmd('ok'),
              { type: 'prompt', command: 'x' },
              { type: 'command', command: '   ' },
              cmd('t0', { timeout: 0 }),
              cmd('tneg', { timeout: -1 }),
              cmd('tstr', { timeout: '10' }),
              cmd('tnan', { timeout: null }),
            ],
          },
          { matcher: 'x' },
        ],
        AfterTool: { hooks: [] },
      },
    });
    const { hooks, problems } = loadHooks([{ path: file, source: 'user' }]);
    expect(hooks.map((h) => h.command)).toEqual(['ok']);
    const at = (j: number, why: string) => `${file}: hooks.BeforeTool[0].hooks[${j}]: ${why}`;
    expect(problems).toEqual([
      at(0, 'not an object'),
      at(2, 'type "prompt" is not supported (only "command")'),
      at(3, 'missing "command"'),
      at(4, '"timeout" must be a positive number'),
      at(5, '"timeout" must be a positive number'),
      at(6, '"timeout" must be a positive number'),
      at(7, '"timeout" must be a positive number'),
      `${file}: hooks.BeforeTool[1] needs a "hooks" list`,
      `${file}: hooks.AfterTool must be a list of { matcher, hooks: [...] }`,
    ]);
  });

  it('reports a hooks value that is not an object, and broken JSON, and goes on to the next file', () => {
    const notObject = settings('a.json', { hooks: ['BeforeTool'] });
    const broken = settings('b.json', '{ "hooks": { "BeforeTool": [ }');
    const good = settings('c.json', { hooks: { SessionEnd: [{ hooks: [cmd('bye')] }] } });
    const { hooks, problems } = loadHooks([
      { path: notObject, source: 'system' },
      { path: broken, source: 'user' },
      { path: good, source: 'project' },
    ]);
    expect(hooks.map((h) => [h.command, h.source, h.file])).toEqual([['bye', 'project', good]]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toBe(`${notObject}: "hooks" must be an object of events`);
    expect(problems[1]).toContain(broken);
  });

  it('skips a missing file and a file without hooks silently', () => {
    const none = settings('none.json', { ui: { theme: 'x' } });
    expect(
      loadHooks([
        { path: join(dir, 'absent.json'), source: 'user' },
        { path: none, source: 'user' },
      ]),
    ).toEqual({ hooks: [], problems: [] });
  });

  it('does not read `hooks` from an object prototype (__proto__ in the file)', () => {
    const file = settings(
      'p.json',
      '{"__proto__": {"hooks": {"BeforeTool": [{"hooks": [{"type":"command","command":"evil"}]}]}}}',
    );
    expect(loadHooks([{ path: file, source: 'project' }]).hooks).toEqual([]);
  });
});

describe('loadHooks: extension folders', () => {
  it('reads hooks/hooks.json, with the events under "hooks" or at its top level', () => {
    const wrapped = join(dir, 'ext-a');
    const flat = join(dir, 'ext-b');
    for (const [folder, doc] of [
      [wrapped, { hooks: { BeforeAgent: [{ hooks: [cmd('a')] }] } }],
      [flat, { AfterModel: [{ hooks: [cmd('b')] }] }],
    ] as const) {
      mkdirSync(join(folder, 'hooks'), { recursive: true });
      writeFileSync(join(folder, 'hooks', 'hooks.json'), JSON.stringify(doc));
    }
    const { hooks, problems } = loadHooks([
      { path: wrapped, source: 'extension:a', folder: true },
      { path: flat, source: 'extension:b', folder: true },
      { path: join(dir, 'ext-none'), source: 'extension:none', folder: true },
    ]);
    expect(problems).toEqual([]);
    expect(hooks.map((h) => [h.event, h.command, h.source, h.file])).toEqual([
      ['BeforeAgent', 'a', 'extension:a', join(wrapped, 'hooks', 'hooks.json')],
      ['AfterModel', 'b', 'extension:b', join(flat, 'hooks', 'hooks.json')],
    ]);
  });
});

describe('hook switches', () => {
  it('reads hooksConfig, falls back to the older hooks.enabled/disabled, and merges both disabled lists', () => {
    expect(hookSwitches({})).toEqual({ enabled: true, disabled: [] });
    expect(hookSwitches({ hooks: { enabled: false } })).toEqual({ enabled: false, disabled: [] });
    expect(hookSwitches({ hooksConfig: { enabled: true }, hooks: { enabled: false } }).enabled).toBe(true);
    expect(hookSwitches({ hooksConfig: { enabled: false }, hooks: { enabled: true } }).enabled).toBe(false);
    expect(hookSwitches({ hooksConfig: { enabled: 'no' } }).enabled).toBe(true);
    expect(
      hookSwitches({ hooksConfig: { disabled: ['a', 3, 'b'] }, hooks: { disabled: ['b', 'c'] } }).disabled,
    ).toEqual(['a', 'b', 'c']);
    expect(hookSwitches({ hooksConfig: 'off', hooks: ['x'] })).toEqual({ enabled: true, disabled: [] });
  });

  it('loads nothing when switched off, and drops a disabled hook by name, else by command', () => {
    const file = settings('s.json', {
      hooks: { BeforeTool: [{ hooks: [cmd('./a.sh', { name: 'audit' }), cmd('./b.sh'), cmd('./c.sh')] }] },
    });
    const src = [{ path: file, source: 'user' }];
    expect(loadHooks(src, { enabled: false, disabled: [] })).toEqual({ hooks: [], problems: [] });
    const kept = loadHooks(src, { enabled: true, disabled: ['audit', './b.sh', './a.sh'] }).hooks;
    expect(kept.map(hookName)).toEqual(['./c.sh']);
  });

  it('hookName is the name when set, else the command', () => {
    expect(hookName({ name: 'n', command: 'c' })).toBe('n');
    expect(hookName({ command: 'c' })).toBe('c');
  });
});
