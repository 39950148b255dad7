#!/usr/bin/env node
// Many clients on one server (issue 43 item 4): 32 MCP clients, each with its own session, over Streamable
// HTTP to one filesystem server, beside the reference server-everything's `echo` under the same 32 clients.
// Two figures, interleaved rounds, medians:
//   1. read_file calls per second (each client calls in a loop) ≥ 0.9 × the reference's echo calls per second;
//   2. a mixed workload (read_file, list_directory, glob, search_file_content in turn, on a 2,000-file tree):
//      its p50 latency ≤ 3 × the reference echo's p50 under the same load.
// A third line gives each server's CPU time per call, which the load of a shared machine moves less.
// Runs against the built dist.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { median } from './_stats.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
// BENCH_SERVER: another build of the server (a copy of main's dist, say) to compare with, interleaved.
const OURS = process.env.BENCH_SERVER ?? join(REPO, 'dist/bin/gemini-mcp-filesystem.cjs');
const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 3000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGETS = { readRate: 0.9, mixedP50: 3 };

for (const f of [OURS, EVERYTHING]) {
  if (!existsSync(f)) {
    console.log(`many-clients: ${f} is missing (npm run build; npm ci)`);
    process.exit(1);
  }
}

const root = mkdtempSync(join(tmpdir(), 'gmc-bench-clients-'));
for (let d = 0; d < 40; d++) {
  mkdirSync(join(root, `dir${d}`), { recursive: true });
  for (let f = 0; f < 50; f++)
    writeFileSync(
      join(root, `dir${d}`, `file${f}.ts`),
      `export const v${f} = ${f};\n${f % 7 ? '' : '// TODO check\n'}`,
    );
}
const small = join(root, 'dir0', 'file1.ts');
const children = [];

function start(args, env, ready) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      const port = ready(err);
      if (port) resolve(port);
    });
    child.on('exit', (code) => reject(new Error(`${args[0]} exited ${code}: ${err.slice(-300)}`)));
  });
}

/**
 * A server's CPU time (user + system, every thread) in ms, from /proc (clock ticks of 10 ms, Linux's
 * usual USER_HZ); undefined elsewhere. CPU per call tells the servers' own costs apart even when the
 * machine is busy and calls per second follow the load.
 */
function cpuMs(child) {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** `round`, with the server's CPU time per call in microseconds (NaN without /proc). */
async function measured(child, cs, next) {
  const before = cpuMs(child);
  const r = await round(cs, next);
  const calls = r.rate * (ROUND_MS / 1000);
  return { ...r, cpuUs: before === undefined ? Number.NaN : ((cpuMs(child) - before) * 1000) / calls };
}

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function clients(port) {
  return Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const c = new Client({ name: 'bench', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      return c;
    }),
  );
}

/** Every client calls `next(i)` in a loop for ROUND_MS; the number of calls and each call's latency. */
async function round(cs, next) {
  const until = performance.now() + ROUND_MS;
  const lat = [];
  let failed = 0;
  await Promise.all(
    cs.map(async (c, ci) => {
      for (let i = ci; performance.now() < until; i++) {
        const { name, args } = next(i);
        const t = performance.now();
        const r = await c.callTool({ name, arguments: args });
        if (r.isError) failed++;
        lat.push(performance.now() - t);
      }
    }),
  );
  if (failed) throw new Error(`${failed} calls failed`);
  return { rate: lat.length / (ROUND_MS / 1000), p50: median(lat) };
}

const MIXED = [
  { name: 'read_file', args: { absolute_path: small } },
  { name: 'list_directory', args: { path: join(root, 'dir3') } },
  { name: 'glob', args: { pattern: 'dir1*/*.ts' } },
  { name: 'search_file_content', args: { pattern: 'TODO' } },
];

try {
  const oursPort = await start([OURS, '--transport', 'http', '--port', '0', '--root', root], {}, (e) => {
    const m = /listening on http:\/\/[^\s]+:(\d+)\/mcp/.exec(e);
    return m && Number(m[1]);
  });
  const refPort = await freePort();
  await start([EVERYTHING, 'streamableHttp'], { PORT: String(refPort) }, (e) =>
    /listening on port/.test(e) ? refPort : undefined,
  );
  const ours = await clients(oursPort);
  const ref = await clients(refPort);
  const echo = () => ({ name: 'echo', args: { message: 'hello' } });
  const read = () => MIXED[0];
  const mixed = (i) => MIXED[i % MIXED.length];
  await round(ours, mixed); // warm-up: caches, JIT
  await round(ref, echo);
  const r = { read: [], echo: [], mixed: [], echoP50: [], readCpu: [], echoCpu: [], mixedCpu: [] };
  for (let i = 0; i < ROUNDS; i++) {
    const rd = await measured(children[0], ours, read);
    r.read.push(rd.rate);
    r.readCpu.push(rd.cpuUs);
    const e = await measured(children[1], ref, echo);
    r.echo.push(e.rate);
    r.echoCpu.push(e.cpuUs);
    r.echoP50.push(e.p50);
    const mx = await measured(children[0], ours, mixed);
    r.mixed.push(mx.p50);
    r.mixedCpu.push(mx.cpuUs);
  }
  const rateRatio = median(r.read) / median(r.echo);
  const p50Ratio = median(r.mixed) / median(r.echoP50);
  console.log(
    `many-clients: ${CLIENTS} clients, ${ROUNDS} rounds of ${ROUND_MS} ms: read_file ${median(r.read).toFixed(0)} calls/s, reference echo ${median(r.echo).toFixed(0)} calls/s; ratio ${rateRatio.toFixed(2)}x (target >= ${TARGETS.readRate}x) ${rateRatio >= TARGETS.readRate ? 'PASS' : 'MISS'}`,
  );
  console.log(
    `many-clients: mixed read/list/glob/search p50 ${median(r.mixed).toFixed(1)} ms, reference echo p50 ${median(r.echoP50).toFixed(1)} ms; ratio ${p50Ratio.toFixed(2)}x (target <= ${TARGETS.mixedP50}x) ${p50Ratio <= TARGETS.mixedP50 ? 'PASS' : 'MISS'}`,
  );
  console.log(
    `many-clients: server CPU per call: read_file ${median(r.readCpu).toFixed(0)} us, reference echo ${median(r.echoCpu).toFixed(0)} us; ratio ${(median(r.readCpu) / median(r.echoCpu)).toFixed(2)}x; mixed ${median(r.mixedCpu).toFixed(0)} us`,
  );
  await Promise.all([...ours, ...ref].map((c) => c.close().catch(() => undefined)));
} finally {
  for (const c of children) {
    c.removeAllListeners('exit');
    c.kill();
  }
  rmSync(root, { recursive: true, force: true });
}
