#!/usr/bin/env node
// Per-call overhead of run_shell_command for `true` through MCP stdio, against a bare
// spawn('bash', ['-c', 'true']) measured in the same run, interleaved so load drifts hit both.
// Target: median MCP call ≤ 1.3 × median bare spawn. Runs against the built dist.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median, timeMs } from './_stats.mjs';

const ROUNDS = Number(process.env.BENCH_SHELL_ROUNDS ?? 150);
const WARMUP = 10;
const TARGET = 1.3;
// The bundle users run (npm run build).
const bundle = fileURLToPath(new URL('../../dist/bin/gemini-mcp-shell.cjs', import.meta.url));
const entry = bundle;
if (!existsSync(entry)) {
  console.error(`shell bench: ${entry} is not built (npm run build)`);
  process.exit(1);
}

const root = mkdtempSync(join(tmpdir(), 'bench-shell-'));
// No elicitation capability: the server runs the command without asking, as for an approved call.
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [entry, '--root', root],
  stderr: 'ignore',
});
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);

const bare = () =>
  new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', 'true'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.on('error', reject);
    child.on('close', resolve);
  });
const viaMcp = async () => {
  const r = await client.callTool({ name: 'run_shell_command', arguments: { command: 'true' } });
  if (r.isError) throw new Error(JSON.stringify(r));
};

try {
  for (let i = 0; i < WARMUP; i++) {
    await viaMcp();
    await bare();
  }
  const mcp = [];
  const base = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Alternate the order so neither side always runs right after the other's child exits.
    if (i % 2) {
      mcp.push(await timeMs(viaMcp));
      base.push(await timeMs(bare));
    } else {
      base.push(await timeMs(bare));
      mcp.push(await timeMs(viaMcp));
    }
  }
  const m = median(mcp);
  const b = median(base);
  const ratio = m / b;
  console.log(`shell: run_shell_command \`true\` via MCP stdio, median of ${ROUNDS}: ${m.toFixed(2)} ms`);
  console.log(`shell: bare spawn('bash', ['-c', 'true']), median of ${ROUNDS}: ${b.toFixed(2)} ms`);
  console.log(`shell: per-call ratio ${ratio.toFixed(2)}x (target <= ${TARGET}x) ${ratio <= TARGET ? 'PASS' : 'MISS'}`);
} finally {
  await client.close();
  rmSync(root, { recursive: true, force: true });
}
