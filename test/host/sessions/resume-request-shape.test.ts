import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

/*
 * The contents a resumed session sends are built without copying what needs no change (plain contents go
 * to the request as they are: mergeAdjacent, and the SDK conversion's fast path in scripts/bundle-plugins.mjs).
 * The request must still be exactly the SDK's: the same fields in the same order, unknown fields and null
 * ones dropped, function calls converted, adjacent turns of one role merged.
 */
const RECORDED = [
  { role: 'user', parts: [{ text: 'Read the notes.' }] },
  {
    role: 'model',
    parts: [
      { text: 'Reading.', thoughtSignature: 'sig-a' },
      { functionCall: { name: 'read_file', args: { path: 'notes.txt' }, id: 'c1' }, thoughtSignature: 'sig-b' },
    ],
  },
  { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'alpha' } } }] },
  { role: 'model', parts: [{ thoughtSignature: 'sig-c', text: 'Out of order.' }] },
  {
    role: 'user',
    parts: [
      { text: 'Look.', extra: 'not a field of a part' },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
    ],
  },
  {
    role: 'model',
    parts: [
      { text: 'Thinking.', thought: true },
      { text: 'Seen.', thoughtSignature: null },
    ],
  },
  { role: 'model', parts: [{ text: 'And more.' }] },
];

/** What the SDK sends for RECORDED and the new prompt, as JSON text (so the order of fields counts too). */
const EXPECTED = [
  '{"parts":[{"text":"Read the notes."}],"role":"user"}',
  '{"parts":[{"text":"Reading.","thoughtSignature":"sig-a"},' +
    '{"functionCall":{"args":{"path":"notes.txt"},"id":"c1","name":"read_file"},"thoughtSignature":"sig-b"}],"role":"model"}',
  '{"parts":[{"functionResponse":{"id":"c1","name":"read_file","response":{"output":"alpha"}}}],"role":"user"}',
  '{"parts":[{"text":"Out of order.","thoughtSignature":"sig-c"}],"role":"model"}',
  '{"parts":[{"text":"Look."},{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}],"role":"user"}',
  '{"parts":[{"text":"Thinking.","thought":true},{"text":"Seen."},{"text":"And more."}],"role":"model"}',
  '{"parts":[{"text":"Go on."}],"role":"user"}',
];

describe('sessions: a resumed session sends its history as the SDK converts it', () => {
  const endpoint = scriptedEndpoints();

  it('fields in the SDK order, unknown and null fields dropped, calls converted, same-role turns merged', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const chats = join(defaultProjectTempDir(ws.cwd, {}, ws.home), 'chats');
    mkdirSync(chats, { recursive: true });
    const header = {
      type: 'session',
      version: 1,
      id: 'mixed-parts',
      startTime: '2026-01-01T00:00:00.000Z',
      cwd: ws.cwd,
      model: 'gemini-2.5-flash',
      kind: 'headless',
    };
    const lines = [header, ...RECORDED.map((content) => ({ type: 'content', time: header.startTime, content }))];
    writeFileSync(
      join(chats, 'session-2026-01-01T00-00-00-mixed.jsonl'),
      lines.map((r) => `${JSON.stringify(r)}\n`).join(''),
    );

    const ep = await endpoint(reply.text('Going on.'));
    const r = await runHost(['-r', 'mixed-parts', '-p', 'Go on.'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Going on.\n');
    const [req] = ep.requestsOf('streamGenerateContent');
    // The endpoint parsed the body as it arrived: its objects keep the order of the fields sent.
    expect(req!.body.contents.map((c: unknown) => JSON.stringify(c))).toEqual(EXPECTED);
  });
});
