import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

type Part = { functionResponse?: { name: string; response: { output?: string } } };
type Body = { contents: { parts: Part[] }[] };

/**
 * The issue's own example through the real host, headless: the model runs `npm init`, which asks for a
 * package name. Nobody can answer, so the call ends soon with a result saying the command wanted input
 * (before, npm read end-of-file and quit with its own error), and the turn goes on.
 */
describe.skipIf(process.platform !== 'linux')('a command that asks for input, headless', () => {
  const endpoint = scriptedEndpoints();

  it('npm init: the model is told it wanted input, with the prompt it printed, and nothing is written', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY('shell'), tools: { allowed: ['run_shell_command(npm init)'] } });
    const ep = await endpoint(
      reply.calls({ id: 'n1', name: 'shell__run_shell_command', args: { command: 'npm init' } }),
      reply.text('I will pass --yes instead.'),
    );
    const r = await runHost(['-p', 'set up a package.json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('I will pass --yes instead.');
    const sent = ep.requestsOf('streamGenerateContent')[1]!.body as Body;
    const output = sent.contents.at(-1)!.parts.find((p) => p.functionResponse)!.functionResponse!.response.output!;
    expect(output).toContain(
      'Command was stopped because it wanted input: `npm init` was waiting to read from standard input',
    );
    expect(output).toContain('Below is the output before it was stopped:\nThis utility will walk you through');
    expect(output).toMatch(/package name: \(\S+\)\n<\/untrusted_context>$/);
    expect(existsSync(join(ws.cwd, 'package.json'))).toBe(false);
  }, 120_000);
});
