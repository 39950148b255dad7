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
