import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

const systemText = (body: { systemInstruction: { parts: { text: string }[] } }): string =>
  body.systemInstruction.parts[0]!.text;

describe('GEMINI_SYSTEM_MD replaces the core prompt, as in Gemini CLI', () => {
  const endpoint = scriptedEndpoints();

  it("sends the project's .gemini/system.md with its variables filled in, and the context after it", async () => {
    const ws = workspace();
    // The memory server serves the context files.
    ws.settings(ONLY('filesystem', 'memory'));
    ws.file(
      '.gemini/system.md',
      'You are Terse Bot. Read files with ${read_file_ToolName} only.\nTools:\n${AvailableTools}\n',
    );
    ws.file('GEMINI.md', 'Project rule: answer in haiku.\n');
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'hi'], { ws, url: ep.url, env: { GEMINI_SYSTEM_MD: '1' } });
    expect(r.code, r.stderr).toBe(0);
    const text = systemText(ep.requestsOf('streamGenerateContent')[0]!.body);
    expect(text.startsWith('You are Terse Bot. Read files with filesystem__read_file only.\nTools:\n- ')).toBe(true);
    expect(text).toContain('- filesystem__glob');
    expect(text).not.toContain('interactive command-line agent');
    // Memory and context files still come after it.
    expect(text).toContain('Project rule: answer in haiku.');
  });

  it('GEMINI_WRITE_SYSTEM_MD=1 writes the core prompt in use to .gemini/system.md, which GEMINI_SYSTEM_MD=1 then sends', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const ep = await endpoint(reply.text('ok'), reply.text('ok'));
    const wrote = await runHost(['-p', 'hi'], { ws, url: ep.url, env: { GEMINI_WRITE_SYSTEM_MD: '1' } });
    expect(wrote.code, wrote.stderr).toBe(0);
    const written = readFileSync(join(ws.cwd, '.gemini', 'system.md'), 'utf8');
    expect(written).toMatch(/^You are an interactive command-line agent/);
    expect(written).toContain('filesystem__glob');
    // The core only (the session's context is not in it), with the listings as Gemini CLI's variables.
    expect(written).not.toContain('# Environment');
    expect(written.endsWith('\n\n${AgentSkills}\n\n${SubAgents}')).toBe(true);
    const core = written.slice(0, -'\n\n${AgentSkills}\n\n${SubAgents}'.length);
    const sent = systemText(ep.requestsOf('streamGenerateContent')[0]!.body);
    expect(sent.startsWith(`${core}\n\n# Environment`)).toBe(true);
    const used = await runHost(['-p', 'hi'], { ws, url: ep.url, env: { GEMINI_SYSTEM_MD: '1' } });
    expect(used.code, used.stderr).toBe(0);
    const again = systemText(ep.requestsOf('streamGenerateContent')[1]!.body);
    expect(again.startsWith(`${core}\n\n`)).toBe(true);
    expect(again).toContain('# Available Sub-Agents');
  });

  it('a missing file stops the start with its path (exit 52); false keeps the built-in prompt', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const missing = await runHost(['-p', 'hi'], {
      ws,
      url: 'http://127.0.0.1:9',
      env: { GEMINI_SYSTEM_MD: 'nowhere.md' },
    });
    expect(missing.code).toBe(52);
    expect(missing.stderr).toContain(`missing system prompt file '${ws.cwd}/nowhere.md'`);
    const ep = await endpoint(reply.text('ok'));
    const off = await runHost(['-p', 'hi'], { ws, url: ep.url, env: { GEMINI_SYSTEM_MD: 'false' } });
    expect(off.code, off.stderr).toBe(0);
    expect(systemText(ep.requestsOf('streamGenerateContent')[0]!.body)).toContain('interactive command-line agent');
  });
});
