import { describe, expect, it } from 'vitest';
import { PolicyEngine, headlessDenial, type PolicySettings } from '../../../host/policy/policy-engine.js';
import { parseRule, matchRules } from '../../../host/policy/rules.js';
import type { ApprovalMode, ToolRef } from '../../../host/scheduler/types.js';
import type { ConfirmationDetail } from '../../../protocol/confirmation.js';
import { toolRef } from './tool-ref.js';

const ref = toolRef;

const TOOLS = {
  read: ref('filesystem', 'read_file', { readOnly: true, confirmsInCall: false }),
  write: ref('filesystem', 'write_file', { confirmsInCall: true }),
  shell: ref('shell', 'run_shell_command', { confirmsInCall: true }),
  fetch: ref('web', 'web_fetch', { readOnly: true, confirmsInCall: true }),
  search: ref('web', 'google_web_search', { readOnly: true }),
  memory: ref('memory', 'save_memory', { confirmsInCall: true }),
  foreign: ref('github', 'create_issue'),
  foreignRo: ref('github', 'get_issue', { readOnly: false }),
  trustedRo: ref('docs', 'lookup', { readOnly: true, trusted: true }),
  trusted: ref('docs', 'write', { trusted: true }),
  discovered: ref('discovered', 'deploy'),
};

const engine = (mode: ApprovalMode, interactive = true, settings: PolicySettings = {}, extra = {}) =>
  new PolicyEngine({ settings, approvalMode: mode, interactive, ...extra });

/** A confirmation the tool's server raised mid-call: the same decision, on its detail. */
async function inCall(p: PolicyEngine, tool: ToolRef, detail: ConfirmationDetail) {
  return (await p.decide(tool, { args: {}, detail })).decision;
}

async function decide(p: PolicyEngine, tool: ToolRef, args: Record<string, unknown> = {}) {
  return (await p.decide(tool, { args })).decision;
}

describe('policy: default decision by tool class', () => {
  const table: [keyof typeof TOOLS, string, string, string, string][] = [
    // tool, default, autoEdit, yolo, headless default
    ['read', 'allow', 'allow', 'allow', 'allow'],
    ['search', 'allow', 'allow', 'allow', 'allow'],
    ['write', 'ask', 'allow', 'allow', 'deny'],
    ['fetch', 'ask', 'allow', 'allow', 'deny'],
    ['memory', 'ask', 'ask', 'allow', 'deny'],
    ['foreign', 'ask', 'ask', 'allow', 'deny'],
    ['foreignRo', 'ask', 'ask', 'allow', 'deny'],
    ['discovered', 'ask', 'ask', 'allow', 'deny'],
    ['trustedRo', 'allow', 'allow', 'allow', 'allow'],
    ['trusted', 'allow', 'allow', 'allow', 'allow'],
  ];
  for (const [tool, def, autoEdit, yolo, headless] of table) {
    it(`${tool}: ${def} / ${autoEdit} / ${yolo} / headless ${headless}`, async () => {
      expect(await decide(engine('default'), TOOLS[tool])).toBe(def);
      expect(await decide(engine('autoEdit'), TOOLS[tool])).toBe(autoEdit);
      expect(await decide(engine('yolo'), TOOLS[tool])).toBe(yolo);
      expect(await decide(engine('default', false), TOOLS[tool])).toBe(headless);
    });
  }

  it('headless deny carries the documented denial text', async () => {
    const d = await engine('default', false).decide(TOOLS.write, { args: {} });
    expect(d).toMatchObject({ decision: 'deny', message: headlessDenial('filesystem__write_file') });
  });

  it('a readOnlyHint from an untrusted server does not relax policy (ToolRef.readOnly is false there)', async () => {
    expect(await decide(engine('default'), ref('x', 'get', { readOnly: false }))).toBe('ask');
  });
});

