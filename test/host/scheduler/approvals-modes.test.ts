import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headlessDenial } from '../../../host/policy/policy-engine.js';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { BUILT_INS, output, runtime, useApprovalWorld, world } from './approvals-world.js';

/** Approvals end to end: "always" answers, headless sessions, third-party servers. */
useApprovalWorld();

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
    env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: world.gemini.url },
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
    const hits = world.site.hits.length;
    confirmer.reset({ decision: 'proceed_once' });
    confirmer.onAsk = () => expect(world.site.hits.length).toBe(hits);
    const call = await env.run('webx__web_fetch', { prompt: `summarise ${world.site.url}/x` });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    expect(confirmer.seen[0]).toMatchObject({ source: 'pre-call', tool: { serverAlias: 'webx' } });
    expect(world.site.hits.length).toBe(hits + 1);
  });

  it('the web server replaced by a trusted alias fetches a 127.0.0.1 page unasked', async () => {
    const hits = world.site.hits.length;
    confirmer.reset();
    const call = await env.run('web__web_fetch', { prompt: `summarise ${world.site.url}/trusted` });
    expect(call.status).toBe('success');
    expect(confirmer.seen).toEqual([]);
    expect(world.site.hits.slice(hits)).toEqual(['/trusted']);
  });
});
