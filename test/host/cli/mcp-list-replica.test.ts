import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { ONLY, runHost, workspace } from '../../helpers/run-host.js';
import { startHttpServer } from '../../servers/common/http-server.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('mcp list and replicated remote servers', () => {
  it('shows the replica id a remote server sends, and nothing for one that sends none', async () => {
    const ws = workspace();
    const replica = await startHttpServer(ENTRY.filesystem, ['--root', ws.cwd, '--replica-id', 'eu-west-2'], children);
    ws.settings({ ...ONLY('memory'), mcpServers: { team: { httpUrl: replica.url } } });
    const list = await runHost(['mcp', 'list'], { ws });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      /✓ team \(http: http:\/\/127\.0\.0\.1:\d+\/mcp\) - Connected \(replica eu-west-2\), \d+ tools/,
    );
  });
});