describe('policy: settings rules', () => {
  it('tools.exclude denies in every mode, both name forms and server wildcards', async () => {
    for (const exclude of [['filesystem__read_file'], ['read_file'], ['filesystem__*']]) {
      const p = engine('yolo', true, { tools: { exclude } });
      expect(await p.decide(TOOLS.read, { args: {} })).toMatchObject({
        decision: 'deny',
        message: 'Tool execution denied by policy.',
      });
    }
  });

  it('mcp.excluded denies the server', async () => {
    expect(await decide(engine('yolo', true, { mcp: { excluded: ['github'] } }), TOOLS.foreign)).toBe('deny');
  });

  it('tools.core restricts to the listed tools', async () => {
    const p = engine('default', true, { tools: { core: ['read_file'] } });
    expect(await decide(p, TOOLS.read)).toBe('allow');
    expect(await decide(p, TOOLS.search)).toBe('deny');
  });

  it('tools.core limits every tool as Gemini CLI does: third-party and trusted servers too, unless listed', async () => {
    const unnamed = engine('yolo', true, { tools: { core: ['read_file'] } });
    expect(await decide(unnamed, TOOLS.foreign)).toBe('deny');
    expect(await decide(unnamed, TOOLS.trusted)).toBe('deny');
    const named = engine('yolo', true, { tools: { core: ['read_file', 'github__get_issue', 'mcp_docs_*'] } });
    expect(await decide(named, TOOLS.foreignRo)).toBe('allow');
    expect(await decide(named, TOOLS.foreign)).toBe('deny');
    expect(await decide(named, TOOLS.trusted)).toBe('allow');
    const empty = engine('yolo', true, { tools: { core: [] } });
    expect(await decide(empty, TOOLS.read)).toBe('deny');
  });

  it('understands Gemini CLI 0.61 tool names and class names', async () => {
    const grep = ref('filesystem', 'search_file_content', { readOnly: true });
    const p = engine('yolo', true, { tools: { core: ['grep_search', 'ShellTool(git)', 'mcp_github_create_issue'] } });
    expect(await decide(p, grep)).toBe('allow');
    expect(await decide(p, TOOLS.read)).toBe('deny');
    expect(await decide(p, TOOLS.shell, { command: 'git log' })).toBe('allow');
    expect(await decide(p, TOOLS.shell, { command: 'rm -rf x' })).toBe('deny');
    expect(await decide(p, TOOLS.foreign)).toBe('allow');
    const excluded = engine('yolo', true, { tools: { exclude: ['grep_search'] } });
    expect(await decide(excluded, grep)).toBe('deny');
    const allowed = engine('default', false, { tools: { allowed: ['grep_search', 'mcp_github_*'] } });
    expect(await decide(allowed, TOOLS.foreign)).toBe('allow');
  });

  it('tools.allowed allows whole tools and servers, also headless', async () => {
    const p = engine('default', false, { tools: { allowed: ['write_file', 'github__*'] } });
    expect(await decide(p, TOOLS.write)).toBe('allow');
    expect(await decide(p, TOOLS.foreign)).toBe('allow');
    expect(await decide(p, TOOLS.memory)).toBe('deny');
  });

  it('--allowed-tools and --allowed-mcp-server-names allow', async () => {
    const p = engine(
      'default',
      false,
      {},
      { allowedTools: ['memory__save_memory'], allowedMcpServerNames: ['github'] },
    );
    expect(await decide(p, TOOLS.memory)).toBe('allow');
    expect(await decide(p, TOOLS.foreign)).toBe('allow');
    expect(await decide(p, TOOLS.discovered)).toBe('deny');
  });

  it('tools.confirmationRequired asks even for a read-only tool, except in yolo', async () => {
    const settings = { tools: { confirmationRequired: ['filesystem__read_file'] } };
    expect(await decide(engine('default', true, settings), TOOLS.read)).toBe('ask');
    expect(await decide(engine('yolo', true, settings), TOOLS.read)).toBe('allow');
  });

  it('security.disableYoloMode refuses yolo', () => {
    expect(() => engine('yolo', true, { security: { disableYoloMode: true } })).toThrow(/disabled/);
  });

  it('rule parsing keeps the argument part', () => {
    expect(parseRule('shell__run_shell_command(git log)')).toEqual({
      raw: 'shell__run_shell_command(git log)',
      name: 'shell__run_shell_command',
      args: 'git log',
    });
    const rules = ['run_shell_command(git)', 'shell__run_shell_command(npm test)', 'other__x'].map(
      (r) => parseRule(r)!,
    );
    expect(matchRules(rules, TOOLS.shell)).toEqual({ whole: false, prefixes: ['git', 'npm test'] });
  });
});

describe('policy: session "always" rules', () => {
  it('always tool / always server', async () => {
    const p = engine('default');
    await p.remember(TOOLS.foreign, { decision: 'proceed_always', scope: 'tool' });
    expect(await decide(p, TOOLS.foreign)).toBe('allow');
    expect(await decide(p, TOOLS.foreignRo)).toBe('ask');
    await p.remember(TOOLS.foreignRo, { decision: 'proceed_always', scope: 'server' });
    expect(await decide(p, TOOLS.foreignRo)).toBe('allow');
  });

  it('always on an edit switches the session to autoEdit', async () => {
    const p = engine('default');
    await p.remember(TOOLS.write, { decision: 'proceed_always' }, { kind: 'edit', title: 'Confirm Write: a' });
    expect(p.getApprovalMode()).toBe('autoEdit');
    expect(await decide(p, TOOLS.write)).toBe('allow');
  });

  it('always on web_fetch allows the tool; on save_memory that memory file only', async () => {
    const p = engine('default');
    await p.remember(TOOLS.fetch, { decision: 'proceed_always' }, { kind: 'info', title: 'Confirm Web Fetch' });
    expect(await decide(p, TOOLS.fetch)).toBe('allow');
    const mem = {
      kind: 'edit' as const,
      title: 'Confirm Memory Save: ~/.gemini/GEMINI.md',
      filePath: '/h/.gemini/GEMINI.md',
    };
    expect(await inCall(p, TOOLS.memory, mem)).toBe('ask');
    await p.remember(TOOLS.memory, { decision: 'proceed_always' }, mem);
    expect(await inCall(p, TOOLS.memory, mem)).toBe('allow');
    expect(await inCall(p, TOOLS.memory, { ...mem, filePath: '/other/GEMINI.md' })).toBe('ask');
  });

  it('in-call confirmations: autoEdit allows edits, yolo everything, default asks', async () => {
    const edit = { kind: 'edit' as const, title: 'Confirm Edit: a.txt' };
    expect(await inCall(engine('default'), TOOLS.write, edit)).toBe('ask');
    expect(await inCall(engine('autoEdit'), TOOLS.write, edit)).toBe('allow');
    expect(await inCall(engine('yolo'), TOOLS.memory, edit)).toBe('allow');
    const info = { kind: 'info' as const, title: 'Confirm Web Fetch', urls: ['https://x'] };
    expect(await inCall(engine('default'), TOOLS.fetch, info)).toBe('ask');
    expect(await inCall(engine('autoEdit'), TOOLS.fetch, info)).toBe('allow');
  });
});

