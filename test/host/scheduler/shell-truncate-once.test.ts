import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

type Part = { functionResponse?: { response: { output?: string } } };
type Body = { contents: { parts: Part[] }[] };

describe('long shell output is cut once, by the shell server that holds all of it', () => {
  const endpoint = scriptedEndpoints();

  it('the model gets one notice naming the file that holds the whole output', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY('shell'), tools: { allowed: ['run_shell_command(seq)'] } });
    const ep = await endpoint(
      reply.calls({ id: 's1', name: 'shell__run_shell_command', args: { command: 'seq 1 30000' } }),
      reply.text('Counted.'),
    );
    const r = await runHost(['-p', 'count', '-o', 'stream-json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const sent = ep.requestsOf('streamGenerateContent')[1]!.body as Body;
    const output = sent.contents.at(-1)!.parts.find((p) => p.functionResponse)!.functionResponse!.response.output!;
    expect(output.match(/Output too large/g)).toHaveLength(1);
    const file = /For full output see: (\S+)/.exec(output)![1]!;
    expect(file).toMatch(/run_shell_command_.*\.txt$/);
    // The whole output, not a copy of the cut one.
    const whole = readFileSync(file, 'utf8');
    expect(whole).toContain('\n15000\n');
    expect(whole).toContain('\n30000');
    expect(existsSync(file)).toBe(true);
  });
});
