import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { findSplitPoint, SNAPSHOT_ACK } from '../../../host/core/compression.js';
import { chunk, reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

/** Every function call is answered by the very next content, id for id. */
function pairsValid(contents: Content[]): boolean {
  for (let i = 0; i < contents.length; i++) {
    const calls = (contents[i]!.parts ?? []).filter((p) => p.functionCall).map((p) => p.functionCall!.id);
    if (calls.length === 0) continue;
    const answers = (contents[i + 1]?.parts ?? []).filter((p) => p.functionResponse).map((p) => p.functionResponse!.id);
    if (contents[i + 1]?.role !== 'user' || calls.some((id) => !answers.includes(id))) return false;
  }
  for (let i = 0; i < contents.length; i++) {
    const answers = (contents[i]!.parts ?? []).filter((p) => p.functionResponse);
    if (answers.length && !(contents[i - 1]?.parts ?? []).some((p) => p.functionCall)) return false;
  }
  return true;
}

const snapshot = {
  method: 'generateContent',
  response: {
    candidates: [
      {
        content: { role: 'model', parts: [{ text: '<state_snapshot>read big.txt</state_snapshot>' }] },
        finishReason: 'STOP',
        index: 0,
      },
    ],
  },
};

describe('chat compression', () => {
  const endpoint = scriptedEndpoints();

  it('past the threshold the older turns become a snapshot, the recent exchange stays verbatim with its pairs', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('big.txt', 'line of a large file\n'.repeat(400));
    ws.file('small.txt', 'tiny\n');
    const big = {
      method: 'generateContentStream',
      response: [
        chunk(
          [
            {
              functionCall: {
                id: 'c2',
                name: 'filesystem__read_file',
                args: { absolute_path: join(ws.cwd, 'small.txt') },
              },
            },
          ],
          true,
          { promptTokenCount: 600_000, candidatesTokenCount: 5, totalTokenCount: 600_005 },
        ),
      ],
    };
    const ep = await endpoint(
      reply.calls({ id: 'c1', name: 'filesystem__read_file', args: { absolute_path: join(ws.cwd, 'big.txt') } }),
      reply.text('Read it.'),
      big,
      snapshot,
      reply.text('Small one read too.'),
      reply.text('Resumed after compression.'),
    );
    const first = await runHost(['-p', 'read big.txt'], { ws, url: ep.url });
    expect(first.code, first.stderr).toBe(0);
    const second = await runHost(['-r', '-p', 'now read small.txt'], { ws, url: ep.url });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('Small one read too.');
    expect(second.stderr).toMatch(/Chat history compressed: 600000 → \d+ tokens\./);

    const [summaryReq] = ep.requestsOf('generateContent');
    const older = summaryReq!.body.contents as Content[];
    expect(JSON.stringify(older)).toContain('line of a large file');
    expect(pairsValid(older)).toBe(true);
    const after = ep.requestsOf('streamGenerateContent')[3]!.body.contents as Content[];
    expect(after[0]!.parts![0]!.text).toContain('<state_snapshot>');
    expect(after[1]!.parts![0]!.text).toBe(SNAPSHOT_ACK);
    expect(after[2]!.parts![0]!.text).toBe('now read small.txt');
    expect(JSON.stringify(after)).not.toContain('line of a large file');
    expect(pairsValid(after)).toBe(true);
    expect(after.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);

    // The session file holds the replacement, so a resume continues from the compressed history.
    const dir = join(defaultProjectTempDir(ws.cwd, {}, ws.home), 'chats');
    const text = readFileSync(join(dir, readdirSync(dir)[0]!), 'utf8');
    expect(text).toContain('"type":"replace"');
    const third = await runHost(['-r', '-p', 'and?'], { ws, url: ep.url });
    expect(third.code, third.stderr).toBe(0);
    const resumed = ep.requestsOf('streamGenerateContent')[4]!.body.contents as Content[];
    expect(resumed[0]!.parts![0]!.text).toContain('<state_snapshot>');
    expect(pairsValid(resumed)).toBe(true);
  });

  it('the split point never separates a call from its response (random histories)', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 300; round++) {
      const h: Content[] = [];
      const exchanges = 1 + rnd(6);
      for (let e = 0; e < exchanges; e++) {
        h.push({ role: 'user', parts: [{ text: 'q'.repeat(1 + rnd(200)) }] });
        for (let k = rnd(4); k > 0; k--) {
          const id = `c${round}-${e}-${k}`;
          h.push({ role: 'model', parts: [{ functionCall: { id, name: 't', args: {} } }] });
          h.push({
            role: 'user',
            parts: [{ functionResponse: { id, name: 't', response: { output: 'o'.repeat(rnd(2000)) } } }],
          });
        }
        h.push({ role: 'model', parts: [{ text: 'a'.repeat(1 + rnd(300)) }] });
      }
      const split = findSplitPoint(h);
      expect(pairsValid(h.slice(0, split))).toBe(true);
      expect(pairsValid(h.slice(split))).toBe(true);
      if (split < h.length) expect(h[split]!.parts![0]!.text).toBeDefined();
    }
  });
});
