import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { collect, ONLY, spawnHost, workspace, scriptedEndpoints } from '../../helpers/run-host.js';
import { waitFor } from '../../helpers/wait.js';

function processesMatching(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(marker) && !l.includes('ps -eo'));
}

describe('SIGINT cancels the turn and the tool calls in flight, exit 130', () => {
  const endpoint = scriptedEndpoints();

  it('mid-stream: partial output kept, exit 130', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const ep = await endpoint({ ...reply.text('partial answer'), hang: true });
    const child = spawnHost(['-p', 'x', '-o', 'json'], { ws, url: ep.url });
    const run = collect(child);
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`host exited early (${child.exitCode}): ${run.stderr()}`);
        return ep.requests.length > 0;
      },
      'the model request',
      45_000,
    );
    // The chunk is written as the request arrives; json output shows nothing before the end, so there is no
    // event for "the host has read it" to wait on: a short grace instead.
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    const out = JSON.parse(r.stdout);
    expect(out.error).toMatchObject({ type: 'FatalCancellationError', code: 130 });
    expect(out.response).toBe('partial answer');
  });

  it('mid-tool: the shell command is cancelled over MCP and leaves no orphan process', async () => {
    const ws = workspace();
    ws.settings(ONLY('shell'));
    const marker = `${40 + Math.floor(Math.random() * 1000) / 1000}`;
    const ep = await endpoint(
      reply.calls({ id: 'sh1', name: 'shell__run_shell_command', args: { command: `sleep ${marker}` } }),
      reply.text('never reached'),
    );
    const child = spawnHost(['-p', 'run it', '-y', '-o', 'stream-json'], { ws, url: ep.url });
    const run = collect(child);
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`host exited early (${child.exitCode}): ${run.stderr()}`);
        return processesMatching(`sleep ${marker}`).length > 0;
      },
      'the shell command to start',
      45_000,
    );
    child.kill('SIGINT');
    const r = await run.done;
    expect(r.code, r.stderr).toBe(130);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ tool_id: 'sh1', status: 'error' });
    expect(result.error.message).toMatch(/Cancelled/i);
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'error', error: { type: 'FatalCancellationError' } });
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(1); // nothing sent after the cancel
    await waitFor(() => processesMatching(`sleep ${marker}`).length === 0, 'the shell command to be gone', 10_000);
  });
});
