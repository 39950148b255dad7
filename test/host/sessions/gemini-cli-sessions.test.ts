import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { geminiCli, runGeminiCliAgainst } from '../../helpers/gemini-cli.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

/** One model turn of Gemini CLI's --fake-responses script. */
const turn = (parts: unknown[]) =>
  JSON.stringify({
    method: 'generateContentStream',
    response: [{ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }] }],
  });

/** Gemini CLI 0.61 run headless in the workspace, offline: its own session recording is the point. */
function runGeminiCli(entry: string, ws: { home: string; cwd: string }, args: string[], script?: string[]) {
  const fake = join(ws.home, 'gemini-cli-script.jsonl');
  if (script) writeFileSync(fake, `${script.join('\n')}\n`);
  const r = spawnSync(process.execPath, [entry, ...args, ...(script ? ['--fake-responses', fake] : [])], {
    cwd: ws.cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, HOME: ws.home, GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', CI: '' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function sessionFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /chats\/session-.*\.jsonl$/.test(f));
}

/** Gemini CLI 0.61's entry; outside CI, undefined (with a warning) when it cannot be installed here. */
function geminiCliOrSkip(): string | undefined {
  const { entry, why } = geminiCli();
  if (!entry && !process.env.CI) return void console.warn(`Gemini CLI comparison skipped: ${why}`);
  expect(entry, why).toBeDefined();
  return entry;
}

describe("Gemini CLI 0.61's recorded sessions", () => {
  const endpoint = scriptedEndpoints();

  it('are listed and resumed here, with their tool calls; their files stay as Gemini CLI wrote them', {
    timeout: 240_000,
  }, async () => {
    const entry = geminiCliOrSkip();
    if (!entry) return;
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('notes.txt', 'hello notes\n');
    const asked = runGeminiCli(
      entry,
      ws,
      ['-m', 'gemini-2.5-flash', '--skip-trust', '-p', 'what do the notes say?'],
      [
        turn([{ functionCall: { name: 'read_file', args: { file_path: 'notes.txt' } } }]),
        turn([{ text: 'They say hello.' }]),
      ],
    );
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain('They say hello.');
    const tmp = join(ws.home, '.gemini', 'tmp');
    const [theirs] = sessionFilesUnder(tmp).map((f) => join(tmp, f));
    expect(theirs).toBeDefined();
    const theirText = readFileSync(theirs!, 'utf8');
    const theirId = JSON.parse(theirText.split('\n')[0]!).sessionId as string;

    // Their folder is read as other programs' files are: a FIFO there is passed over, never waited on.
    const fifo = join(dirname(theirs!), 'session-2026-11-29T00-00-fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    const list = await runHost(['--list-sessions'], { ws });
    expect(list.code, list.stderr).toBe(0);
    // (Gemini CLI itself would wait on it for ever when it lists its sessions.)
    unlinkSync(fifo);
    expect(list.stdout).toMatch(
      new RegExp(`1\\. what do the notes say\\? \\((just now|\\d+ \\w+ ago), Gemini CLI\\) \\[${theirId}\\]`),
    );

    const ep = await endpoint(reply.text('Still hello.'));
    const resumed = await runHost(['-r', 'latest', '-p', 'and now?', '-o', 'json'], { ws, url: ep.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout).response).toBe('Still hello.');
    const ourId = JSON.parse(resumed.stdout).session_id as string;
    expect(ourId).not.toBe(theirId);
    const sent = ep.requestsOf('streamGenerateContent')[0]!.body.contents as Content[];
    expect(sent.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(sent[0]!.parts).toEqual([{ text: 'what do the notes say?' }]);
    // Gemini CLI's read_file is our filesystem server's, so the model goes on with the tools it has here.
    expect(sent[1]!.parts![0]!.functionCall).toMatchObject({
      name: 'filesystem__read_file',
      args: { file_path: 'notes.txt' },
    });
    expect(sent[2]!.parts![0]!.functionResponse).toMatchObject({
      name: 'filesystem__read_file',
      response: { output: 'hello notes\n' },
    });
    expect(sent[3]!.parts).toEqual([{ text: 'They say hello.' }]);
    expect(sent[4]!.parts).toEqual([{ text: 'and now?' }]);
    expect(readFileSync(theirs!, 'utf8')).toBe(theirText);

    // The continuation is a session of ours, titled as the conversation began.
    const after = await runHost(['--list-sessions'], { ws });
    expect(after.stdout).toContain('(2):');
    expect(after.stdout).toMatch(
      new RegExp(`2\\. what do the notes say\\? \\((just now|\\d+ \\w+ ago)\\) \\[${ourId}\\]`),
    );
    const again = await runHost(['-r', ourId, '-p', 'once more', '-o', 'json'], {
      ws,
      url: (await endpoint(reply.text('ok'))).url,
    });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).session_id).toBe(ourId);

    const del = await runHost(['--delete-session', '1'], { ws });
    expect(del.code).toBe(42);
    expect(del.stderr).toContain('recorded by Gemini CLI');
    expect(readFileSync(theirs!, 'utf8')).toBe(theirText);

    // Gemini CLI still lists its own session, and now ours too (gemini-cli-mirror.ts), each once.
    const theirList = runGeminiCli(entry, ws, ['--list-sessions', '--skip-trust']);
    expect(theirList.code, theirList.stderr).toBe(0);
    expect(theirList.stdout).toContain('(2):');
    expect(theirList.stdout).toContain(theirId);
    expect(theirList.stdout).toContain(ourId);
  });

  it('see ours: Gemini CLI lists a session recorded here and continues it with its history', {
    timeout: 240_000,
  }, async () => {
    const entry = geminiCliOrSkip();
    if (!entry) return;
    const ws = workspace();
    // Gemini CLI sends to GOOGLE_GEMINI_BASE_URL with an API key only when told that is the sign-in.
    ws.settings({ ...ONLY('filesystem'), security: { auth: { selectedType: 'gemini-api-key' } } });
    ws.file('a.ts', 'export const a = 1;\n');
    // The user has run Gemini CLI here before: it has its folder for the project.
    expect(runGeminiCli(entry, ws, ['--list-sessions', '--skip-trust']).code).toBe(0);

    const ep = await endpoint(
      reply.calls({ id: 'g1', name: 'filesystem__glob', args: { pattern: '*.ts' } }),
      reply.text('There is a.ts.'),
    );
    const ours = await runHost(['-p', 'which files are here?', '-o', 'json'], { ws, url: ep.url });
    expect(ours.code, ours.stderr).toBe(0);
    const ourId = JSON.parse(ours.stdout).session_id as string;

    const listed = runGeminiCli(entry, ws, ['--list-sessions', '--skip-trust']);
    expect(listed.stdout).toMatch(new RegExp(`1\\. which files are here\\? \\(.*\\) \\[${ourId}\\]`));

    const theirEp = await endpoint(reply.text('Still just a.ts.'));
    const went = await runGeminiCliAgainst(entry, ws, theirEp.url, [
      '--skip-trust',
      '-r',
      'latest',
      '-p',
      'any others?',
    ]);
    expect(went.code, went.stderr).toBe(0);
    expect(went.stdout).toContain('Still just a.ts.');
    // What Gemini CLI sent: our conversation, the call under its own name, then its new message.
    const sent = theirEp.requestsOf('streamGenerateContent')[0]!.body.contents as Content[];
    const texts = sent.flatMap((c) => (c.parts ?? []).map((p) => p.text ?? ''));
    expect(texts).toContain('which files are here?');
    expect(texts).toContain('There is a.ts.');
    expect(texts.at(-1)).toBe('any others?');
    const call = sent.flatMap((c) => c.parts ?? []).find((p) => p.functionCall)?.functionCall;
    expect(call).toMatchObject({ name: 'glob', args: { pattern: '*.ts' } });
    const answer = sent.flatMap((c) => c.parts ?? []).find((p) => p.functionResponse)?.functionResponse;
    expect(JSON.stringify(answer?.response)).toContain('a.ts');

    // Here, the session as Gemini CLI went on with it stands for ours (ours was last written before).
    const ourFile = chatsOf(ws.home, ourId);
    utimesSync(ourFile, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const here = await runHost(['--list-sessions'], { ws });
    expect(here.stdout).toContain('(1):');
    expect(here.stdout).toMatch(new RegExp(`1\\. which files are here\\? \\(.*, Gemini CLI\\) \\[${ourId}\\]`));
    const back = await endpoint(reply.text('ok'));
    const resumed = await runHost(['-r', ourId, '-p', 'and now?'], { ws, url: back.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    const again = back.requestsOf('streamGenerateContent')[0]!.body.contents as Content[];
    expect(again.flatMap((c) => (c.parts ?? []).map((p) => p.text ?? ''))).toEqual(
      expect.arrayContaining(['which files are here?', 'any others?', 'Still just a.ts.', 'and now?']),
    );
  });
});

/** The file of session `id` of ours under `home`. */
function chatsOf(home: string, id: string): string {
  const tmp = join(home, '.gemini', 'tmp');
  const file = sessionFilesUnder(tmp).find(
    (f) => f.endsWith(`-${id.slice(0, 8)}.jsonl`) && readFileSync(join(tmp, f), 'utf8').startsWith('{"type":"session"'),
  );
  if (!file) throw new Error(`no session file of ours for ${id}`);
  return join(tmp, file);
}
