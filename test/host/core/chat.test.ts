import { afterAll, describe, expect, it } from 'vitest';
import { chunk, reply, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, workspace } from '../../helpers/run-host.js';

const RETRY_INFO = (delay: string) => ({
  details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: delay }],
});

describe('headless chat through the real SDK (no tools)', () => {
  const ws = workspace();
  ws.settings(ONLY());
  const endpoints: { close(): Promise<void> }[] = [];
  afterAll(() => Promise.all(endpoints.map((e) => e.close())));
  const endpoint = async (...args: Parameters<typeof startScriptedGemini>) => {
    const ep = await startScriptedGemini(...args);
    endpoints.push(ep);
    return ep;
  };

  it('streams an answer given in several chunks and sends prompt, system instruction and model', async () => {
    const ep = await endpoint([reply.text('Hello', ', ', 'world', '!')]);
    const r = await runHost(['-p', 'say hi'], { ws, url: ep.url });
    expect(r.stderr).toBe('');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Hello, world!\n');
    const [req] = ep.requestsOf('streamGenerateContent');
    expect(req!.model).toBe('gemini-3-pro-preview');
    expect(req!.body.contents).toEqual([{ role: 'user', parts: [{ text: 'say hi' }] }]);
    expect(req!.body.systemInstruction.parts[0].text).toContain('command-line agent');
    // No servers: only what every Gemini CLI 0.61 session offers: update_topic, (outside plan mode)
    // enter_plan_mode, invoke_agent (its built-in codebase_investigator), and write_todos.
    expect(
      req!.body.tools
        ?.flatMap((t: { functionDeclarations?: { name: string }[] }) => t.functionDeclarations ?? [])
        .map((d: { name: string }) => d.name),
    ).toEqual(['update_topic', 'write_todos', 'invoke_agent', 'enter_plan_mode']);
  });

  it('stream-json emits one delta per chunk', async () => {
    const ep = await endpoint([reply.text('a', 'b', 'c')]);
    const r = await runHost(['-p', 'x', '-o', 'stream-json', '-m', 'gemini-2.0-flash'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.type)).toEqual(['init', 'message', 'message', 'message', 'message', 'result']);
    expect(lines[0]).toMatchObject({ model: 'gemini-2.0-flash' });
    expect(lines.filter((l) => l.role === 'assistant').map((l) => [l.content, l.delta])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
    ]);
    expect(lines[5]).toMatchObject({
      status: 'success',
      stats: { total_tokens: 15, input_tokens: 10, output_tokens: 5 },
    });
    expect(ep.requests[0]!.model).toBe('gemini-2.0-flash');
  });

  it('appends -p to piped stdin', async () => {
    const ep = await endpoint([reply.text('ok')]);
    const r = await runHost(['-p', 'summarise this'], { ws, url: ep.url, stdin: 'line one\nline two\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(ep.requests[0]!.body.contents[0].parts[0].text).toBe('line one\nline two\n\nsummarise this');
  });

  it('retries a 429 after the RetryInfo delay and tells the user', async () => {
    const ep = await endpoint([
      reply.error(429, 'Resource has been exhausted', RETRY_INFO('0.3s')),
      reply.text('after retry'),
    ]);
    const r = await runHost(['-p', 'x'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('after retry\n');
    expect(r.stderr).toMatch(/\[429\] Resource has been exhausted\); retrying in 0\.\ds \(attempt 2 of 10\)/);
    const [a, b] = ep.requestsOf('streamGenerateContent');
    expect(b!.time - a!.time).toBeGreaterThanOrEqual(300);
  });

  it('retries 5xx and gives up after general.maxAttempts with exit 1', async () => {
    const ws2 = workspace();
    ws2.settings({ ...ONLY(), general: { maxAttempts: 3 } });
    const ep = await endpoint([
      reply.error(503, 'overloaded'),
      reply.error(500, 'boom'),
      reply.error(503, 'still overloaded'),
      reply.text('never'),
    ]);
    const r = await runHost(['-p', 'x', '-o', 'json'], { ws: ws2, url: ep.url });
    expect(r.code, r.stderr).toBe(1);
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(3);
    const out = JSON.parse(r.stdout);
    expect(out.error).toMatchObject({ type: 'ApiError', code: 1 });
    expect(out.error.message).toContain('still overloaded');
  });

  it('never retries a 400', async () => {
    const ep = await endpoint([reply.error(400, 'Invalid JSON payload'), reply.text('never')]);
    const r = await runHost(['-p', 'x'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('[400] Invalid JSON payload');
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(1);
  });

  it('a malformed stream is an error, not a hang or a crash', async () => {
    const ep = await endpoint([
      { method: 'generateContentStream', raw: 'data: {"candidates": [ this is not json\n\n' },
    ]);
    const r = await runHost(['-p', 'x', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).error.type).toBe('ApiError');
  });

  it('an empty response is retried with a nudge; persistent emptiness fails with exit 1', async () => {
    const empty = { method: 'generateContentStream', response: [chunk([{ text: '' }], true)] };
    const ep = await endpoint([empty, reply.text('now with text')]);
    const r = await runHost(['-p', 'x'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('now with text\n');
    const second = ep.requestsOf('streamGenerateContent')[1]!.body.contents;
    expect(second).toHaveLength(1); // the empty model turn is never stored
    expect(second[0].parts.at(-1).text).toMatch(/provide a response/);

    const ep2 = await endpoint([empty, empty, empty, empty]);
    const r2 = await runHost(['-p', 'x'], { ws, url: ep2.url });
    expect(r2.code, r2.stderr).toBe(1);
    expect(r2.stderr).toContain('NO_RESPONSE_TEXT');
    expect(ep2.requestsOf('streamGenerateContent')).toHaveLength(4);
    // Each retry nudges once: the nudge goes on a copy of the request, never into the stored prompt.
    const nudges = ep2
      .requestsOf('streamGenerateContent')
      .map((q) => q.body.contents[0].parts.filter((p: { text?: string }) => /provide a response/.test(p.text ?? '')));
    expect(nudges.map((n) => n.length)).toEqual([0, 1, 1, 1]);
  });

  it('thoughts are shown as events but never stored or printed', async () => {
    const ep = await endpoint([
      {
        method: 'generateContentStream',
        response: [chunk([{ text: '**Planning** think', thought: true }]), chunk([{ text: 'answer' }], true)],
      },
    ]);
    const r = await runHost(['-p', 'x', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).response).toBe('answer');
  });

  it('the next-speaker check continues with "Please continue." when enabled', async () => {
    const ws3 = workspace();
    ws3.settings({ ...ONLY(), model: { skipNextSpeakerCheck: false } });
    const ep = await endpoint([
      reply.text('I will now list the files.'),
      reply.json({ reasoning: 'announced an action', next_speaker: 'model' }),
      reply.text('Done listing.'),
      reply.json({ reasoning: 'complete', next_speaker: 'user' }),
    ]);
    const r = await runHost(['-p', 'go', '-o', 'json'], { ws: ws3, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).response).toBe('Done listing.');
    const streams = ep.requestsOf('streamGenerateContent');
    expect(streams).toHaveLength(2);
    expect(streams[1]!.body.contents.at(-1)).toEqual({ role: 'user', parts: [{ text: 'Please continue.' }] });
    const checks = ep.requestsOf('generateContent');
    expect(checks).toHaveLength(2);
    expect(checks[0]!.body.generationConfig.responseMimeType).toBe('application/json');
    expect(checks[0]!.body.contents.at(-1).parts[0].text).toContain('next_speaker');
  });

  it('stops at model.maxSessionTurns with exit 53', async () => {
    const ws4 = workspace();
    ws4.settings({ ...ONLY(), model: { maxSessionTurns: 2 } });
    let n = 0;
    const ep = await endpoint([], { responder: () => reply.calls({ id: `c${++n}`, name: 'nope__missing' }) });
    const r = await runHost(['-p', 'loop', '-o', 'json'], { ws: ws4, url: ep.url });
    expect(r.code, r.stderr).toBe(53);
    expect(JSON.parse(r.stdout).error).toMatchObject({ type: 'FatalTurnLimitedError', code: 53 });
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(2);
  });

  it('stops after 100 model turns for one prompt with exit 53', async () => {
    let n = 0;
    const ep = await endpoint([], {
      responder: () => reply.calls({ id: `c${++n}`, name: 'nope__missing', args: { attempt: n } }),
    });
    const r = await runHost(['-p', 'loop'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(53);
    expect(r.stderr).toContain('limit of 100 model turns');
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(100);
    // each unknown-tool call was answered for the model
    expect(ep.requests[1]!.body.contents[2].parts[0].functionResponse.response.error).toMatch(
      /Tool "nope__missing" not found/,
    );
  });
});
