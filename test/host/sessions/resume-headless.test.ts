import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { collect, ONLY, runHost, scriptedEndpoints, spawnHost, workspace } from '../../helpers/run-host.js';
import { waitFor } from '../../helpers/wait.js';

const contentsOf = (req: { body: { contents?: Content[] } }) => req.body.contents ?? [];
const callsIn = (contents: Content[]) => contents.flatMap((c) => (c.parts ?? []).filter((p) => p.functionCall));
const responsesIn = (contents: Content[]) => contents.flatMap((c) => (c.parts ?? []).filter((p) => p.functionResponse));

describe('sessions: headless runs are recorded and resumed', () => {
  const endpoint = scriptedEndpoints();

  it('resume carries the earlier turns, tool calls included; list and delete by number', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('a.txt', 'alpha\n');
    const ep = await endpoint(
      reply.calls({ id: 'g1', name: 'filesystem__glob', args: { pattern: '*.txt' } }),
      reply.text('There is a.txt.'),
      reply.text('Still a.txt.'),
    );
    const first = await runHost(['-p', 'which files are here?', '-o', 'json'], { ws, url: ep.url });
    expect(first.code, first.stderr).toBe(0);
    const firstId = JSON.parse(first.stdout).session_id;

    const list = await runHost(['--list-sessions'], { ws });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`1\\. which files are here\\? \\((just now|\\d+ \\w+ ago)\\) \\[${firstId}\\]`),
    );

    const second = await runHost(['-r', 'latest', '-p', 'and now?', '-o', 'json'], { ws, url: ep.url });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout).session_id).toBe(firstId);
    const sent = contentsOf(ep.requestsOf('streamGenerateContent')[2]!);
    expect(sent.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(sent[0]!.parts![0]!.text).toBe('which files are here?');
    expect(callsIn(sent).map((p) => p.functionCall!.name)).toEqual(['filesystem__glob']);
    expect(JSON.stringify(responsesIn(sent)[0]!.functionResponse!.response)).toContain('a.txt');
    expect(sent[3]!.parts![0]!.text).toBe('There is a.txt.');
    expect(sent[4]!.parts![0]!.text).toBe('and now?');

    // Still one session: the resumed run appended to it.
    const again = await runHost(['--list-sessions'], { ws });
    expect(again.stdout).toContain('(1):');
    const bad = await runHost(['--resume', '7', '-p', 'x'], { ws, url: ep.url });
    expect(bad.code).toBe(42);
    expect(bad.stderr).toContain('No session number 7');
    const del = await runHost(['--delete-session', '1'], { ws });
    expect(del.code, del.stderr).toBe(0);
    expect(del.stdout).toContain(firstId);
    expect((await runHost(['--list-sessions'], { ws })).stdout).toContain('No saved sessions');
  });

  it('an exact session id wins over a list number and a prefix; ids are printed with their controls visible', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const ep = await endpoint(...['a', 'b', 'c', 'd', 'e', 'f'].map((t) => reply.text(t)));
    for (const id of ['abcdef', 'abc', '1', 'zzz']) {
      const r = await runHost(['--session-id', id, '-p', `start ${id}`, '-o', 'json'], { ws, url: ep.url });
      expect(r.code, r.stderr).toBe(0);
    }
    // "1" is a session's id and also the first list position (abcdef): the id wins.
    const one = await runHost(['-r', '1', '-p', 'again', '-o', 'json'], { ws, url: ep.url });
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout).session_id).toBe('1');
    // "abc" is an id and a prefix of "abcdef": not ambiguous.
    const abc = await runHost(['-r', 'abc', '-p', 'again', '-o', 'json'], { ws, url: ep.url });
    expect(abc.code, abc.stderr).toBe(0);
    expect(JSON.parse(abc.stdout).session_id).toBe('abc');

    const hostile = '\x1b]0;owned\x07\x1b[2J';
    for (const args of [
      ['--resume', hostile, '-p', 'x'],
      ['--session-id', hostile, '-p', 'x'],
    ]) {
      const r = await runHost(args, { ws, url: ep.url });
      expect(r.code).toBe(42);
      expect(r.stderr).not.toMatch(/[\x07\x1b]/);
      expect(r.stderr).toContain('\\x1b]0;owned\\x07');
    }
  });

  it('a run killed with SIGKILL mid-turn leaves a session that resumes with every call answered', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('b.txt', 'beta\n');
    const ep = await endpoint(
      reply.calls({ id: 'g1', name: 'filesystem__glob', args: { pattern: '*.txt' } }),
      { ...reply.text('never finishes'), hang: true },
      reply.text('Recovered.'),
    );
    const child = spawnHost(['-p', 'list the files'], { ws, url: ep.url });
    const run = collect(child);
    await waitFor(() => ep.requestsOf('streamGenerateContent').length >= 2, 'the second model request');
    child.kill('SIGKILL');
    const killed = await run.done;
    expect(killed.signal).toBe('SIGKILL');

    const dir = join(defaultProjectTempDir(ws.cwd, {}, ws.home), 'chats');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    // Every line on disk is whole JSON.
    for (const line of readFileSync(join(dir, files[0]!), 'utf8').trim().split('\n'))
      expect(() => JSON.parse(line)).not.toThrow();

    const resumed = await runHost(['--resume', '1', '-p', 'go on'], { ws, url: ep.url });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('Recovered.');
    const sent = contentsOf(ep.requestsOf('streamGenerateContent')[2]!);
    expect(sent[0]!.parts![0]!.text).toBe('list the files');
    const calls = callsIn(sent).map((p) => p.functionCall!.id);
    const answers = responsesIn(sent).map((p) => p.functionResponse!.id);
    expect(calls).toEqual(['g1']);
    expect(answers).toEqual(['g1']);
    expect(sent.at(-1)!.parts!.at(-1)!.text).toBe('go on');
  });
});

describe('sessions started by a custom command', () => {
  const endpoint = scriptedEndpoints();

  it('are titled with the command as typed, not its expanded prompt', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const dir = join(ws.home, '.gemini', 'commands', 'security');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'analyze.toml'), 'prompt = "Please analyze the security of this project in depth."\n');
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', '/security:analyze src'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const list = await runHost(['--list-sessions'], { ws });
    expect(list.stdout).toMatch(/1\. \/security:analyze src \(/);
    expect(list.stdout).not.toContain('Please analyze');
  });
});
