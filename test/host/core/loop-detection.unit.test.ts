import { describe, expect, it } from 'vitest';
import type { ServerGeminiStreamEvent } from '../../../host/core/events.js';
import {
  CONTENT_CHUNK_SIZE,
  CONTENT_LOOP_THRESHOLD,
  LoopDetector,
  TOOL_CALL_LOOP_THRESHOLD,
} from '../../../host/core/loop-detection.js';

const call = (name: string, args: Record<string, unknown>): ServerGeminiStreamEvent => ({
  type: 'tool_call_request',
  value: { callId: 'c', name, args, isClientInitiated: false, promptId: 'p' },
});
const text = (value: string): ServerGeminiStreamEvent => ({ type: 'content', value });
/** The index (1-based) of the first event that reports a loop, or 0. */
function firstLoop(d: LoopDetector, events: ServerGeminiStreamEvent[]): number {
  for (let i = 0; i < events.length; i++) if (d.check(events[i]!)) return i + 1;
  return 0;
}

describe('tool call loops', () => {
  it(`the ${TOOL_CALL_LOOP_THRESHOLD}th identical call in a row is a loop, with a message naming it`, () => {
    const d = new LoopDetector();
    for (let i = 1; i < TOOL_CALL_LOOP_THRESHOLD; i++)
      expect(d.check(call('read_file', { path: 'a' }))).toBeUndefined();
    expect(d.check(call('read_file', { path: 'a' }))).toEqual({
      kind: 'tool_call',
      message: `Loop detected: the model called read_file with the same arguments ${TOOL_CALL_LOOP_THRESHOLD} times in a row. The turn was stopped.`,
    });
  });

  it('argument key order does not make calls different; nested values do', () => {
    const d = new LoopDetector();
    const events = Array.from({ length: TOOL_CALL_LOOP_THRESHOLD }, (_, i) =>
      call('f', i % 2 ? { a: 1, b: { x: [1, 2], y: 2 } } : { b: { y: 2, x: [1, 2] }, a: 1 }),
    );
    expect(firstLoop(d, events)).toBe(TOOL_CALL_LOOP_THRESHOLD);
    const e = new LoopDetector();
    expect(
      firstLoop(
        e,
        Array.from({ length: 10 }, (_, i) => call('f', { a: { n: i % 2 } })),
      ),
    ).toBe(0);
  });

  it('a different call in between restarts the count', () => {
    const d = new LoopDetector();
    const same = call('ls', { dir: '.' });
    const events = [same, same, same, same, call('ls', { dir: 'src' }), same, same, same, same];
    expect(firstLoop(d, events)).toBe(0);
    expect(d.check(same)).toBeDefined();
  });
});

describe('content loops', () => {
  const sentence = 'The build failed again so I will try the same fix. '; // 51 characters
  it('the same sentence streamed over and over is a loop', () => {
    const d = new LoopDetector();
    let at = 0;
    let found: ReturnType<LoopDetector['check']>;
    while (!found && at < 30) {
      found = d.check(text(sentence));
      at++;
    }
    expect(found).toEqual({
      kind: 'content',
      message: 'Loop detected: the model kept repeating the same text. The turn was stopped.',
    });
    // Ten occurrences of a chunk, give or take the chunk straddling two sentences.
    expect(at).toBeGreaterThanOrEqual(CONTENT_LOOP_THRESHOLD);
    expect(at).toBeLessThanOrEqual(CONTENT_LOOP_THRESHOLD + 1);
  });

  it('distinct items that share a long phrase (a numbered walk-through) are not a loop', () => {
    const d = new LoopDetector();
    const lines = Array.from(
      { length: 40 },
      (_, i) => `Now we run step ${i} of the deployment pipeline carefully and check its output. `,
    );
    expect(firstLoop(d, lines.map(text))).toBe(0);
  });

  it('repeats inside a code fence, or in list, table and heading lines, are not analysed', () => {
    const d = new LoopDetector();
    const code = ['```\n', ...Array.from({ length: 30 }, () => `${sentence}\n`), '```\n'];
    const list = Array.from({ length: 30 }, () => `- ${sentence}\n`);
    const table = Array.from({ length: 30 }, () => `| ${sentence} |\n`);
    expect(firstLoop(d, [...code, ...list, ...table].map(text))).toBe(0);
  });

  it('a structured line resets the tracking: repeats split by it are counted afresh', () => {
    const d = new LoopDetector();
    const events: ServerGeminiStreamEvent[] = [];
    for (let i = 0; i < 6; i++) events.push(text(`${sentence}${sentence}${sentence}\n`), text('# heading\n'));
    expect(firstLoop(d, events)).toBe(0);
  });

  it('a tool call resets the content tracking', () => {
    const d = new LoopDetector();
    const events: ServerGeminiStreamEvent[] = [];
    for (let i = 0; i < 6; i++) events.push(text(sentence.repeat(5)), call('f', { i }));
    expect(firstLoop(d, events)).toBe(0);
  });

  it('repeats spread far apart are prose, not a stuck model', () => {
    const d = new LoopDetector();
    // Words that never repeat: about 330 characters between two occurrences of the sentence.
    const filler = (i: number) => `${Array.from({ length: 40 }, (_, j) => `w${i}x${j}`).join(' ')} `;
    const events = Array.from({ length: 12 }, (_, i) => text(`${sentence}${filler(i)}`));
    expect(firstLoop(d, events)).toBe(0);
  });

  it('text shorter than one chunk is never a loop; other event types are ignored', () => {
    const d = new LoopDetector();
    const short = 'ok. '.repeat(1);
    expect(short.length).toBeLessThan(CONTENT_CHUNK_SIZE);
    expect(firstLoop(d, [text(short), { type: 'thought', value: { subject: 's', description: 'd' } } as never])).toBe(
      0,
    );
  });

  it('a very long answer keeps working (the tracked text is bounded) and still catches a late loop', () => {
    const d = new LoopDetector();
    const prose = Array.from({ length: 300 }, (_, i) => text(`Sentence number ${i} says something new here. `));
    expect(firstLoop(d, prose)).toBe(0);
    expect(
      firstLoop(
        d,
        Array.from({ length: 30 }, () => text(sentence)),
      ),
    ).toBeGreaterThan(0);
  });
});
