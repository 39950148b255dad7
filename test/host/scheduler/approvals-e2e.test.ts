import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANCELLED_BY_USER, CANCELLED_WAITING } from '../../../host/scheduler/texts.js';
import { BUILT_INS, editDetail, output, runtime, useApprovalWorld, world } from './approvals-world.js';

/** Approvals end to end with the built-in servers, as an interactive session meets them. */
useApprovalWorld();

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
    const before = world.gemini.requests.length;
    confirmer.reset({ decision: 'proceed_once' });
    confirmer.onAsk = () => expect(world.gemini.requests.length).toBe(before);
    const call = await env.run('web__web_fetch', { prompt: `summarise ${url}` });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    expect(editDetail(confirmer.seen[0])).toMatchObject({
      kind: 'info',
      title: 'Confirm Web Fetch',
      urls: [url],
      prompt: `summarise ${url}`,
    });
    expect(world.gemini.requests.length).toBeGreaterThan(before);
    expect(output(call).output).toContain('scripted summary');
  });

  it('web_fetch cancelled: no request leaves the server', async () => {
    mode('default');
    const before = world.gemini.requests.length;
    confirmer.reset({ decision: 'cancel' });
    const call = await env.run('web__web_fetch', { prompt: 'summarise https://approvals-e2e.invalid/other' });
    expect(call.status).toBe('cancelled');
    expect(world.gemini.requests.length).toBe(before);
  });

  it('web_fetch calls running side by side: cancelling the first cancels the other without asking', async () => {
    mode('default');
    const before = world.gemini.requests.length;
    confirmer.reset({ decision: 'cancel' }, { decision: 'proceed_once' });
    const calls = await env.batch([
      ['web__web_fetch', { prompt: 'summarise https://approvals-e2e.invalid/p1' }],
      ['web__web_fetch', { prompt: 'summarise https://approvals-e2e.invalid/p2' }],
    ]);
    expect(confirmer.seen).toHaveLength(1);
    expect(calls.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(calls.map((c) => output(c).error).sort()).toEqual([CANCELLED_BY_USER, CANCELLED_WAITING].sort());
    expect(world.gemini.requests.length).toBe(before);
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
