#!/usr/bin/env node
// Per-call cost of the sandbox: run_shell_command `true` through MCP stdio on a server started with
// --sandbox, against the same call on a server without it, in the same run and interleaved so load
// drifts hit both. Target: median delta ≤ 10 ms per call. Beside it, for reading the figure, bubblewrap's
// floor on this machine: `bwrap --ro-bind / / bash -c true` against `bash -c true`, spawned from this
// process. Runs against the built dist; skipped (not failed) where bubblewrap is missing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median, timeMs } from './_stats.mjs';

const ROUNDS = Number(process.env.BENCH_SANDBOX_ROUNDS ?? 60);
const WARMUP = 5;
const TARGET_MS = 10;
const entry = fileURLToPath(new URL('../../dist/bin/gemini-mcp-shell.cjs', import.meta.url));
if (!existsSync(entry)) {
  console.error(`shell-sandbox bench: ${entry} is not built (npm run build)`);
  process.exit(1);
}
if (spawnSync('bwrap', ['--version']).status !== 0) {
  console.log('shell-sandbox: bubblewrap is not installed; skipped');
  process.exit(0);
}

const root = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
const connect = async (extra) => {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [entry, '--root', root, ...extra], stderr: 'ignore' }),
  );
  return client;
};
const plain = await connect([]);
const boxed = await connect(['--sandbox']);

const call = (client) => async () => {
  const r = await client.callTool({ name: 'run_shell_command', arguments: { command: 'true' } });
  if (r.isError) throw new Error(JSON.stringify(r));
};

try {
  for (let i = 0; i < WARMUP; i++) {
    await call(plain)();
    await call(boxed)();
  }
  const a = [];
  const b = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2) {
      a.push(await timeMs(call(plain)));
      b.push(await timeMs(call(boxed)));
    } else {
      b.push(await timeMs(call(boxed)));
      a.push(await timeMs(call(plain)));
    }
  }
  const ma = median(a);
  const mb = median(b);
  const delta = mb - ma;
  console.log(`shell-sandbox: run_shell_command \`true\`, unsandboxed, median of ${ROUNDS}: ${ma.toFixed(2)} ms`);
  console.log(`shell-sandbox: run_shell_command \`true\`, --sandbox, median of ${ROUNDS}: ${mb.toFixed(2)} ms`);
  const bash = [];
  const floor = [];
  for (let i = 0; i < ROUNDS; i++) {
    bash.push(await timeMs(async () => spawnSync('bash', ['--norc', '-c', 'true'])));
    floor.push(await timeMs(async () => spawnSync('bwrap', ['--ro-bind', '/', '/', 'bash', '--norc', '-c', 'true'])));
  }
  console.log(
    `shell-sandbox: bubblewrap's floor here (bwrap --ro-bind / / bash -c true vs bash -c true, median of ${ROUNDS}): ${(median(floor) - median(bash)).toFixed(2)} ms (${median(floor).toFixed(2)} vs ${median(bash).toFixed(2)} ms)`,
  );
  console.log(
    `shell-sandbox: per-call overhead ${delta.toFixed(2)} ms, ratio ${(mb / ma).toFixed(2)}x (target <= ${TARGET_MS} ms) ${delta <= TARGET_MS ? 'PASS' : 'MISS'}`,
  );
} finally {
  await Promise.all([plain.close(), boxed.close()]);
  rmSync(root, { recursive: true, force: true });
}
