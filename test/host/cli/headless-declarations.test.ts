import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, workspace, type Workspace, scriptedEndpoints } from '../../helpers/run-host.js';

// A headless run declares no tool whose every call policy would deny.
const ASKING = [
  'filesystem__write_file',
  'filesystem__replace',
  'shell__run_shell_command',
  'web__web_fetch',
  'memory__save_memory',
];
const READ_ONLY = ['filesystem__read_file', 'filesystem__glob', 'web__google_web_search'];
const JOBS = ['shell__list_background_processes', 'shell__read_background_output', 'shell__kill_background_process'];

describe('headless declarations leave out tools policy always denies', () => {
  const endpoint = scriptedEndpoints();

  /** One headless run answering with text; the first request's declared names and system text. */
  async function firstRequest(args: string[], ws: Workspace = workspace()) {
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'hi', ...args], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [req] = ep.requestsOf('streamGenerateContent');
    const names: string[] = req!.body.tools[0].functionDeclarations.map((d: { name: string }) => d.name);
    return { names, system: req!.body.systemInstruction.parts[0].text as string };
  }

  it('default mode: tools that need confirmation are neither declared nor named in the system prompt', async () => {
    const { names, system } = await firstRequest([]);
    expect(names).toEqual(expect.arrayContaining(READ_ONLY));
    for (const n of ASKING) {
      expect(names).not.toContain(n);
      expect(system).not.toContain(n);
    }
    // Servers left with no offered tool drop out of the prompt, instructions included.
    expect(system).not.toContain('save_memory');
    expect(system).not.toContain('run_shell_command');
    expect(system).not.toContain('Instructions from the "shell" server');
    expect(system).toContain('`filesystem__read_file`');
    // Reading and listing background jobs is read-only, but of no use without the shell that starts them.
    for (const n of JOBS) expect(names).not.toContain(n);
  });

  it('--yolo declares every tool', async () => {
    const { names, system } = await firstRequest(['-y']);
    expect(names).toEqual(expect.arrayContaining([...READ_ONLY, ...ASKING, ...JOBS]));
    for (const n of ASKING) expect(system).toContain(n);
  });

  it('auto_edit declares edits and web_fetch, still not shell or save_memory', async () => {
    const { names, system } = await firstRequest(['--approval-mode', 'auto_edit']);
    expect(names).toEqual(expect.arrayContaining(['filesystem__write_file', 'filesystem__replace', 'web__web_fetch']));
    expect(names).not.toContain('shell__run_shell_command');
    expect(names).not.toContain('memory__save_memory');
    expect(system).toContain('filesystem__write_file');
    expect(system).not.toContain('shell__run_shell_command');
  });

  it('an argument allow rule keeps the shell declared; a whole-tool rule in settings keeps save_memory', async () => {
    const ws = workspace();
    ws.settings({ tools: { allowed: ['memory__save_memory'] } });
    const { names, system } = await firstRequest(['--allowed-tools', 'run_shell_command(git)'], ws);
    expect(names).toContain('shell__run_shell_command');
    expect(names).toContain('memory__save_memory');
    expect(system).toContain('shell__run_shell_command');
    expect(names).not.toContain('filesystem__write_file');
  });

  it('a call to a left-out tool is still answered with the policy denial, and json stats record the decisions', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const file = ws.file('a.txt', 'alpha\n');
    const ep = await endpoint(
      reply.calls(
        { id: 'r1', name: 'filesystem__read_file', args: { absolute_path: file } },
        { id: 'w1', name: 'filesystem__write_file', args: { file_path: join(ws.cwd, 'b.txt'), content: 'x\n' } },
        { id: 'u1', name: 'filesystem__nope' },
      ),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'go', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const reqs = ep.requestsOf('streamGenerateContent');
    expect(reqs[0]!.body.tools[0].functionDeclarations.map((d: { name: string }) => d.name)).not.toContain(
      'filesystem__write_file',
    );
    const answers = reqs[1]!.body.contents.at(-1).parts.map((p: any) => p.functionResponse);
    expect(answers[1]).toMatchObject({ id: 'w1', name: 'filesystem__write_file' });
    expect(answers[1].response.error).toContain('requires user confirmation');
    const { stats } = JSON.parse(r.stdout);
    expect(stats.tools.totalDecisions).toEqual({ accept: 0, reject: 1, modify: 0, auto_accept: 1 });
    expect(stats.tools.byName.filesystem__read_file.decisions).toEqual({
      accept: 0,
      reject: 0,
      modify: 0,
      auto_accept: 1,
    });
    expect(stats.tools.byName.filesystem__write_file.decisions).toEqual({
      accept: 0,
      reject: 1,
      modify: 0,
      auto_accept: 0,
    });
    // an unknown tool never came up for a decision
    expect(stats.tools.byName.filesystem__nope.decisions).toEqual({ accept: 0, reject: 0, modify: 0, auto_accept: 0 });
  });
});
