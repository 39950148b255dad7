#!/usr/bin/env node
// Host-core benchmark (issue 5): host ready with the 5 built-in servers, per-call overhead of
// scheduler + client manager beside a direct SDK client call, idle RSS of host + servers.
// Runs against dist/ (build first). Bounded: a handful of start-ups and ~1,200 trivial calls.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bundleModule } from '../bundle.mjs';
import { median } from './_stats.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
// The host's modules, bundled from source for this process (the build emits only the bins).
const lib = (p) =>
  pathToFileURL(bundleModule(join(REPO, p), join(REPO, 'dist/bench', p.replace(/[/.]/g, '_') + '.mjs'))).href;
const { createHostRuntime } = await import(lib('host/core/runtime.ts'));
const { resolveServers } = await import(lib('host/config/settings.ts'));
const { loadSettings } = await import(lib('host/load-settings.ts'));

const READY_RUNS = 5;
const CALLS = 300;
const TARGET_READY_MS = 400;
const TARGET_OVERHEAD_MS = 1;
// Issue 43 item 5: the host's round trip of a trivial call ≤ 1.3 × a direct SDK client's.
const TARGET_CALL_RATIO = 1.3;
const TARGET_RSS_MIB = 260;

const root = mkdtempSync(join(tmpdir(), 'gmc-bench-'));
const ws = join(root, 'ws');
const home = join(root, 'home');
mkdirSync(join(ws, '.gemini'), { recursive: true });
mkdirSync(join(home, '.gemini'), { recursive: true });
// The workspace's own settings (the discovery bridge below) apply only in a trusted folder.
writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws]: 'TRUST_FOLDER' }));
writeFileSync(join(ws, 'tools.json'), JSON.stringify([{ name: 'noop', description: 'Does nothing.' }]));
writeFileSync(join(ws, 'small.txt'), 'hello\n');
writeFileSync(
  join(ws, '.gemini', 'settings.json'),
  JSON.stringify({
    tools: { discoveryCommand: `cat ${join(ws, 'tools.json')}`, callCommand: 'true' },
  }),
);
const env = { ...process.env, GEMINI_CLI_HOME: home };
const fmt = (n, d = 1) => n.toFixed(d);
const verdict = (ok) => (ok ? 'PASS' : 'MISS');
const vmRssKiB = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
};

async function hostReady() {
  const t0 = performance.now();
  const rt = await createHostRuntime({ cwd: ws, env, interactive: false });
  // From the second run on the servers' listings are cached and they would wait, idle, for a first call.
  await rt.manager.connectAll();
  const ms = performance.now() - t0;
  const states = rt.manager.states();
  const down = states.filter((s) => s.status !== 'connected');
  if (states.length !== 5 || down.length) {
    throw new Error(
      `expected 5 connected servers, got ${states.map((s) => `${s.alias}:${s.status} ${s.error ?? ''}`).join(', ')}`,
    );
  }
  return { rt, ms };
}

/**
 * Baseline: the same 5 server entries spawned and connected with bare SDK clients, in parallel.
 */
async function directReady() {
  const configs = resolveServers(loadSettings({ cwd: ws, env }), {
    cwd: ws,
    roots: [ws],
    projectTempDir: join(root, 'tmp'),
    env,
  });
  const t0 = performance.now();
  const clients = await Promise.all(
    configs.map(async (c) => {
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(new StdioClientTransport({ command: c.command, args: c.args, env: c.env, stderr: 'pipe' }));
      await client.listTools();
      return client;
    }),
  );
  const ms = performance.now() - t0;
  await Promise.all(clients.map((c) => c.close()));
  return ms;
}

// PSS charges each page shared between processes (the node binary's text, shared libraries) to them
// in equal parts, so a sum over processes counts such a page once; RSS counts it in every process.
const pssKiB = (pid) => {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : NaN;
  } catch {
    return NaN;
  }
};

async function idleNodeMemKiB() {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 300));
  const kib = { rss: vmRssKiB(child.pid), pss: pssKiB(child.pid) };
  child.kill();
  return kib;
}

// 1. Ready time (host) and the bare-client baseline, interleaved.
const readyHost = [];
const readyDirect = [];
let keep;
for (let i = 0; i < READY_RUNS; i++) {
  readyDirect.push(await directReady());
  const { rt, ms } = await hostReady();
  readyHost.push(ms);
  if (i === READY_RUNS - 1) keep = rt;
  else await rt.close();
}

// 2. Idle RSS of host + servers.
await new Promise((r) => setTimeout(r, 500));
const serverPids = keep.manager
  .states()
  .map((s) => keep.manager.pid(s.alias))
  .filter(Boolean);
