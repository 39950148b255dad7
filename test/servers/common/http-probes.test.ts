import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { connectHttp, startHttpServer } from './http-server.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('health, readiness and metrics over HTTP', () => {
  it('/healthz and /readyz answer 200 without the token; /mcp still wants it', async () => {
    process.env.TEAM_PROBE_TOKEN = 'sekrit-probe-token';
    const srv = await startHttpServer(
      ENTRY.filesystem,
      ['--root', tempDir(), '--token-env', 'TEAM_PROBE_TOKEN'],
      children,
    );
    const health = await fetch(`${srv.base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe('ok\n');
    const ready = await fetch(`${srv.base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toBe('ready\n');
    const mcp = await fetch(srv.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(mcp.status).toBe(401);
    await mcp.text();
  });

  it('/metrics counts sessions, calls by tool and outcome and their latency, and names no path or argument', async () => {
    const root = tempDir();
    const secretName = 'secret-plans-7f3a.txt';
    writeFileSync(join(root, secretName), 'hello');
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', root], children);
    const client = await connectHttp(srv.url);
    for (let i = 0; i < 3; i++) {
      const ok = await client.callTool({ name: 'read_file', arguments: { absolute_path: join(root, secretName) } });
      expect(ok.isError).toBeFalsy();
    }
    const bad = await client.callTool({
      name: 'read_file',
      arguments: { absolute_path: join(root, 'missing-9c1.txt') },
    });
    expect(bad.isError).toBe(true);
    // A made-up tool name must not become a label.
    await client.callTool({ name: 'invented_tool_x', arguments: {} }).catch(() => undefined);

    const res = await fetch(`${srv.base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const line = (re: RegExp) => text.split('\n').find((l) => re.test(l));
    console.log(
      [
        line(/^mcp_sessions\{/),
        line(/^mcp_tool_calls_total\{.*read_file.*outcome="ok"/),
        line(/^mcp_tool_calls_total\{.*read_file.*outcome="tool_error"/),
        line(/^mcp_tool_call_duration_seconds_count\{.*read_file/),
        line(/^mcp_tool_calls_in_flight\{/),
      ].join('\n'),
    );
    expect(line(/^mcp_sessions\{/)).toMatch(/ 1$/);
    expect(line(/^mcp_tool_calls_total\{.*tool="read_file".*outcome="ok"/)).toMatch(/ 3$/);
    expect(line(/^mcp_tool_calls_total\{.*tool="read_file".*outcome="tool_error"/)).toMatch(/ 1$/);
    expect(line(/^mcp_tool_call_duration_seconds_count\{.*tool="read_file"/)).toMatch(/ 4$/);
    expect(line(/^mcp_tool_calls_in_flight\{/)).toMatch(/ 0$/);
    expect(text).not.toContain('invented_tool_x');
    expect(text).not.toContain(secretName);
    expect(text).not.toContain(root);
    await client.close();
  });
});
