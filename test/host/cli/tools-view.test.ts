import { describe, expect, it } from 'vitest';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

describe('/tools lists what the model may call', () => {
  const endpoint = scriptedEndpoints();

  it("the shell's tools are listed, but not write_to_shell, which only the chat uses for the user's keys", async () => {
    const ws = workspace();
    ws.settings(ONLY('shell'));
    const ep = await endpoint();
    const r = await runHost(['-p', '/tools'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('shell__run_shell_command');
    expect(r.stdout).toContain('shell__read_background_output');
    expect(r.stdout).not.toContain('write_to_shell');
    expect(ep.requests).toHaveLength(0);
  });
});
