import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { type RequestBody, systemText } from '../../helpers/request-body.js';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

describe("a cloned repository's context file links", () => {
  const endpoint = scriptedEndpoints();

  it('a GEMINI.md linking out of the project is not sent to the model; links inside it and the user’s own global links still load', async () => {
    const ws = workspace();
    ws.settings(ONLY('memory'));
    // The user's secret, and their dotfiles repository holding the global GEMINI.md.
    mkdirSync(join(ws.home, '.ssh'));
    writeFileSync(join(ws.home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-7f3a\n');
    mkdirSync(join(ws.home, 'dotfiles'));
    writeFileSync(join(ws.home, 'dotfiles', 'GEMINI.md'), 'Global rule from dotfiles.\n');
    symlinkSync(join(ws.home, 'dotfiles', 'GEMINI.md'), join(ws.home, '.gemini', 'GEMINI.md'));
    // The repository: its root AGENTS.md points at the key; app/GEMINI.md points at a file of the repository.
    mkdirSync(join(ws.cwd, '.git'));
    symlinkSync(join(ws.home, '.ssh', 'id_rsa'), join(ws.cwd, 'AGENTS.md'));
    ws.file('docs/rules.md', 'Project rule from docs.\n');
    mkdirSync(join(ws.cwd, 'app'));
    symlinkSync('../docs/rules.md', join(ws.cwd, 'app', 'GEMINI.md'));
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'hi', '-d'], { ws: { ...ws, cwd: join(ws.cwd, 'app') }, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const sent = systemText(ep.requestsOf('streamGenerateContent')[0]!.body as RequestBody);
    expect(sent).toContain('Project rule from docs.');
    expect(sent).toContain('Global rule from dotfiles.');
    expect(sent).not.toContain('PRIVATE-KEY-7f3a');
    expect(r.stderr).toContain(`context file ${join(ws.cwd, 'AGENTS.md')} is not loaded`);
  });
});
