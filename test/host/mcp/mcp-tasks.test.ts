import { describe, expect, it } from 'vitest';
import { allText, everythingHarness } from './everything-helpers.js';

const h = everythingHarness();

describe('task-augmented tool calls (server-everything simulate-research-query)', () => {
  it('a tool that requires tasks runs as a task: created, polled with status, result fetched', async () => {
    const m = await h.started([await h.config('stdio')]);
    const tool = m.state('everything')!.tools.find((t) => t.name === 'simulate-research-query') as {
      execution?: { taskSupport?: string };
    };
    expect(tool.execution?.taskSupport).toBe('required');
    const progress: string[] = [];
    const r = await m.callTool(
      'everything',
      'simulate-research-query',
      { topic: 'tides' },
      { onProgress: (p) => p.message && progress.push(p.message) },
    );
    expect(r.isError).toBeFalsy();
    expect(allText(r)).toMatch(/tides/i);
    expect(progress.some((p) => p.startsWith('task working'))).toBe(true);
  }, 60_000);

  it('aborting the call cancels the task', async () => {
    const m = await h.started([await h.config('stdio')]);
    const ac = new AbortController();
    const p = m
      .callTool('everything', 'simulate-research-query', { topic: 'x' }, { signal: ac.signal })
      .catch((e) => e);
    setTimeout(() => ac.abort(new Error('user pressed Esc')), 500);
    expect((await p).kind).toBe('cancelled');
  }, 60_000);
});
