import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runToolsCommand } from '../../host/cli/tools-subcommand.js';
import { createHostRuntime } from '../../host/core/runtime.js';
import type { ConfirmationRequest } from '../../host/scheduler/types.js';
import { REPO } from '../helpers/paths.js';
import { workspace } from '../host/scheduler/scheduler-workspace.js';

const FIXTURES = join(REPO, 'test/fixtures/discovery');

function sink(): Writable & { text: () => string } {
  let buf = '';
  const w = new Writable({
    write(chunk, _enc, cb) {
      buf += chunk.toString();
      cb();
    },
  });
  return Object.assign(w, { text: () => buf });
}

/** A workspace whose settings name the fixture discovery and call commands, built-ins off. */
function discoveryWorkspace() {
  const ws = workspace([]);
  writeFileSync(
    join(ws.dir, '.gemini', 'settings.json'),
    JSON.stringify({
      mcp: { excluded: ['filesystem', 'shell', 'web', 'memory'] },
      tools: { discoveryCommand: `${join(FIXTURES, 'discover.sh')} bare`, callCommand: join(FIXTURES, 'call.sh') },
    }),
  );
  return ws;
}

describe('discovered tools through the host', () => {
  const ws = discoveryWorkspace();

  async function tools(argv: string[]) {
    const stdout = sink();
    const stderr = sink();
    const code = await runToolsCommand(argv, { cwd: ws.dir, env: ws.env, stdout, stderr });
    return { code, out: stdout.text(), err: stderr.text() };
  }

  it('exposes the bridge as alias "discovered"', async () => {
    const r = await tools(['list']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('discovered__hello');
  });

  it('denies a discovered tool headless unless allowed, and runs it with --yolo', async () => {
    const denied = await tools(['call', 'discovered__hello', JSON.stringify({ who: 'ada' })]);
    expect(denied.code).toBe(1);
    const ok = await tools(['call', 'discovered__hello', JSON.stringify({ who: 'ada' }), '--yolo']);
    expect(ok).toMatchObject({ code: 0, out: 'hello ada\n' });
  });

  it('reports a failing discovered tool in the bridge format', async () => {
    const r = await tools(['call', 'discovered__fail3', '{}', '--yolo']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('Exit Code: 3');
  });

  it('asks before running a discovered tool in interactive mode', async () => {
    const asked: ConfirmationRequest[] = [];
    const rt = await createHostRuntime({
      cwd: ws.dir,
      env: ws.env,
      interactive: true,
      confirmer: { confirm: async (req) => (asked.push(req), { decision: 'proceed_once' }) },
    });
    try {
      await rt.manager.whenSettled();
      const [call] = await rt.scheduler.schedule(
        [{ callId: 'd1', name: 'discovered__hello', args: { who: 'bob' }, isClientInitiated: false, promptId: 'p' }],
        new AbortController().signal,
      );
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ source: 'pre-call', tool: { serverAlias: 'discovered', toolName: 'hello' } });
      expect(call.status).toBe('success');
      expect(JSON.stringify(call.response?.responseParts)).toContain('hello bob');
    } finally {
      await rt.close();
    }
  });
});
