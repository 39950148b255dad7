#!/usr/bin/env node
// What a BeforeTool and an AfterTool hook add to a call (issue 43 item 5: the hook processes and nothing
// more). Two host runtimes in this process, one with a `true` command hook on each event, one without,
// run the same trivial read_file through their schedulers; beside them, two spawns of `bash -c true` fed a
// JSON payload as the hook runner feeds it, from this same process (a spawn's cost grows with the
// spawning process). Interleaved, medians. Target: the hooks add at most their two processes plus
// 0.5 ms per hook run. Runs against dist/ (the host's modules are bundled from source, as host-core does).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleModule } from '../bundle.mjs';
import { median } from './_stats.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const lib = (p) =>
  pathToFileURL(bundleModule(join(REPO, p), join(REPO, 'dist/bench', p.replace(/[/.]/g, '_') + '.mjs'))).href;
const { createHostRuntime } = await import(lib('host/core/runtime.ts'));

const CALLS = Number(process.env.BENCH_HOOK_CALLS ?? 150);
const WARMUP = 10;
const TARGET_PER_HOOK_MS = 0.5;

const root = mkdtempSync(join(tmpdir(), 'gmc-bench-hooks-'));
const ws = join(root, 'ws');
mkdirSync(ws, { recursive: true });
const file = join(ws, 'small.txt');
writeFileSync(file, 'hello\n');

async function runtime(name, settings) {
  const home = join(root, name);
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings));
  writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws]: 'TRUST_FOLDER' }));
  const env = { ...process.env, GEMINI_CLI_HOME: home };
  const rt = await createHostRuntime({ cwd: ws, env, interactive: false });
  await rt.manager.connectAll();
  return { rt, env };
}

const hook = { matcher: '.*', hooks: [{ type: 'command', command: 'true' }] };
const hooked = await runtime('hooked', { hooks: { BeforeTool: [hook], AfterTool: [hook] } });
const plain = await runtime('plain', {});
const ac = new AbortController();
let id = 0;
const call = async (rt) => {
  const [c] = await rt.scheduler.schedule(
    [
      {
        callId: `h${id++}`,
        name: 'filesystem__read_file',
        args: { absolute_path: file },
        isClientInitiated: false,
        promptId: 'bench',
      },
    ],
    ac.signal,
  );
  if (c.status !== 'success') throw new Error(`call failed: ${JSON.stringify(c.response?.error ?? c.status)}`);
};
const bareHook = () =>
  new Promise((resolve, reject) => {
    const c = spawn('bash', ['-c', 'true'], {
      cwd: ws,
      env: hooked.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    c.on('error', reject);
    c.stdin.on('error', () => undefined);
    c.stdin.end(
      JSON.stringify({ hook_event_name: 'BeforeTool', tool_name: 'read_file', tool_input: { absolute_path: file } }),
    );
    c.stdout.on('data', () => undefined);
    c.on('close', resolve);
  });
const timed = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

try {
  // The subdirectory-context answer is reused only once the file has been quiet for a clock tick of the file system (two seconds covers every kind).
  const settle = 2_100 - (Date.now() - statSync(file).ctimeMs);
  if (settle > 0) await new Promise((r) => setTimeout(r, settle));
  const withHooks = [];
  const without = [];
  const bare = [];
  for (let i = 0; i < CALLS + WARMUP; i++) {
    const a = await timed(() => call(hooked.rt));
    const b = await timed(() => call(plain.rt));
    const h = await timed(async () => {
      await bareHook();
      await bareHook();
    });
    if (i < WARMUP) continue;
    withHooks.push(a);
    without.push(b);
    bare.push(h);
  }
  const added = median(withHooks) - median(without);
  const beyond = (added - median(bare)) / 2;
  console.log(
    `hooks-call: read_file through the scheduler, median of ${CALLS}: with a BeforeTool and an AfterTool hook ${median(withHooks).toFixed(2)} ms, without ${median(without).toFixed(2)} ms`,
  );
  console.log(
    `hooks-call: the hooks add ${added.toFixed(2)} ms; two bare hook processes take ${median(bare).toFixed(2)} ms; beyond the processes ${beyond.toFixed(2)} ms per hook run (target <= ${TARGET_PER_HOOK_MS} ms) ${beyond <= TARGET_PER_HOOK_MS ? 'PASS' : 'MISS'}`,
  );
} finally {
  await hooked.rt.close();
  await plain.rt.close();
  rmSync(root, { recursive: true, force: true });
}
