import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headlessDenial } from '../../../host/policy/policy-engine.js';
import { createHostRuntime, type HostRuntime, type HostRuntimeOptions } from '../../../host/runtime.js';
import { CANCELLED_BY_USER, CANCELLED_WAITING } from '../../../host/scheduler/texts.js';
import type { ConfirmationRequest, ToolCall } from '../../../host/scheduler/types.js';
import { ScriptedConfirmer } from '../../helpers/scripted-confirmer.js';
import { startScriptedGemini, type ScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

/**
 * Approvals end to end: the real runtime, the real built-in
 * servers and a third-party server, a temp workspace and GEMINI_CLI_HOME, and a recording confirmer
 * that also checks, at the moment it is asked, that nothing has happened yet.
 */

const BUILT_INS = ['filesystem', 'shell', 'web', 'memory'];
let gemini: ScriptedGemini;
let site: { url: string; hits: string[]; close: () => Promise<void> };
let seq = 0;

beforeAll(async () => {
  gemini = await startScriptedGemini([], {
    responder: (r) =>
      r.method === 'generateContent'
        ? {
            method: 'generateContent',
            response: {
              candidates: [
                { content: { role: 'model', parts: [{ text: 'scripted summary' }] }, finishReason: 'STOP', index: 0 },
              ],
            },
          }
        : undefined,
  });
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('local page body\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
});
afterAll(async () => {
  await gemini?.close();
  await site?.close();
});

interface Env {
  rt: HostRuntime;
  dir: string;
  home: string;
  confirmer: ScriptedConfirmer;
  run(name: string, args: Record<string, unknown>): Promise<ToolCall>;
  batch(calls: Array<[string, Record<string, unknown>]>): Promise<ToolCall[]>;
}

/** A runtime over a fresh workspace; user settings carry `settings` and exclude unused built-ins. */
function runtime(keep: string[], settings: () => Record<string, unknown>, opts: Partial<HostRuntimeOptions> = {}): Env {
  const root = tempDir('gmc-appr-');
  const dir = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(dir, { recursive: true });
  const excluded = BUILT_INS.filter((a) => !keep.includes(a));
  const confirmer = new ScriptedConfirmer();
  const env: Env = {
    rt: undefined as unknown as HostRuntime,
    dir,
    home,
    confirmer,
    run: async (name, args) => (await env.batch([[name, args]]))[0],
    batch: (calls) =>
      env.rt.scheduler.schedule(
        calls.map(([name, args]) => ({ callId: `c${++seq}`, name, args, isClientInitiated: false, promptId: 'p' })),
        new AbortController().signal,
      ),
  };
  beforeAll(async () => {
    // Written here: settings may name the scripted endpoint, which starts in the file's beforeAll.
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ ...settings(), mcp: { excluded } }));
    env.rt = await createHostRuntime({
      cwd: dir,
      interactive: true,
      confirmer,
      env: {
        ...process.env,
        GEMINI_CLI_HOME: home,
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        GOOGLE_API_KEY: '',
      },
      ...opts,
    });
    await env.rt.manager.whenSettled();
    for (const alias of keep) expect(env.rt.manager.state(alias)?.status, alias).toBe('connected');
  });
  afterAll(() => env.rt?.close());
  return env;
}

const output = (c: ToolCall) =>
  (c.response?.responseParts[0]?.functionResponse?.response ?? {}) as { output?: string; error?: string };
const editDetail = (r: ConfirmationRequest) => {
  expect(r.source).toBe('elicitation');
  if (r.source !== 'elicitation') throw new Error('not an elicitation');
  return r.detail;
};

