import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace, type Workspace } from '../../helpers/run-host.js';
import { hook, records } from './record-hook.js';

type Body = { contents: { role: string; parts: Record<string, any>[] }[] };
const lastParts = (b: Body) => b.contents.at(-1)!.parts;

function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function setup(
  hooks: (log: string) => Record<string, unknown>,
  servers = ONLY('filesystem', 'shell'),
): { ws: Workspace; log: string } {
  const ws = workspace();
  const log = join(ws.home, 'hooks.log');
  ws.settings({ ...servers, tools: { allowed: ['write_file', 'run_shell_command'] }, hooks: hooks(log) });
  return { ws, log };
}

const writeCall = (ws: Workspace, content = 'hello\n') =>
  reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: join(ws.cwd, 'out.txt'), content } });

describe('hooks in Gemini CLI format around tool calls', () => {
  const endpoint = scriptedEndpoints();

  it('BeforeTool and AfterTool receive the payload; additionalContext reaches the model; matchers filter', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    ws.settings({
      ...ONLY('filesystem', 'shell'),
      tools: { allowed: ['write_file'] },
      hooks: {
        BeforeTool: [{ matcher: 'write_file|replace', hooks: [{ type: 'command', command: hook(log, 'pass') }] }],
        AfterTool: [
          {
            matcher: 'write_.*',
            hooks: [{ type: 'command', name: 'ctx', command: hook(log, 'context', 'remember <this>') }],
          },
          { matcher: 'run_shell_command', hooks: [{ type: 'command', command: hook(log, 'exit2') }] },
        ],
      },
    });
    const ep = await endpoint(writeCall(ws), reply.text('done'));
    const r = await runHost(['-p', 'write it'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(ws.cwd, 'out.txt'), 'utf8')).toBe('hello\n');
    const got = records(log);
    expect(got.map((g) => g.payload.hook_event_name)).toEqual(['BeforeTool', 'AfterTool']);
    const before = got[0].payload;
    expect(before).toMatchObject({
      cwd: ws.cwd,
      tool_name: 'write_file',
      tool_input: { file_path: join(ws.cwd, 'out.txt'), content: 'hello\n' },
    });
    expect(before.session_id).toMatch(/[0-9a-f-]{36}/);
    expect(before.transcript_path).toContain(ws.home);
    expect(Date.parse(before.timestamp)).not.toBeNaN();
    expect(got[0].env).toMatchObject({ project: ws.cwd, claude: ws.cwd, session: before.session_id });
    expect(got[1].payload.tool_response.llmContent).toContain('out.txt');
    const fr = lastParts(ep.requestsOf('streamGenerateContent')[1]!.body)[0]!.functionResponse;
    expect(fr.response.output).toContain('<hook_context>remember &lt;this&gt;</hook_context>');
  });

  it('a deny decision or exit code 2 blocks before any server sees the call; the reason goes to the model', async () => {
    const { ws } = setup((log) => ({
      BeforeTool: [
        {
          matcher: 'run_shell_command',
          hooks: [{ type: 'command', command: hook(log, 'deny-json', 'no shell today') }],
        },
        { matcher: 'write_file', hooks: [{ type: 'command', command: hook(log, 'exit2', 'not that file') }] },
      ],
    }));
    const ep = await endpoint(
      reply.calls(
        { id: 's1', name: 'shell__run_shell_command', args: { command: `touch ${join(ws.cwd, 'ran')}` } },
        { id: 'w1', name: 'filesystem__write_file', args: { file_path: join(ws.cwd, 'out.txt'), content: 'x' } },
      ),
      reply.text('ok'),
    );
    const r = await runHost(['-p', 'go', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(ws.cwd, 'ran'))).toBe(false);
    expect(existsSync(join(ws.cwd, 'out.txt'))).toBe(false);
    const parts = lastParts(ep.requestsOf('streamGenerateContent')[1]!.body);
    expect(parts[0]!.functionResponse.response.error).toBe('Tool execution blocked: no shell today');
    expect(parts[1]!.functionResponse.response.error).toBe('Tool execution blocked: not that file');
  });

  it('a hook rewrites the input; the model is told which parameters changed', async () => {
    const { ws } = setup((log) => ({
      BeforeTool: [
        {
          matcher: 'write_file',
          hooks: [{ type: 'command', command: hook(log, 'rewrite', '{"content":"rewritten\\n"}') }],
        },
      ],
    }));
    const ep = await endpoint(writeCall(ws), reply.text('ok'));
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(ws.cwd, 'out.txt'), 'utf8')).toBe('rewritten\n');
    const fr = lastParts(ep.requestsOf('streamGenerateContent')[1]!.body)[0]!.functionResponse;
    expect(fr.response.output).toContain('Tool input parameters (content) were modified by a hook');
  });

  it('a hanging hook is killed with its process group at its timeout; an exit-1 warning is shown; the call goes on', async () => {
    const { ws, log } = setup((log) => ({
      BeforeTool: [
        {
          matcher: 'write_file',
          hooks: [
            // Long enough for the hook (a Node script) to start and spawn its child on a loaded machine (1.5 s was not, with a dozen processes starting beside it).
            { type: 'command', name: 'slow', command: hook(log, 'hang'), timeout: 4000 },
            { type: 'command', name: 'broken', command: hook(log, 'exit1') },
          ],
        },
      ],
    }));
    const ep = await endpoint(writeCall(ws), reply.text('ok'));
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(ws.cwd, 'out.txt'), 'utf8')).toBe('hello\n');
    expect(r.stderr).toMatch(/Hook "slow" \(user, BeforeTool\) timed out after 4000 ms/);
    expect(r.stderr).toMatch(/^Warning: something broke$/m);
    expect(r.stderr).not.toMatch(/Hook "broken".* failed/);
    const child = records(log).find((g) => g.mode === 'hang-child');
    expect(child).toBeDefined();
    // The hook's own child went with it (gone, or a zombie waiting for a reaper that is not ours).
    expect(alive(child.pid)).toBe(false);
  });

  it('continue:false stops the agent loop', async () => {
    const { ws } = setup((log) => ({
      BeforeTool: [{ hooks: [{ type: 'command', command: hook(log, 'stop', 'enough') }] }],
    }));
    const ep = await endpoint(writeCall(ws), reply.text('never asked'));
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(existsSync(join(ws.cwd, 'out.txt'))).toBe(false);
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(1);
    expect(r.stderr).toContain('Agent execution stopped by hook: enough');
  });

  it('workspace hooks run only in a trusted folder', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    ws.settings({ ...ONLY('filesystem'), tools: { allowed: ['write_file'] } });
    mkdirSync(join(ws.cwd, '.gemini'), { recursive: true });
    writeFileSync(
      join(ws.cwd, '.gemini', 'settings.json'),
      JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', command: hook(log, 'deny-json') }] }] } }),
    );
    const ep = await endpoint(writeCall(ws), reply.text('ok'));
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(records(log)).toEqual([]);
    expect(r.stderr).toMatch(/This folder is not trusted.*Skipped: .*hooks \(1\)/);
    expect(existsSync(join(ws.cwd, 'out.txt'))).toBe(true);
    const trusted = await endpoint(writeCall(ws, 'again'), reply.text('ok'));
    const t = await runHost(['-p', 'go', '--skip-trust'], { ws, url: trusted.url });
    expect(t.code, t.stderr).toBe(0);
    expect(records(log).map((g) => g.payload.hook_event_name)).toEqual(['BeforeTool']);
    expect(readFileSync(join(ws.cwd, 'out.txt'), 'utf8')).toBe('hello\n');
  });
});

