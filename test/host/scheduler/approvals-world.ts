import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { createHostRuntime, type HostRuntime, type HostRuntimeOptions } from '../../../host/core/runtime.js';
import type { ConfirmationRequest, ToolCall } from '../../../host/scheduler/types.js';
import { ScriptedConfirmer } from '../../helpers/scripted-confirmer.js';
import { startScriptedGemini, type ScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';

// Shared by the approvals end-to-end files: the real runtime, the real built-in servers and a
// third-party server, a temp workspace and GEMINI_CLI_HOME, and a recording confirmer that also checks,
// at the moment it is asked, that nothing has happened yet.
export const BUILT_INS = ['filesystem', 'shell', 'web', 'memory'];
/** The scripted Gemini endpoint and a local web page, started by `useApprovalWorld` for a test file. */
export const world = {
  gemini: undefined as unknown as ScriptedGemini,
  site: undefined as unknown as { url: string; hits: string[]; close: () => Promise<void> },
};
let seq = 0;

export function useApprovalWorld(): void {
  beforeAll(startWorld);
  afterAll(async () => {
    await world.gemini?.close();
    await world.site?.close();
  });
}

async function startWorld(): Promise<void> {
  world.gemini = await startScriptedGemini([], {
    responder: (r) =>
      r.method === 'generateContent'
        ? {
            method: 'generateContent',
            response: {
              candidates: [
                { content: { role: 'model', parts: [{ text: 'scripted summary' }] }, finishReason: 'STOP', index: 0 },
              ],
            },
          }
        : undefined,
  });
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('local page body\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  world.site = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export interface Env {
  rt: HostRuntime;
  dir: string;
  home: string;
  confirmer: ScriptedConfirmer;
  run(name: string, args: Record<string, unknown>): Promise<ToolCall>;
  batch(calls: Array<[string, Record<string, unknown>]>): Promise<ToolCall[]>;
}

/** A runtime over a fresh workspace; user settings carry `settings` and exclude unused built-ins. */
export function runtime(
  keep: string[],
  settings: () => Record<string, unknown>,
  opts: Partial<HostRuntimeOptions> = {},
): Env {
  const root = tempDir('gmc-appr-');
  const dir = join(root, 'ws');
  const home = join(root, 'home');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(dir, { recursive: true });
  const excluded = BUILT_INS.filter((a) => !keep.includes(a));
  const confirmer = new ScriptedConfirmer();
  const env: Env = {
    rt: undefined as unknown as HostRuntime,
    dir,
    home,
    confirmer,
    run: async (name, args) => (await env.batch([[name, args]]))[0],
    batch: (calls) =>
      env.rt.scheduler.schedule(
        calls.map(([name, args]) => ({ callId: `c${++seq}`, name, args, isClientInitiated: false, promptId: 'p' })),
        new AbortController().signal,
      ),
  };
  beforeAll(async () => {
    // Written here: settings may name the scripted endpoint, which starts in the file's beforeAll.
    writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify({ ...settings(), mcp: { excluded } }));
    env.rt = await createHostRuntime({
      cwd: dir,
      interactive: true,
      confirmer,
      env: {
        ...process.env,
        GEMINI_CLI_HOME: home,
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: world.gemini.url,
        GOOGLE_API_KEY: '',
      },
      ...opts,
    });
    await env.rt.manager.whenSettled();
    for (const alias of keep) expect(env.rt.manager.state(alias)?.status, alias).toBe('connected');
  });
  afterAll(() => env.rt?.close());
  return env;
}

export const output = (c: ToolCall) =>
  (c.response?.responseParts[0]?.functionResponse?.response ?? {}) as { output?: string; error?: string };
export const editDetail = (r: ConfirmationRequest) => {
  expect(r.source).toBe('elicitation');
  if (r.source !== 'elicitation') throw new Error('not an elicitation');
  return r.detail;
};
