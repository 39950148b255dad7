import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/paths.js';
import { collect, runHost, scriptedEndpoints, spawnHost, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { waitFor } from '../../helpers/wait.js';

const FIXTURE = join(REPO, 'test/fixtures/remote-hang-server.mjs');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/** The fixture server as its own process; resolves with its port and its stderr so far. */
async function startRemote(args: string[]): Promise<{ child: ChildProcess; port: number; stderr: () => string }> {
  const child = spawn(process.execPath, [FIXTURE, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await waitFor(() => /listening \d+/.test(stderr), 'the remote server to listen');
  return { child, port: Number(/listening (\d+)/.exec(stderr)![1]), stderr: () => stderr };
}

/** The server's own timeout is two minutes: a call still waiting for it would outlast the test. */
const TIMEOUT_MS = 120_000;

describe('a remote MCP server killed (SIGKILL) in the middle of a call', () => {
  const endpoint = scriptedEndpoints();

  const cases: Array<[string, string[], (port: number) => Record<string, unknown>]> = [
    ['Streamable HTTP', ['http'], (port) => ({ httpUrl: `http://127.0.0.1:${port}/mcp` })],
    [
      'Streamable HTTP with resumable streams (the client tries to resume first)',
      ['http', '--resumable'],
      (port) => ({ httpUrl: `http://127.0.0.1:${port}/mcp` }),
    ],
    ['SSE', ['sse'], (port) => ({ url: `http://127.0.0.1:${port}/sse`, type: 'sse' })],
  ];

  for (const [name, args, entry] of cases) {
    it(`${name}: the call fails within seconds with a clear error, and the turn goes on`, async () => {
      const remote = await startRemote(args);
      const ep = await endpoint(
        reply.calls({ name: 'remote__wait_forever', args: {} }),
        reply.text('noted the failure'),
      );
      const ws = workspace();
      ws.settings({
        mcp: { excluded: ['filesystem', 'shell', 'web', 'memory'] },
        mcpServers: { remote: { ...entry(remote.port), trust: true, timeout: TIMEOUT_MS } },
      });
      // --debug shows the server's log messages on stderr: the sign that the call is under way.
      const host = spawnHost(['-p', 'wait for it', '--debug'], { ws, url: ep.url });
      children.push(host);
      const run = collect(host);
      // The tool's log message came back on the stream that would carry its answer: that stream is open.
      await waitFor(() => run.stderr().includes('waiting forever'), 'the call to reach the server');
      const killedAt = Date.now();
      remote.child.kill('SIGKILL');
      const r = await run.done;
      const seconds = (Date.now() - killedAt) / 1000;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('noted the failure');
      const response = JSON.stringify(ep.requestsOf('streamGenerateContent').at(-1)!.body);
      expect(response, response).toContain("MCP server 'remote' lost its connection during the call to 'wait_forever'");
      expect(response).toContain('the server went away before it answered');
      // Far from the two-minute timeout; the figure is printed for the report.
      console.log(`${name}: failed ${seconds.toFixed(2)} s after the kill`);
      expect(seconds).toBeLessThan(30);
    }, 60_000);
  }

  it('Streamable HTTP, the session gone mid-call (a replica died behind a balancer): one resume, refused with 404, fails the call', async () => {
    const remote = await startRemote(['http', '--resumable', '--forget']);
    const ep = await endpoint(reply.calls({ name: 'remote__wait_forever', args: {} }), reply.text('noted the failure'));
    const ws = workspace();
    ws.settings({
      mcp: { excluded: ['filesystem', 'shell', 'web', 'memory'] },
      mcpServers: { remote: { httpUrl: `http://127.0.0.1:${remote.port}/mcp`, trust: true, timeout: TIMEOUT_MS } },
    });
    const t0 = Date.now();
    const r = await runHost(['-p', 'wait for it'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('noted the failure');
    const response = JSON.stringify(ep.requestsOf('streamGenerateContent').at(-1)!.body);
    expect(response).toContain('the server went away before it answered');
    // A 404 says the session is gone for good: no second try after the SDK's longer back-off.
    const resumes = remote.stderr().match(/resume refused/g)?.length ?? 0;
    console.log(
      `session gone mid-call: ${resumes} resume(s) refused, run took ${((Date.now() - t0) / 1000).toFixed(2)} s`,
    );
    expect(resumes).toBe(1);
  }, 60_000);
});