describe("hooks in Claude Code's format", () => {
  const endpoint = scriptedEndpoints();

  it("PreToolUse / PostToolUse with Claude's tool names; permissionDecision deny blocks; exit 2 feeds stderr to the model", async () => {
    const { ws, log } = setup((log) => ({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: hook(log, 'claude-deny', 'no bash'), timeout: 10 }] },
        { matcher: 'Write|Edit', hooks: [{ type: 'command', command: hook(log, 'pass') }] },
        { matcher: 'Read', hooks: [{ type: 'command', command: hook(log, 'exit2', 'secret file') }] },
      ],
      PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: hook(log, 'pass') }] }],
    }));
    writeFileSync(join(ws.cwd, 'secret.txt'), 'top secret\n');
    const ep = await endpoint(
      reply.calls(
        { id: 's1', name: 'shell__run_shell_command', args: { command: `touch ${join(ws.cwd, 'ran')}` } },
        { id: 'w1', name: 'filesystem__write_file', args: { file_path: join(ws.cwd, 'out.txt'), content: 'c' } },
        { id: 'r1', name: 'filesystem__read_file', args: { absolute_path: join(ws.cwd, 'secret.txt') } },
      ),
      reply.text('ok'),
    );
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(ws.cwd, 'ran'))).toBe(false);
    expect(readFileSync(join(ws.cwd, 'out.txt'), 'utf8')).toBe('c');
    const parts = lastParts(ep.requestsOf('streamGenerateContent')[1]!.body);
    expect(parts[0]!.functionResponse.response.error).toBe('Tool execution blocked: no bash');
    expect(parts[2]!.functionResponse.response.error).toBe('Tool execution blocked: secret file');
    const got = records(log);
    expect(got.map((g) => `${g.payload.hook_event_name}:${g.payload.tool_name}`)).toEqual([
      'PreToolUse:Bash',
      'PreToolUse:Write',
      'PostToolUse:Write',
      'PreToolUse:Read',
    ]);
    expect(got[3].payload.tool_input).toEqual({ file_path: join(ws.cwd, 'secret.txt') });
  });
  it("an untrusted folder's settings cannot switch the user's hooks off, by any of the four keys", async () => {
    const weakeners = [
      { hooksConfig: { enabled: false } },
      { hooksConfig: { disabled: ['guard'] } },
      { hooks: { enabled: false } },
      { hooks: { disabled: ['guard'] } },
    ];
    for (const weakening of weakeners) {
      const ws = workspace();
      const log = join(ws.home, 'hooks.log');
      ws.settings({
        ...ONLY('filesystem'),
        tools: { allowed: ['write_file'] },
        hooks: { BeforeTool: [{ hooks: [{ type: 'command', name: 'guard', command: hook(log, 'deny-json') }] }] },
      });
      mkdirSync(join(ws.cwd, '.gemini'), { recursive: true });
      writeFileSync(join(ws.cwd, '.gemini', 'settings.json'), JSON.stringify(weakening));
      const ep = await endpoint(writeCall(ws), reply.text('ok'));
      const r = await runHost(['-p', 'go'], { ws, url: ep.url });
      expect(r.code, r.stderr).toBe(0);
      expect(
        records(log).map((g) => g.payload.hook_event_name),
        JSON.stringify(weakening),
      ).toEqual(['BeforeTool']);
      expect(existsSync(join(ws.cwd, 'out.txt'))).toBe(false);
      expect(r.stderr).toMatch(new RegExp(`This folder is not trusted.*Skipped: .*${Object.keys(weakening)[0]}`));
      // Trusted, the same file does switch the hook off: the check above can fail.
      const trusted = await endpoint(writeCall(ws), reply.text('ok'));
      const t = await runHost(['-p', 'go', '--skip-trust'], { ws, url: trusted.url });
      expect(t.code, t.stderr).toBe(0);
      expect(records(log)).toHaveLength(1);
      expect(readFileSync(join(ws.cwd, 'out.txt'), 'utf8')).toBe('hello\n');
    }
  });
});
