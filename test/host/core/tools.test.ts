import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, workspace, scriptedEndpoints } from '../../helpers/run-host.js';

type Body = { contents: { role: string; parts: Record<string, any>[] }[] };
const lastParts = (b: Body) => b.contents.at(-1)!.parts;

describe('headless tool loop with the real filesystem server', () => {
  const ws = workspace();
  ws.settings(ONLY('filesystem'));
  ws.file('src/a.ts', 'export const a = 1; // TODO: rename\n');
  ws.file('src/b.ts', 'export const b = 2;\n');
  ws.file('notes.md', 'no todo here\n');
  const endpoint = scriptedEndpoints();

  it('multi-turn: glob → grep → answer, each result sent back as a function response', async () => {
    const ep = await endpoint(
      reply.calls({ id: 'g1', name: 'filesystem__glob', args: { pattern: '**/*.ts' } }),
      reply.calls({ id: 's1', name: 'filesystem__search_file_content', args: { pattern: 'TODO' } }),
      reply.text('One TODO, in ', 'src/a.ts.'),
    );
    const r = await runHost(['-p', 'find the TODOs in ts files'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('One TODO, in src/a.ts.\n');
    const reqs = ep.requestsOf('streamGenerateContent');
    expect(reqs).toHaveLength(3);
    const names = reqs[0]!.body.tools[0].functionDeclarations.map((d: { name: string }) => d.name);
    expect(names).toEqual(
      expect.arrayContaining(['filesystem__glob', 'filesystem__search_file_content', 'filesystem__read_file']),
    );
    expect(reqs[0]!.body.systemInstruction.parts[0].text).toContain('`filesystem__glob`');
    const glob = lastParts(reqs[1]!.body)[0]!.functionResponse;
    expect(glob).toMatchObject({ id: 'g1', name: 'filesystem__glob' });
    expect(glob.response.output).toContain(join(ws.cwd, 'src/a.ts'));
    expect(glob.response.output).toContain(join(ws.cwd, 'src/b.ts'));
    // the model turn with the call is replayed unchanged in history
    expect(reqs[2]!.body.contents.map((c: { role: string }) => c.role)).toEqual([
      'user',
      'model',
      'user',
      'model',
      'user',
    ]);
    const grep = lastParts(reqs[2]!.body)[0]!.functionResponse;
    expect(grep).toMatchObject({ id: 's1', name: 'filesystem__search_file_content' });
    expect(grep.response.output).toContain('TODO: rename');
  });

  it('parallel read-only calls are answered in one user content, in call order', async () => {
    const ep = await endpoint(
      reply.calls(
        { id: 'r1', name: 'filesystem__read_file', args: { absolute_path: join(ws.cwd, 'src/b.ts') } },
        { id: 'r2', name: 'filesystem__read_file', args: { absolute_path: join(ws.cwd, 'src/a.ts') } },
        { id: 'r3', name: 'filesystem__list_directory', args: { path: ws.cwd } },
      ),
      reply.text('read them'),
    );
    const r = await runHost(['-p', 'read', '-o', 'stream-json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const parts = lastParts(ep.requestsOf('streamGenerateContent')[1]!.body);
    expect(parts.map((p) => p.functionResponse.id)).toEqual(['r1', 'r2', 'r3']);
    expect(parts[0]!.functionResponse.response.output).toContain('export const b = 2;');
    expect(parts[1]!.functionResponse.response.output).toContain('TODO: rename');
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.type === 'tool_use').map((e) => e.tool_id)).toEqual(['r1', 'r2', 'r3']);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.status)).toEqual([
      'success',
      'success',
      'success',
    ]);
  });

  it('a mutating call is declined in headless default mode; the model is told and the run still succeeds', async () => {
    const target = join(ws.cwd, 'declined.txt');
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: target, content: 'x' } }),
      reply.text('I could not write it.'),
    );
    const r = await runHost(['-p', 'write a file', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(target)).toBe(false);
    const fr = lastParts(ep.requestsOf('streamGenerateContent')[1]!.body)[0]!.functionResponse;
    expect(fr.id).toBe('w1');
    expect(fr.response.error).toMatch(/requires user confirmation|denied/);
    const out = JSON.parse(r.stdout);
    expect(out.response).toBe('I could not write it.');
    expect(out.stats.tools).toMatchObject({ totalCalls: 1, totalFail: 1 });
  });

  it.each([
    ['--yolo', ['-y']],
    ['--approval-mode auto_edit', ['--approval-mode', 'auto_edit']],
  ])('a mutating call is approved with %s', async (label, flags) => {
    const target = join(ws.cwd, `approved-${label.length}.txt`);
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: target, content: 'written\n' } }),
      reply.text('Wrote it.'),
    );
    const r = await runHost(['-p', 'write a file', ...flags], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe('written\n');
    const fr = lastParts(ep.requestsOf('streamGenerateContent')[1]!.body)[0]!.functionResponse;
    expect(fr.response.output).toBeDefined();
  });

  it('tool errors go to stderr in text mode and back to the model', async () => {
    const ep = await endpoint(
      reply.calls({ id: 'e1', name: 'filesystem__read_file', args: { absolute_path: join(ws.cwd, 'missing.txt') } }),
      reply.text('It does not exist.'),
    );
    const r = await runHost(['-p', 'read missing'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^Error executing tool filesystem__read_file: .*missing\.txt/m);
    expect(lastParts(ep.requestsOf('streamGenerateContent')[1]!.body)[0]!.functionResponse.response.error).toContain(
      'missing.txt',
    );
  });

  it('@path injects file content through read_many_files', async () => {
    const ep = await endpoint(reply.text('Seen.'));
    const r = await runHost(['-p', 'explain @src/a.ts please'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const parts = ep.requests[0]!.body.contents[0].parts;
    expect(parts[0].text).toBe('explain @src/a.ts please');
    expect(parts[1].text).toContain('--- Content from referenced files ---');
    expect(parts[1].text).toContain('TODO: rename');
    expect(parts[1].text).toContain('--- End of content ---');
  });

  it('@tool({...}) is a passive call: shown, not sent to the model', async () => {
    const ep = await endpoint();
    const r = await runHost(['-p', '@filesystem__glob({"pattern":"**/*.md"})'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('notes.md');
    expect(ep.requests).toHaveLength(0);
  });
});
