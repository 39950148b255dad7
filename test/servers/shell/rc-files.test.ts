import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { type StdioServer, startStdioServer, textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';

describe("a command does not run the user's ~/.bashrc", () => {
  const servers: StdioServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('even started from a top-level shell (SHLVL 0), where bash takes a socket stdin for a remote login', async () => {
    const home = tempDir('rc-home-');
    const ws = tempDir('rc-ws-');
    mkdirSync(home, { recursive: true });
    const marker = join(ws, 'bashrc-ran');
    // A slow, noisy rc file, as people's are (pyenv, nvm, conda): it must not run, print or cost anything.
    writeFileSync(join(home, '.bashrc'), `echo "hello from bashrc"\ntouch ${marker}\n`);
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', ws], env: { HOME: home, SHLVL: '0' } });
    servers.push(srv);
    const r = await srv.client.callTool({ name: 'run_shell_command', arguments: { command: 'echo done' } });
    const text = textOf(r);
    expect(text).toContain('done');
    expect(text).not.toContain('hello from bashrc');
    expect(existsSync(marker)).toBe(false);
  });
});
