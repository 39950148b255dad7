import { appendFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { listSessions, loadSession } from '../../../host/sessions/store.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

/** Records of the wrong shape, each of a different kind; the line numbers they land on are checked. */
const MALFORMED = [
  { type: 'content', time: 't', content: { role: 'user', parts: {} } }, // parts not a list: "find is not a function"
  { type: 'content', time: 't', content: { role: 'user', parts: [{ text: 42 }] } },
  { type: 'content', time: 't' },
  { type: 'replace', time: 't', reason: 'r', history: 'not a list' },
  { type: 'replace', time: 't', reason: 'r', history: [{ parts: [null] }] },
  { type: 'session', version: 1, id: 7 },
  { type: 'surprise' },
  { type: 'content', time: 't', content: { role: 'model', parts: [{ functionCall: { args: {} } }] } },
  42,
  null,
  ['an', 'array'],
];

describe('sessions: a record of the wrong shape is skipped and named, the rest stays usable', () => {
  const endpoint = scriptedEndpoints();

  it('--list-sessions and --resume work, each bad record named by line on stderr', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const ep = await endpoint(reply.text('first answer'), reply.text('second answer'));
    const first = await runHost(['-p', 'remember this', '-o', 'json'], { ws, url: ep.url });
    expect(first.code, first.stderr).toBe(0);
    const dir = join(defaultProjectTempDir(ws.cwd, {}, ws.home), 'chats');
    const [name] = readdirSync(dir);
    const file = join(dir, name!);
    appendFileSync(file, `${MALFORMED.map((r) => JSON.stringify(r)).join('\n')}\n`);
    // Plus a second session file whose header itself is wrong: named, not listed.
    writeFileSync(join(dir, 'session-broken.jsonl'), `${JSON.stringify({ type: 'session', id: [] })}\n`);

    const list = await runHost(['--list-sessions'], { ws });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('1. remember this');
    expect(list.stdout).toContain('(1):');
    expect(list.stderr).toContain(`${file}: ${MALFORMED.length} records of the wrong shape skipped`);
    // The header, the prompt and the answer are lines 1–3; the bad records follow.
    for (let line = 4; line < 4 + MALFORMED.length; line++) expect(list.stderr).toContain(`line ${line} (`);
    expect(list.stderr).toContain('"content.parts"');
    expect(list.stderr).toContain('session-broken.jsonl: no usable session header');
    expect(list.stderr).not.toMatch(/is not a function|\n\s+at /);

    const resumed = await runHost(['-r', 'latest', '-p', 'and now?'], { ws, url: ep.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('second answer');
    expect(resumed.stderr).toContain('records of the wrong shape skipped');
    const sent = (ep.requestsOf('streamGenerateContent')[1]!.body.contents ?? []) as Content[];
    expect(sent.map((c) => c.parts![0]!.text)).toEqual(['remember this', 'first answer', 'and now?']);
  });

  it('the store API gives the skipped lines and keeps the good records', async () => {
    const ws = workspace();
    const temp = defaultProjectTempDir(ws.cwd, {}, ws.home);
    const dir = join(temp, 'chats');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    const header = { type: 'session', version: 1, id: 'abc', startTime: 'x', cwd: ws.cwd, model: 'm', kind: 'chat' };
    const good = { type: 'content', time: 't', content: { role: 'user', parts: [{ text: 'hello there' }] } };
    writeFileSync(
      join(dir, 'session-abc.jsonl'),
      [header, MALFORMED[0], good, MALFORMED[3]].map((r) => JSON.stringify(r)).join('\n'),
    );
    const [info] = listSessions(temp);
    expect(info!.title).toBe('hello there');
    expect(info!.skipped.map((s) => s.slice(0, 7))).toEqual(['line 2 ', 'line 4 ']);
    expect(loadSession(temp, 'abc').history).toEqual([good.content]);
  });
});