describe('policy: shell root-command allowlisting', () => {
  const allowed = (rules: string[], mode: ApprovalMode = 'default', interactive = true) =>
    engine(mode, interactive, { tools: { allowed: rules } });
  const cases: [string[], string, string][] = [
    [['run_shell_command(git)'], 'git status', 'allow'],
    [['shell__run_shell_command(git log)'], 'git log -5', 'allow'],
    [['shell__run_shell_command(git log)'], 'git logout', 'ask'],
    [['run_shell_command(git status)'], 'git status && rm -rf x', 'ask'],
    [['run_shell_command(git)', 'run_shell_command(rm)'], 'git status && rm -rf x', 'allow'],
    [['run_shell_command(ls)'], 'ls $(rm -rf /)', 'ask'],
    [['run_shell_command(ls)'], 'ls | wc -l', 'ask'],
    [['run_shell_command(ls)', 'run_shell_command(wc)'], 'ls | wc -l', 'allow'],
    [['run_shell_command(echo)'], 'echo hi > out.txt', 'ask'],
    [['run_shell_command(git)'], 'git log (', 'ask'],
    [['run_shell_command'], 'anything at all', 'allow'],
    [[], 'ls', 'ask'],
  ];
  for (const [rules, command, expected] of cases) {
    it(`${JSON.stringify(rules)} + "${command}" → ${expected}`, async () => {
      expect(await decide(allowed(rules), TOOLS.shell, { command })).toBe(expected);
    });
  }

  it('redirection is allowed in autoEdit and yolo; headless denies what is not covered', async () => {
    expect(
      await decide(allowed(['run_shell_command(echo)'], 'autoEdit'), TOOLS.shell, { command: 'echo hi > o' }),
    ).toBe('allow');
    expect(await decide(allowed([], 'yolo'), TOOLS.shell, { command: 'rm -rf x' })).toBe('allow');
    expect(
      await decide(allowed(['run_shell_command(git)'], 'default', false), TOOLS.shell, { command: 'git log' }),
    ).toBe('allow');
    expect(await decide(allowed(['run_shell_command(git)'], 'default', false), TOOLS.shell, { command: 'npm i' })).toBe(
      'deny',
    );
  });

  it('tools.exclude with a prefix denies any part; tools.core with prefixes restricts', async () => {
    const ex = engine('yolo', true, { tools: { exclude: ['run_shell_command(rm)'] } });
    expect(await decide(ex, TOOLS.shell, { command: 'ls && rm -rf x' })).toBe('deny');
    expect(await decide(ex, TOOLS.shell, { command: 'ls' })).toBe('allow');
    const core = engine('yolo', true, { tools: { core: ['run_shell_command(git)'] } });
    expect(await decide(core, TOOLS.shell, { command: 'git log' })).toBe('allow');
    expect(await decide(core, TOOLS.shell, { command: 'npm test' })).toBe('deny');
  });

  it('always on a command adds its root commands for the session', async () => {
    const p = engine('default');
    const detail = {
      kind: 'exec' as const,
      title: 'Confirm Shell Command',
      command: 'git log -5',
      rootCommands: ['git'],
    };
    expect(await inCall(p, TOOLS.shell, detail)).toBe('ask');
    await p.remember(TOOLS.shell, { decision: 'proceed_always' }, detail);
    expect(await inCall(p, TOOLS.shell, { ...detail, command: 'git status' })).toBe('allow');
    expect(await decide(p, TOOLS.shell, { command: 'git diff' })).toBe('allow');
    expect(await decide(p, TOOLS.shell, { command: 'git diff; curl x' })).toBe('ask');
    // Without rootCommands in the detail the host parses the command itself.
    await p.remember(TOOLS.shell, { decision: 'proceed_always' }, { kind: 'exec', title: 't', command: 'npm test' });
    expect(await decide(p, TOOLS.shell, { command: 'npm run build' })).toBe('allow');
  });
});
