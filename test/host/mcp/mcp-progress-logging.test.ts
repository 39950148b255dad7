import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHostRuntime, type HostRuntime } from '../../../host/core/runtime.js';
import type { SchedulerEvent } from '../../../host/scheduler/types.js';
import { formatProgress } from '../../../host/ui/views/tool-card.js';
import { EVERYTHING } from './everything-helpers.js';
import { workspace } from '../scheduler/scheduler-workspace.js';
import { waitFor } from '../../helpers/wait.js';

const runtimes: HostRuntime[] = [];
afterAll(() => Promise.all(runtimes.map((r) => r.close())));

async function runtime(debug: boolean, logs: string[]) {
  const { dir, env } = workspace([]);
  writeFileSync(
    join(dir, '.gemini', 'settings.json'),
    JSON.stringify({
      mcp: { excluded: ['filesystem', 'shell', 'web', 'memory'] },
      mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], trust: true } },
    }),
  );
  const push = (m: string) => void logs.push(m);
  const log = { debug: push, info: push, warn: push, error: push };
  const rt = await createHostRuntime({ cwd: dir, env, interactive: false, debug, log });
  runtimes.push(rt);
  await rt.manager.whenSettled();
  expect(rt.manager.state('everything')?.status).toBe('connected');
  return rt;
}

describe('progress and server logging', () => {
  it('progress notifications without a message reach the tool card as a percentage', async () => {
    const rt = await runtime(false, []);
    const seen: string[] = [];
    rt.scheduler.on('event', (e: SchedulerEvent) => {
      if (e.type === 'tool_call_update' && e.call.progress) seen.push(formatProgress(e.call.progress));
    });
    const [call] = await rt.scheduler.schedule(
      [
        {
          callId: 'p1',
          name: 'everything__trigger-long-running-operation',
          args: { duration: 0.3, steps: 3 },
          isClientInitiated: false,
          promptId: 'x',
        },
      ],
      new AbortController().signal,
    );
    expect(call!.status).toBe('success');
    // The last notification may arrive after the result (the SDK drops it then); the earlier ones show.
    expect(seen).toEqual(expect.arrayContaining([' · 33%', ' · 66%']));
    expect(formatProgress({ progress: 7 })).toBe(' · step 7');
  });

  it('logging/setLevel follows --debug: debug-level server messages reach the debug log only then', async () => {
    for (const debug of [true, false]) {
      const logs: string[] = [];
      const rt = await runtime(debug, logs);
      // The server sends one random-level message at once, then one every 5 s: sample a bounded number.
      for (let i = 0; i < 3; i++) {
        await rt.manager.callTool('everything', 'toggle-simulated-logging', {});
        await rt.manager.callTool('everything', 'toggle-simulated-logging', {});
      }
      // One more round trip: what the server sent before its answer has been handled once the answer is in.
      await rt.manager.callTool('everything', 'echo', { message: 'flush' });
      if (debug) await waitFor(() => logs.some((l) => l.startsWith('[everything] log ')), 'a server log line');
      const levels = logs.map((l) => /log (\w+):/.exec(l)?.[1]).filter(Boolean);
      if (!debug) expect(levels.filter((l) => ['debug', 'info', 'notice'].includes(l!))).toEqual([]);
      else expect(logs.some((l) => l.startsWith('[everything] log '))).toBe(true);
    }
  });
});
