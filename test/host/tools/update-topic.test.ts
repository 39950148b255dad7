import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

type Part = { functionResponse?: { name: string; response: Record<string, unknown> } };
type Body = { contents: { parts: Part[] }[]; tools?: { functionDeclarations?: { name: string }[] }[] };

describe("Gemini CLI's update_topic", () => {
  const endpoint = scriptedEndpoints();

  it('is offered in every session and answers as Gemini CLI 0.61 does, so a recording that calls it replays', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const ep = await endpoint(
      reply.calls({
        id: 't1',
        name: 'update_topic',
        args: { title: 'Researching Parser', summary: 'Looking at the tests.', strategic_intent: 'Reproduce the bug.' },
      }),
      reply.calls({ id: 't2', name: 'update_topic', args: { strategic_intent: 'Read the tokenizer.' } }),
      reply.text('Done.'),
    );
    const r = await runHost(['-p', 'investigate'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Done.');
    const requests = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    const declared = requests[0]!.tools?.flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name) ?? [];
    expect(declared).toContain('update_topic');
    const answer = (b: Body) =>
      JSON.stringify(b.contents.at(-1)!.parts.find((p) => p.functionResponse)!.functionResponse!.response);
    expect(answer(requests[1]!)).toContain(
      'Current topic: \\"Researching Parser\\"\\nTopic summary: Looking at the tests.\\n\\nStrategic Intent: Reproduce the bug.',
    );
    expect(answer(requests[2]!)).toContain('Strategic Intent: Read the tokenizer.');
  });
});
