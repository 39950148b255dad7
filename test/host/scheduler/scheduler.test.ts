import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../helpers/wait.js';
import { ScriptedConfirmer } from '../../helpers/scripted-confirmer.js';
import { tempDir } from '../../helpers/tmp.js';
import { startHarness, statusTrail, type Harness } from './scheduler-harness.js';
import { bundledModule } from '../../helpers/paths.js';

const FIXTURE = bundledModule(fileURLToPath(new URL('./scheduler-fixture-server.mjs', import.meta.url)));

const responseOf = (call: { response?: { responseParts: unknown[] } }) =>
  (call.response!.responseParts[0] as { functionResponse: { response: Record<string, unknown> } }).functionResponse
    .response;

describe('scheduler with a real server', () => {
  const dir = tempDir();
  const logFile = join(dir, 'calls.log');
  const confirmer = new ScriptedConfirmer();
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      servers: [{ alias: 'fx', entry: FIXTURE, args: ['--log', logFile, '--root', dir], builtIn: true }],
      confirmer,
      projectTempDir: dir,
      truncateThreshold: 1_000,
    });
  });
  afterAll(() => h?.close());

  it('runs consecutive read-only calls in parallel (each waits for its peer)', async () => {
    const calls = await h.run([
      { name: 'fx__barrier_read', args: { group: 'g1', id: 'a', peers: 2 } },
      { name: 'fx__barrier_read', args: { group: 'g1', id: 'b', peers: 2 } },
    ]);
    expect(calls.map((c) => c.status)).toEqual(['success', 'success']);
    expect(calls.map((c) => responseOf(c).output)).toEqual(['together:a', 'together:b']);
  });

  it('runs mutating calls one at a time in model order, and a read after a mutation waits for it', async () => {
    h.policy.setApprovalMode('yolo');
    try {
      const calls = await h.run([
        { name: 'fx__mutate', args: { id: 'm1' } },
        { name: 'fx__mutate', args: { id: 'm2' } },
        { name: 'fx__barrier_read', args: { group: 'g2', id: 'r', peers: 1 } },
        { name: 'fx__mutate', args: { id: 'm3' } },
      ]);
      expect(calls.map((c) => c.status)).toEqual(['success', 'success', 'success', 'success']);
      const log = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((l) => /:(m\d|r)$/.test(l));
      expect(log).toEqual(['start:m1', 'end:m1', 'start:m2', 'end:m2', 'start:r', 'end:r', 'start:m3', 'end:m3']);
    } finally {
      h.policy.setApprovalMode('default');
    }
  });

  it('reports unknown tools with close names and invalid arguments with the validator text', async () => {
    const calls = await h.run([
      { name: 'fx__mutat', args: { id: 'x' } },
      { name: 'fx__mutate', args: {} },
      { name: 'fx__mutate', args: { id: 3 } },
    ]);
    expect(calls.map((c) => c.status)).toEqual(['error', 'error', 'error']);
    expect(calls[0].response!.error).toBe('Tool "fx__mutat" not found. Did you mean one of: "fx__mutate"?');
    expect(calls[1].response!.error).toBe("params must have required property 'id'");
    expect(calls[2].response!.error).toBe('params/id must be string');
    expect(responseOf(calls[1])).toEqual({ error: "params must have required property 'id'" });
    expect(readFileSync(logFile, 'utf8')).not.toContain('start:x');
  });

  it('sends the server error text unchanged as {error}', async () => {
    const [call] = await h.run([{ name: 'fx__fail', args: {} }]);
    expect(call.status).toBe('error');
    expect(responseOf(call)).toEqual({ error: 'it broke' });
    expect(call.response!.errorType).toBe('execution_failed');
  });

  it('converts media into inline data parts beside {output}', async () => {
    const [call] = await h.run([{ name: 'fx__media', args: {} }]);
    const parts = call.response!.responseParts;
    expect(parts).toHaveLength(3);
    expect(responseOf(call).output).toBe(
      [
        'see attached',
        "[Tool 'media' provided the following image data with mime-type: image/png]",
        "[Tool 'media' provided the following embedded resource with mime-type: application/pdf]",
        'Resource Link: b.txt at file:///b.txt',
      ].join('\n'),
    );
    expect(parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } });
    expect(parts[2]).toEqual({ inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } });
    expect(call.response!.resultDisplay).toContain('[Image: image/png]');
  });

  it('truncates large output head 20 % / tail 80 % and saves the full text', async () => {
    const [call] = await h.run([{ name: 'fx__big', args: { size: 5_000 } }], undefined);
    const out = responseOf(call).output as string;
    const file = call.response!.outputFile!;
    expect(
      out.startsWith(`Output too large. Showing first 200 and last 800 characters. For full output see: ${file}\n`),
    ).toBe(true);
    expect(out).toContain('\n\n... [4,000 characters omitted] ...\n\n');
    expect(out.endsWith('T'.repeat(800))).toBe(true);
    expect(file.startsWith(join(dir, 'tool-outputs'))).toBe(true);
    expect(readFileSync(file, 'utf8')).toHaveLength(5_000);
    // A tool's declared maximum raises the threshold.
    const [declared] = await h.run([{ name: 'fx__big_declared', args: { size: 5_000 } }]);
    expect((responseOf(declared).output as string).length).toBe(5_000);
    expect(declared.response!.outputFile).toBeUndefined();
  });

  it('cancellation reaches the server and records the 3.5 text', async () => {
    const marker = join(dir, 'hang.marker');
    const ac = new AbortController();
    const pending = h.run(
      [
        { name: 'fx__hang', args: { marker } },
        { name: 'fx__mutate', args: { id: 'after' } },
      ],
      ac.signal,
    );
    await waitFor(() => readFileSync(logFile, 'utf8').includes('start:hang'));
    ac.abort('user pressed Esc');
    const calls = await pending;
    expect(calls.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(responseOf(calls[0])).toEqual({ error: '[Operation Cancelled] User cancelled tool execution.' });
    await waitFor(() => existsSync(marker));
    expect(readFileSync(logFile, 'utf8')).not.toContain('start:after');
  });

  it('an in-call confirmation shows as awaiting_approval; cancel cancels the rest of the batch', async () => {
    confirmer.seen.length = 0;
    const calls = await h.run([
      { name: 'fx__confirm_exec', args: { command: 'deploy now' }, callId: 'k1' },
      { name: 'fx__confirm_exec', args: { command: 'deploy later' }, callId: 'k2' },
    ]);
    expect(calls.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(responseOf(calls[0])).toEqual({ error: '[Operation Cancelled] Reason: User denied execution.' });
    expect(responseOf(calls[1])).toEqual({ error: 'User cancelled operation' });
    expect(confirmer.seen).toHaveLength(1);
    expect(confirmer.seen[0]).toMatchObject({
      source: 'elicitation',
      callId: 'k1',
      detail: { kind: 'exec', command: 'deploy now', callId: 'k1' },
    });
    expect(statusTrail(h.events, 'k1')).toEqual([
      'validating',
      'scheduled',
      'executing',
      'awaiting_approval',
      'cancelled',
    ]);
    expect(readFileSync(logFile, 'utf8')).not.toContain('ran:deploy');
  });

  it('proceed once runs the call; always-tool is remembered and the next call is pre-approved', async () => {
    confirmer.seen.length = 0;
    const answers = new ScriptedConfirmer({ decision: 'proceed_once' }, { decision: 'proceed_always', scope: 'tool' });
    h.scheduler.setConfirmer(answers);
    try {
      const calls = await h.run([
        { name: 'fx__confirm_exec', args: { command: 'one' }, callId: 'p1' },
        { name: 'fx__confirm_exec', args: { command: 'two' }, callId: 'p2' },
        { name: 'fx__confirm_exec', args: { command: 'three' }, callId: 'p3' },
      ]);
      expect(calls.map((c) => c.status)).toEqual(['success', 'success', 'success']);
      expect(answers.seen.map((r) => r.callId)).toEqual(['p1', 'p2']);
      expect(statusTrail(h.events, 'p1')).toEqual([
        'validating',
        'scheduled',
        'executing',
        'awaiting_approval',
        'executing',
        'success',
      ]);
      expect(statusTrail(h.events, 'p3')).toEqual(['validating', 'scheduled', 'executing', 'success']);
      expect(readFileSync(logFile, 'utf8')).toContain('ran:three');
    } finally {
      h.scheduler.setConfirmer(confirmer);
    }
  });
});