describe('built-in servers, interactive', () => {
  const env = runtime(BUILT_INS, () => ({ tools: { allowed: ['run_shell_command(git)'] } }));
  const { confirmer } = env;
  const mode = (m: 'default' | 'autoEdit' | 'yolo') => env.rt.setApprovalMode(m);
  const memoryFile = () => join(env.home, '.gemini', 'GEMINI.md');

  it('write_file asks with the diff in default mode; nothing is written before the answer', async () => {
    mode('default');
    const file = join(env.dir, 'new.txt');
    confirmer.reset({ decision: 'proceed_once' });
    confirmer.onAsk = () => expect(existsSync(file)).toBe(false);
    const call = await env.run('filesystem__write_file', { file_path: file, content: 'hello\n' });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    const d = editDetail(confirmer.seen[0]);
    expect(d).toMatchObject({
      kind: 'edit',
      title: 'Confirm Write: new.txt',
      callId: call.request.callId,
      isNewFile: true,
    });
    expect(d.fileDiff).toContain('--- new.txt\tCurrent\n+++ new.txt\tProposed\n');
    expect(d.fileDiff).toContain('+hello');
    expect(readFileSync(file, 'utf8')).toBe('hello\n');
  });

  it('replace asks with the diff in default mode', async () => {
    mode('default');
    const file = join(env.dir, 'r.txt');
    writeFileSync(file, 'one\ntwo\n');
    confirmer.reset({ decision: 'proceed_once' });
    confirmer.onAsk = () => expect(readFileSync(file, 'utf8')).toBe('one\ntwo\n');
    const call = await env.run('filesystem__replace', { file_path: file, old_string: 'two', new_string: 'TWO' });
    expect(call.status).toBe('success');
    const d = editDetail(confirmer.seen[0]);
    expect(d).toMatchObject({ kind: 'edit', title: 'Confirm Edit: r.txt' });
    expect(d.fileDiff).toMatch(/-two\n\+TWO/);
    expect(readFileSync(file, 'utf8')).toBe('one\nTWO\n');
  });

  it('write_file and replace run unasked in autoEdit and yolo', async () => {
    for (const m of ['autoEdit', 'yolo'] as const) {
      mode(m);
      confirmer.reset();
      const file = join(env.dir, `auto-${m}.txt`);
      expect((await env.run('filesystem__write_file', { file_path: file, content: 'a\n' })).status).toBe('success');
      expect((await env.run('filesystem__replace', { file_path: file, old_string: 'a', new_string: 'b' })).status).toBe(
        'success',
      );
      expect(readFileSync(file, 'utf8')).toBe('b\n');
      expect(confirmer.seen).toEqual([]);
    }
    mode('default');
  });

  it('write_file modify: the edited content is proposed again with its diff, then written', async () => {
    mode('default');
    const file = join(env.dir, 'mod.txt');
    confirmer.reset({ decision: 'modify', content: 'edited by user\n' }, { decision: 'proceed_once' });
    confirmer.onAsk = () => expect(existsSync(file)).toBe(false);
    const call = await env.run('filesystem__write_file', { file_path: file, content: 'model text\n' });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toHaveLength(2);
    expect(editDetail(confirmer.seen[0]).fileDiff).toContain('+model text');
    const second = editDetail(confirmer.seen[1]);
    expect(second.fileDiff).toContain('+edited by user');
    expect(second.fileDiff).not.toContain('model text');
    expect(readFileSync(file, 'utf8')).toBe('edited by user\n');
  });

  it('replace modify: the edited full content is proposed again, then written', async () => {
    mode('default');
    const file = join(env.dir, 'rmod.txt');
    writeFileSync(file, 'alpha\nbeta\n');
    confirmer.reset({ decision: 'modify', content: 'alpha\ngamma\n' }, { decision: 'proceed_once' });
    confirmer.onAsk = () => expect(readFileSync(file, 'utf8')).toBe('alpha\nbeta\n');
    const call = await env.run('filesystem__replace', { file_path: file, old_string: 'beta', new_string: 'delta' });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toHaveLength(2);
    expect(editDetail(confirmer.seen[0]).fileDiff).toContain('+delta');
    expect(editDetail(confirmer.seen[1]).fileDiff).toMatch(/-beta\n\+gamma/);
    expect(readFileSync(file, 'utf8')).toBe('alpha\ngamma\n');
  });

  it('run_shell_command asks with the command and its root commands in default and autoEdit', async () => {
    for (const m of ['default', 'autoEdit'] as const) {
      mode(m);
      const marker = join(env.dir, `shell-${m}.txt`);
      confirmer.reset({ decision: 'proceed_once' });
      confirmer.onAsk = () => expect(existsSync(marker)).toBe(false);
      const command = `touch shell-${m}.txt && echo done`;
      const call = await env.run('shell__run_shell_command', { command, description: 'make a marker' });
      expect(call.status).toBe('success');
      expect(confirmer.seen).toHaveLength(1);
      expect(editDetail(confirmer.seen[0])).toMatchObject({
        kind: 'exec',
        title: 'Confirm Shell Command',
        command,
        rootCommands: ['touch', 'echo'],
        directory: env.dir,
        description: 'make a marker',
      });
      expect(existsSync(marker)).toBe(true);
    }
    mode('default');
  });

  it('run_shell_command runs unasked when every root command matches tools.allowed', async () => {
    mode('default');
    confirmer.reset();
    const call = await env.run('shell__run_shell_command', { command: 'git init -q && git status --short' });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toEqual([]);
    expect(existsSync(join(env.dir, '.git'))).toBe(true);
  });

  it('asks for `git log; rm -rf x` and `git log && curl x`; cancelling leaves x in place', async () => {
    mode('default');
    mkdirSync(join(env.dir, 'x'), { recursive: true });
    for (const command of ['git log; rm -rf x', 'git log && curl x']) {
      confirmer.reset({ decision: 'cancel' });
      const call = await env.run('shell__run_shell_command', { command });
      expect(confirmer.seen, command).toHaveLength(1);
      expect(editDetail(confirmer.seen[0])).toMatchObject({ kind: 'exec', command });
      expect(call.status).toBe('cancelled');
      expect(output(call).error).toBe(CANCELLED_BY_USER);
      expect(existsSync(join(env.dir, 'x'))).toBe(true);
    }
  });

  it('redirection turns an allow-listed command into an ask in default mode, not in autoEdit', async () => {
    mode('default');
    confirmer.reset({ decision: 'cancel' });
    const asked = await env.run('shell__run_shell_command', { command: 'git status > st.txt' });
    expect(asked.status).toBe('cancelled');
    expect(confirmer.seen).toHaveLength(1);
    expect(existsSync(join(env.dir, 'st.txt'))).toBe(false);
    mode('autoEdit');
    confirmer.reset();
    expect((await env.run('shell__run_shell_command', { command: 'git status > st.txt' })).status).toBe('success');
    expect(confirmer.seen).toEqual([]);
    expect(existsSync(join(env.dir, 'st.txt'))).toBe(true);
    mode('default');
  });

  it('run_shell_command runs unasked in yolo', async () => {
    mode('yolo');
    confirmer.reset();
    const call = await env.run('shell__run_shell_command', { command: 'touch yolo-shell.txt' });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toEqual([]);
    expect(existsSync(join(env.dir, 'yolo-shell.txt'))).toBe(true);
    mode('default');
  });

  it('web_fetch asks with the URLs in default mode and fetches only after the answer', async () => {
    mode('default');
    const url = 'https://approvals-e2e.invalid/page';
    const before = gemini.requests.length;
    confirmer.reset({ decision: 'proceed_once' });
    confirmer.onAsk = () => expect(gemini.requests.length).toBe(before);
    const call = await env.run('web__web_fetch', { prompt: `summarise ${url}` });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    expect(editDetail(confirmer.seen[0])).toMatchObject({
      kind: 'info',
      title: 'Confirm Web Fetch',
      urls: [url],
      prompt: `summarise ${url}`,
    });
    expect(gemini.requests.length).toBeGreaterThan(before);
    expect(output(call).output).toContain('scripted summary');
  });

  it('web_fetch cancelled: no request leaves the server', async () => {
    mode('default');
    const before = gemini.requests.length;
    confirmer.reset({ decision: 'cancel' });
    const call = await env.run('web__web_fetch', { prompt: 'summarise https://approvals-e2e.invalid/other' });
    expect(call.status).toBe('cancelled');
    expect(gemini.requests.length).toBe(before);
  });

  it('web_fetch calls running side by side: cancelling the first cancels the other without asking', async () => {
    mode('default');
    const before = gemini.requests.length;
    confirmer.reset({ decision: 'cancel' }, { decision: 'proceed_once' });
    const calls = await env.batch([
      ['web__web_fetch', { prompt: 'summarise https://approvals-e2e.invalid/p1' }],
      ['web__web_fetch', { prompt: 'summarise https://approvals-e2e.invalid/p2' }],
    ]);
    expect(confirmer.seen).toHaveLength(1);
    expect(calls.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(calls.map((c) => output(c).error).sort()).toEqual([CANCELLED_BY_USER, CANCELLED_WAITING].sort());
    expect(gemini.requests.length).toBe(before);
  });

  it('web_fetch runs unasked in autoEdit and yolo', async () => {
    for (const m of ['autoEdit', 'yolo'] as const) {
      mode(m);
      confirmer.reset();
      const call = await env.run('web__web_fetch', { prompt: `summarise https://approvals-e2e.invalid/${m}` });
      expect(call.status).toBe('success');
      expect(confirmer.seen).toEqual([]);
    }
    mode('default');
  });

  it('save_memory asks with the diff in default AND autoEdit; the file is written only after the answer', async () => {
    for (const m of ['default', 'autoEdit'] as const) {
      mode(m);
      const before = existsSync(memoryFile()) ? readFileSync(memoryFile(), 'utf8') : undefined;
      confirmer.reset({ decision: 'proceed_once' });
      confirmer.onAsk = () =>
        expect(existsSync(memoryFile()) ? readFileSync(memoryFile(), 'utf8') : undefined).toBe(before);
      const call = await env.run('memory__save_memory', { fact: `fact in ${m}` });
      expect(call.status).toBe('success');
      expect(confirmer.seen).toHaveLength(1);
      const d = editDetail(confirmer.seen[0]);
      expect(d).toMatchObject({
        kind: 'edit',
        title: 'Confirm Memory Save: ~/.gemini/GEMINI.md',
        filePath: memoryFile(),
      });
      expect(d.fileDiff).toContain(`+- fact in ${m}`);
      expect(readFileSync(memoryFile(), 'utf8')).toContain(`fact in ${m}`);
    }
    mode('default');
  });

  it('save_memory runs unasked in yolo', async () => {
    mode('yolo');
    confirmer.reset();
    const call = await env.run('memory__save_memory', { fact: 'fact in yolo' });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toEqual([]);
    expect(readFileSync(memoryFile(), 'utf8')).toContain('fact in yolo');
    mode('default');
  });

  it('read-only tools never ask', async () => {
    mode('default');
    writeFileSync(join(env.dir, 'ro.txt'), 'read me\n');
    confirmer.reset();
    const calls = await env.batch([
      ['filesystem__read_file', { absolute_path: join(env.dir, 'ro.txt') }],
      ['filesystem__list_directory', { path: env.dir }],
      ['filesystem__glob', { pattern: '*.txt' }],
      ['filesystem__search_file_content', { pattern: 'read me' }],
      ['filesystem__read_many_files', { paths: ['ro.txt'] }],
      ['web__google_web_search', { query: 'approvals' }],
    ]);
    expect(calls.map((c) => [c.request.name, c.status])).toEqual(calls.map((c) => [c.request.name, 'success']));
    expect(confirmer.seen).toEqual([]);
  });

  it('a cancelled confirmation cancels the rest of the batch; nothing changes on disk', async () => {
    mode('default');
    const kept = join(env.dir, 'kept.txt');
    writeFileSync(kept, 'original\n');
    confirmer.reset({ decision: 'cancel' });
    const calls = await env.batch([
      ['filesystem__write_file', { file_path: join(env.dir, 'b1.txt'), content: 'x' }],
      ['filesystem__replace', { file_path: kept, old_string: 'original', new_string: 'changed' }],
      ['shell__run_shell_command', { command: 'touch b3.txt' }],
      ['memory__save_memory', { fact: 'never saved' }],
    ]);
    expect(confirmer.seen).toHaveLength(1);
    expect(calls.map((c) => c.status)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    expect(output(calls[0]).error).toBe(CANCELLED_BY_USER);
    for (const c of calls.slice(1)) expect(output(c).error).toBe(CANCELLED_WAITING);
    expect(existsSync(join(env.dir, 'b1.txt'))).toBe(false);
    expect(readFileSync(kept, 'utf8')).toBe('original\n');
    expect(existsSync(join(env.dir, 'b3.txt'))).toBe(false);
    expect(existsSync(memoryFile()) && readFileSync(memoryFile(), 'utf8').includes('never saved')).toBe(false);
  });
});

describe('"always" answers', () => {
  const env = runtime(['filesystem', 'shell', 'memory', 'web'], () => ({}));
  const { confirmer } = env;

  it('edit: proceed_always switches the session to autoEdit', async () => {
    confirmer.reset({ decision: 'proceed_always' });
    const file = join(env.dir, 'always.txt');
    expect((await env.run('filesystem__write_file', { file_path: file, content: '1\n' })).status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    expect(env.rt.getApprovalMode()).toBe('autoEdit');
    expect((await env.run('filesystem__replace', { file_path: file, old_string: '1', new_string: '2' })).status).toBe(
      'success',
    );
    expect(confirmer.seen).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe('2\n');
  });

  it('shell: proceed_always adds the root commands; a command with another root still asks', async () => {
    confirmer.reset({ decision: 'proceed_always' });
    expect((await env.run('shell__run_shell_command', { command: 'echo one | wc -l' })).status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    expect(env.rt.policy.session.shellPrefixes().sort()).toEqual(['echo', 'wc']);
    const again = await env.run('shell__run_shell_command', { command: 'echo two && echo three | wc -c' });
    expect(again.status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    confirmer.reset({ decision: 'cancel' });
    const other = await env.run('shell__run_shell_command', { command: 'echo four && touch other.txt' });
    expect(other.status).toBe('cancelled');
    expect(confirmer.seen).toHaveLength(1);
    expect(existsSync(join(env.dir, 'other.txt'))).toBe(false);
  });

  it('web_fetch: proceed_always allows the tool for the session', async () => {
    env.rt.setApprovalMode('default'); // the edit test above switched the session to autoEdit
    confirmer.reset({ decision: 'proceed_always' });
    expect((await env.run('web__web_fetch', { prompt: 'summarise https://approvals-e2e.invalid/1' })).status).toBe(
      'success',
    );
    expect((await env.run('web__web_fetch', { prompt: 'summarise https://approvals-e2e.invalid/2' })).status).toBe(
      'success',
    );
    expect(confirmer.seen).toHaveLength(1);
  });

  it('save_memory: proceed_always allows that memory file for the session', async () => {
    confirmer.reset({ decision: 'proceed_always' });
    expect((await env.run('memory__save_memory', { fact: 'first' })).status).toBe('success');
    expect((await env.run('memory__save_memory', { fact: 'second' })).status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    expect(readFileSync(join(env.home, '.gemini', 'GEMINI.md'), 'utf8')).toMatch(/first[\s\S]*second/);
  });
});

describe('headless (no user)', () => {
  const env = runtime(BUILT_INS, () => ({ tools: { allowed: ['run_shell_command(git)'] } }), {
    interactive: false,
    confirmer: undefined,
  });

  it('denies write_file, replace, shell, web_fetch and save_memory with the 3.5 text; nothing changes', async () => {
    const kept = join(env.dir, 'kept.txt');
    writeFileSync(kept, 'same\n');
    const calls = await env.batch([
      ['filesystem__write_file', { file_path: join(env.dir, 'h.txt'), content: 'x' }],
      ['filesystem__replace', { file_path: kept, old_string: 'same', new_string: 'other' }],
      ['shell__run_shell_command', { command: 'touch h2.txt' }],
      ['shell__run_shell_command', { command: 'git init -q; touch h3.txt' }],
      ['web__web_fetch', { prompt: 'summarise https://approvals-e2e.invalid/h' }],
      ['memory__save_memory', { fact: 'headless fact' }],
    ]);
    for (const c of calls) {
      expect(c.status, c.request.name).toBe('error');
      expect(output(c).error).toBe(headlessDenial(c.request.name));
    }
    expect(existsSync(join(env.dir, 'h.txt'))).toBe(false);
    expect(readFileSync(kept, 'utf8')).toBe('same\n');
    expect(existsSync(join(env.dir, 'h2.txt'))).toBe(false);
    expect(existsSync(join(env.dir, 'h3.txt'))).toBe(false);
    expect(existsSync(join(env.dir, '.git'))).toBe(false);
    expect(existsSync(join(env.home, '.gemini', 'GEMINI.md'))).toBe(false);
  });

  it('allows read-only tools and allow-listed shell commands', async () => {
    writeFileSync(join(env.dir, 'r.txt'), 'r\n');
    const calls = await env.batch([
      ['filesystem__read_file', { absolute_path: join(env.dir, 'r.txt') }],
      ['shell__run_shell_command', { command: 'git init -q && git status --short' }],
    ]);
    expect(calls.map((c) => c.status)).toEqual(['success', 'success']);
    expect(existsSync(join(env.dir, '.git'))).toBe(true);
  });

  it('autoEdit allows edits and web_fetch; shell and save_memory stay denied', async () => {
    env.rt.setApprovalMode('autoEdit');
    const calls = await env.batch([
      ['filesystem__write_file', { file_path: join(env.dir, 'ae.txt'), content: 'ae\n' }],
      ['web__web_fetch', { prompt: 'summarise https://approvals-e2e.invalid/ae' }],
      ['shell__run_shell_command', { command: 'touch ae2.txt' }],
      ['memory__save_memory', { fact: 'autoEdit headless' }],
    ]);
    expect(calls.map((c) => c.status)).toEqual(['success', 'success', 'error', 'error']);
    expect(output(calls[2]).error).toBe(headlessDenial('shell__run_shell_command'));
    expect(existsSync(join(env.dir, 'ae2.txt'))).toBe(false);
    expect(existsSync(join(env.home, '.gemini', 'GEMINI.md'))).toBe(false);
    env.rt.setApprovalMode('default');
  });

  it('yolo runs everything', async () => {
    env.rt.setApprovalMode('yolo');
    const calls = await env.batch([
      ['filesystem__write_file', { file_path: join(env.dir, 'y.txt'), content: 'y\n' }],
      ['shell__run_shell_command', { command: 'touch y2.txt' }],
      ['memory__save_memory', { fact: 'yolo headless' }],
    ]);
    expect(calls.map((c) => c.status)).toEqual(['success', 'success', 'success']);
    expect(existsSync(join(env.dir, 'y.txt')) && existsSync(join(env.dir, 'y2.txt'))).toBe(true);
    expect(readFileSync(join(env.home, '.gemini', 'GEMINI.md'), 'utf8')).toContain('yolo headless');
  });
});

describe('third-party servers', () => {
  const graphDir = tempDir('gmc-appr-graph-');
  const kg = (name: string, trust: boolean) => ({
    command: process.execPath,
    args: [join(process.cwd(), 'node_modules/@modelcontextprotocol/server-memory/dist/index.js')],
    env: { MEMORY_FILE_PATH: join(graphDir, `${name}.jsonl`) },
    trust,
  });
  // The web server replaced by alias with private hosts allowed (trusted), and a second, untrusted copy.
  const web = (trust: boolean) => ({
    command: process.execPath,
    args: [ENTRY.web, '--allow-private-hosts'],
    env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
    trust,
  });
  const env = runtime(['kg', 'kgt', 'web', 'webx'], () => ({
    mcpServers: { kg: kg('kg', false), kgt: kg('kgt', true), web: web(true), webx: web(false) },
  }));
  const { confirmer } = env;
  const entity = (name: string) => ({ entities: [{ name, entityType: 'thing', observations: ['o'] }] });

  it('an untrusted server asks before the call (server, tool, args); nothing runs before the answer', async () => {
    const graph = join(graphDir, 'kg.jsonl');
    confirmer.reset({ decision: 'proceed_once' });
    confirmer.onAsk = () => expect(existsSync(graph)).toBe(false);
    const call = await env.run('kg__create_entities', entity('a'));
    expect(call.status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    expect(confirmer.seen[0]).toMatchObject({
      source: 'pre-call',
      tool: { serverAlias: 'kg', toolName: 'create_entities' },
      args: entity('a'),
    });
    expect(readFileSync(graph, 'utf8')).toContain('"a"');
  });

  it('an untrusted server is asked about in autoEdit too, even for tools hinting readOnly; cancel runs nothing', async () => {
    env.rt.setApprovalMode('autoEdit');
    confirmer.reset({ decision: 'cancel' }, { decision: 'proceed_once' });
    const [write, read] = await env.batch([
      ['kg__create_entities', entity('b')],
      ['kg__read_graph', {}],
    ]);
    expect(write.status).toBe('cancelled');
    expect(read.status).toBe('cancelled');
    expect(readFileSync(join(graphDir, 'kg.jsonl'), 'utf8')).not.toContain('"b"');
    confirmer.reset({ decision: 'proceed_once' });
    expect((await env.run('kg__read_graph', {})).status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    env.rt.setApprovalMode('default');
  });

  it('an untrusted server runs unasked in yolo', async () => {
    env.rt.setApprovalMode('yolo');
    confirmer.reset();
    expect((await env.run('kg__create_entities', entity('y'))).status).toBe('success');
    expect(confirmer.seen).toEqual([]);
    env.rt.setApprovalMode('default');
  });

  it('a trusted server runs unasked', async () => {
    confirmer.reset();
    expect((await env.run('kgt__create_entities', entity('t'))).status).toBe('success');
    expect(confirmer.seen).toEqual([]);
    expect(readFileSync(join(graphDir, 'kgt.jsonl'), 'utf8')).toContain('"t"');
  });

  it('an untrusted server that declares in-call confirmation is still asked before the call', async () => {
    const hits = site.hits.length;
    confirmer.reset({ decision: 'proceed_once' });
    confirmer.onAsk = () => expect(site.hits.length).toBe(hits);
    const call = await env.run('webx__web_fetch', { prompt: `summarise ${site.url}/x` });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    expect(confirmer.seen[0]).toMatchObject({ source: 'pre-call', tool: { serverAlias: 'webx' } });
    expect(site.hits.length).toBe(hits + 1);
  });

  it('the web server replaced by a trusted alias fetches a 127.0.0.1 page unasked', async () => {
    const hits = site.hits.length;
    confirmer.reset();
    const call = await env.run('web__web_fetch', { prompt: `summarise ${site.url}/trusted` });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toEqual([]);
    expect(site.hits.slice(hits)).toEqual(['/trusted']);
  });
});