const pids = [['host', process.pid], ...keep.manager.states().map((s) => [s.alias, keep.manager.pid(s.alias)])];
const perProcess = pids.map(([n, pid]) => [n, vmRssKiB(pid), pssKiB(pid)]);
const rssKiB = perProcess.reduce((a, [, k]) => a + k, 0);
const pssSumKiB = perProcess.reduce((a, [, , k]) => a + k, 0);
const entries = keep.manager
  .states()
  .map((s) => s.config.args?.[0] ?? '')
  .filter(Boolean);
const bundled = entries.filter((e) => e.startsWith(join(REPO, 'dist/bin/'))).length;
const bare = await idleNodeMemKiB();
const bareKiB = bare.rss;

// 3. Per-call overhead: scheduler + manager vs a direct SDK client on its own filesystem server.
const fs = keep.manager.states().find((s) => s.alias === 'filesystem').config;
const direct = new Client({ name: 'bench', version: '1' });
await direct.connect(new StdioClientTransport({ command: fs.command, args: fs.args, env: fs.env, stderr: 'pipe' }));
const callArgs = { absolute_path: join(ws, 'small.txt') };
const viaScheduler = [];
const viaDirect = [];
const ac = new AbortController();
let id = 0;
for (let block = 0; block < CALLS / 50 + 1; block++) {
  for (let i = 0; i < 50; i++) {
    let t = performance.now();
    const [call] = await keep.scheduler.schedule(
      [
        {
          callId: `b${id++}`,
          name: 'filesystem__read_file',
          args: callArgs,
          isClientInitiated: false,
          promptId: 'bench',
        },
      ],
      ac.signal,
    );
    if (call.status !== 'success') throw new Error(`scheduler call failed: ${call.response?.error}`);
    const s = performance.now() - t;
    t = performance.now();
    await direct.callTool({ name: 'read_file', arguments: callArgs });
    const d = performance.now() - t;
    if (block > 0) {
      viaScheduler.push(s);
      viaDirect.push(d);
    } // block 0 warms up
  }
}
await direct.close();
await keep.close();
rmSync(root, { recursive: true, force: true });

const readyMs = median(readyHost);
const baseReadyMs = median(readyDirect);
const sMed = median(viaScheduler);
const dMed = median(viaDirect);
const added = sMed - dMed;
const rssMiB = rssKiB / 1024;
const bareMiB = bareKiB / 1024;
console.log('host-core');
console.log(
  `  ready (5 built-in servers connected): median ${fmt(readyMs)} ms over ${READY_RUNS} runs; bare SDK clients ${fmt(baseReadyMs)} ms; ratio ${fmt(readyMs / baseReadyMs, 2)}x; target ${TARGET_READY_MS} ms (${fmt(readyMs / TARGET_READY_MS, 2)} of target) ${verdict(readyMs <= TARGET_READY_MS)}`,
);
console.log(
  `  trivial call: scheduler+manager ${fmt(sMed, 3)} ms, direct SDK ${fmt(dMed, 3)} ms (median of ${viaScheduler.length}); added ${fmt(added, 3)} ms; ratio ${fmt(sMed / dMed, 2)}x (target <= ${TARGET_CALL_RATIO}x and +${TARGET_OVERHEAD_MS} ms) ${verdict(added <= TARGET_OVERHEAD_MS && sMed / dMed <= TARGET_CALL_RATIO)}`,
);
const pssMiB = pssSumKiB / 1024;
console.log(
  `  servers started from: ${bundled}/${entries.length} dist/bin bundles; "host" is this bench process (the host runtime bundled from source, plus the bench's own clients)`,
);
console.log(
  `  idle RSS host + ${serverPids.length} servers: ${fmt(rssMiB)} MiB; bare node process ${fmt(bareMiB)} MiB (ratio ${fmt(rssMiB / (bareMiB * (serverPids.length + 1)), 2)}x of ${serverPids.length + 1} bare processes); target ${TARGET_RSS_MIB} MiB ${verdict(rssMiB <= TARGET_RSS_MIB)}`,
);
console.log(
  `  idle PSS host + ${serverPids.length} servers (shared pages counted once; for information, the target is stated for RSS): ${fmt(pssMiB)} MiB; bare node process PSS ${fmt(bare.pss / 1024)} MiB`,
);
console.log(
  `    per process RSS/PSS (MiB): ${perProcess.map(([n, r, p]) => `${n} ${fmt(r / 1024)}/${fmt(p / 1024)}`).join(', ')}`,
);