describe('scheduler: third-party untrusted server asks before the call', () => {
  const dir = tempDir();
  let h: Harness;
  const everything = fileURLToPath(
    new URL('../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
  );
  const confirmer = new ScriptedConfirmer();

  beforeAll(async () => {
    h = await startHarness({
      servers: [{ alias: 'everything', entry: everything, args: ['stdio'] }],
      confirmer,
      projectTempDir: dir,
    });
  });
  afterAll(() => h?.close());

  it('asks with a pre-call request; cancel → cancelled without a call', async () => {
    confirmer.seen.length = 0;
    const [call] = await h.run([{ name: 'everything__echo', args: { message: 'hi' }, callId: 'e1' }]);
    expect(call.status).toBe('cancelled');
    expect(confirmer.seen[0]).toMatchObject({ source: 'pre-call', callId: 'e1', args: { message: 'hi' } });
    expect(statusTrail(h.events, 'e1')).toEqual(['validating', 'scheduled', 'awaiting_approval', 'cancelled']);
  });

  it('always-server allows every tool of that server afterwards; text is fenced as untrusted', async () => {
    h.scheduler.setConfirmer(new ScriptedConfirmer({ decision: 'proceed_always', scope: 'server' }));
    const [a, b] = await h.run([
      { name: 'everything__echo', args: { message: 'hi' } },
      { name: 'everything__get-sum', args: { a: 2, b: 3 } },
    ]);
    expect([a.status, b.status]).toEqual(['success', 'success']);
    expect(responseOf(a).output).toBe('<untrusted_context>\nEcho: hi\n</untrusted_context>');
    expect(responseOf(b).output).toContain('5');
  });

  it('headless: the ask is a denial with the reference text', async () => {
    const headless = await startHarness({
      servers: [{ alias: 'everything', entry: everything, args: ['stdio'] }],
      policy: { interactive: false },
      projectTempDir: dir,
    });
    try {
      const [call] = await headless.run([{ name: 'everything__echo', args: { message: 'hi' } }]);
      expect(call.status).toBe('error');
      expect(call.response!.error).toBe(
        'Tool execution for "everything__echo" requires user confirmation, which is not supported in non-interactive mode.',
      );
    } finally {
      await headless.close();
    }
  });
});
