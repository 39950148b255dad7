import { describe, expect, it } from 'vitest';
import { LoopDetector, TOOL_CALL_LOOP_THRESHOLD } from '../../../host/core/loop-detection.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

const glob = (id: string, pattern = '*.txt') => reply.calls({ id, name: 'filesystem__glob', args: { pattern } });
const call = (name: string, args: Record<string, unknown>) =>
  ({ type: 'tool_call_request', value: { callId: 'x', name, args, isClientInitiated: false, promptId: 'p' } }) as const;

describe('loop detection', () => {
  const endpoint = scriptedEndpoints();

  it('the same call with the same arguments five times stops the run: non-zero exit, "Loop detected"', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('a.txt', 'a\n');
    const ep = await endpoint(glob('c1'), glob('c2'), glob('c3'), glob('c4'), glob('c5'), reply.text('never reached'));
    const r = await runHost(['-p', 'look around', '-o', 'json'], { ws, url: ep.url });
    expect(r.code).not.toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.error.message).toMatch(/Loop detected: .*filesystem__glob.*5 times/);
    // The fifth identical call was never run.
    expect(out.stats.tools.totalCalls).toBe(4);
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(5);
  });

  it('text: a repeated chunk stops the turn; model.disableLoopDetection turns detection off', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const same = Array.from({ length: 40 }, () => 'I am going to check the configuration file once more. ');
    const ep = await endpoint(reply.text(...same));
    const r = await runHost(['-p', 'check'], { ws, url: ep.url });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Loop detected: the model kept repeating the same text');

    const off = workspace();
    off.settings({ ...ONLY('filesystem'), model: { disableLoopDetection: true } });
    off.file('a.txt', 'a\n');
    const ep2 = await endpoint(
      glob('c1'),
      glob('c2'),
      glob('c3'),
      glob('c4'),
      glob('c5'),
      glob('c6'),
      reply.text(...same),
    );
    const ok = await runHost(['-p', 'look around', '-o', 'json'], { ws: off, url: ep2.url });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).stats.tools.totalCalls).toBe(6);
  });

  it('differing arguments, key order, code blocks and lists are not loops', () => {
    const d = new LoopDetector();
    for (let i = 0; i < 10; i++) expect(d.check(call('t', { n: i }))).toBeUndefined();
    const e = new LoopDetector();
    for (let i = 0; i < TOOL_CALL_LOOP_THRESHOLD - 1; i++)
      expect(e.check(call('t', i % 2 ? { a: 1, b: 2 } : { b: 2, a: 1 }))).toBeUndefined();
    expect(e.check(call('t', { a: 1, b: 2 }))?.kind).toBe('tool_call');
    const code = new LoopDetector();
    const line = '    console.log("the same line of code, over and over again");\n';
    expect(code.check({ type: 'content', value: `\`\`\`js\n${line.repeat(40)}\`\`\`\n` })).toBeUndefined();
    const list = new LoopDetector();
    expect(
      list.check({ type: 'content', value: '- the same list item text that repeats a lot here\n'.repeat(40) }),
    ).toBeUndefined();
  });

  it('sentences that share a phrase but differ (a numbered walk-through) are not a loop; a true repeat is', () => {
    const stream = (d: LoopDetector, parts: string[]) => parts.map((value) => d.check({ type: 'content', value }));
    const items = Array.from(
      { length: 60 },
      (_, i) => `Chunk ${i} of a **streamed** answer with \`code\` and more words.\n\n`,
    );
    expect(stream(new LoopDetector(), items).filter(Boolean)).toEqual([]);
    // Two sentences alternating forever: few distinct periods, a loop.
    const two = Array.from({ length: 40 }, (_, i) =>
      i % 2 ? 'Let me look at the settings file again to be sure. ' : 'Checking the settings file now, one more time. ',
    );
    expect(stream(new LoopDetector(), two).find(Boolean)?.kind).toBe('content');
  });
});
