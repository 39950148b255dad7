#!/usr/bin/env node
// Terminal UI benchmark: launch → input-ready (servers connecting in the background) against a bare
// `node -e 0` start measured in the same run, and last streamed chunk → its render. The UI writes
// timestamps through its trace hook (GEMINI_MCP_UI_TRACE); it runs in a detached tmux pane (a real TTY).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startScriptedGemini } from '../scripted-gemini.mjs';
import { median } from './_stats.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// The bundled bin is what users run (package.json `bin`).
const BUNDLE = join(ROOT, 'dist/bin/gemini-mcp.cjs');
const MAIN = BUNDLE;
const RUNS = 5;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

if (!existsSync(MAIN)) {
  console.log('ui: dist/bin/gemini-mcp.cjs is not built; run npm run build');
  process.exit(1);
}
try {
  execFileSync('tmux', ['-V']);
} catch {
  console.log('ui: SKIP (tmux is not installed)');
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'bench-ui-'));
const socket = `bench-ui-${process.pid}`;
const tmux = (...a) =>
  execFileSync('tmux', ['-L', socket, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const q = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

function readTrace(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

async function waitTrace(file, pred, timeoutMs) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const ev = readTrace(file).find(pred);
    if (ev) return ev;
    if (Date.now() > end) return undefined;
    await sleep(10);
  }
}

function launch(name, url, trace) {
  const ws = join(work, `ws-${name}`);
  const home = join(work, `home-${name}`);
  execFileSync('mkdir', ['-p', ws, home]);
  const env = {
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    NCURSES_NO_UTF8_ACS: '1',
    PATH: process.env.PATH,
    HOME: home,
    GEMINI_CLI_HOME: home,
    GEMINI_API_KEY: 'bench-key',
    GOOGLE_GEMINI_BASE_URL: url,
    GEMINI_MCP_UI_TRACE: trace,
  };
  const script = join(work, `run-${name}.sh`);
  writeFileSync(
    script,
    `#!/bin/sh\ncd ${q(ws)}\nexec env -i ${Object.entries(env)
      .map(([k, v]) => q(`${k}=${v}`))
      .join(' ')} ${q(process.execPath)} ${q(MAIN)}\n`,
  );
  chmodSync(script, 0o755);
  const t0 = performance.timeOrigin + performance.now();
  tmux('new-session', '-d', '-s', name, '-x', '120', '-y', '40', script);
  return t0;
}

/**
 * Kills a session and waits until its host and the servers it started have exited, so that the next
 * launch is measured on a machine as quiet as the baseline's (servers still starting from a killed
 * session would otherwise share the two cores with it).
 */
async function endSession(name) {
  const host = Number(tmux('display-message', '-p', '-t', name, '#{pane_pid}').trim());
  const children = spawnSync('pgrep', ['-P', String(host)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean);
  tmux('kill-session', '-t', name);
  const alive = (pid) => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch {
      return false;
    }
  };
  const end = Date.now() + 5000;
  while ([host, ...children].some(alive) && Date.now() < end) await sleep(20);
}

const gemini = await startScriptedGemini([]);
try {
  // Baseline: a bare node start, same machine, same moment.
  const base = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    base.push(performance.now() - t);
  }

  const wall = [];
  const inProcess = [];
  for (let i = 0; i < RUNS; i++) {
    const trace = join(work, `launch-${i}.jsonl`);
    const t0 = launch(`l${i}`, gemini.url, trace);
    const ready = await waitTrace(trace, (e) => e.event === 'input-ready', 20_000);
    if (ready) {
      wall.push(ready.t - t0);
      inProcess.push(ready.sinceStart);
    }
    await endSession(`l${i}`);
  }

  // Chunk → render: 3 streamed answers of 40 chunks each in one session.
  const chunks = Array.from(
    { length: 40 },
    (_, i) => `Chunk ${i} of a **streamed** answer with \`code\` and more words.\n\n`,
  );
  for (let i = 0; i < 3; i++) gemini.push({ ...reply.text(...chunks), chunkDelayMs: 15 });
  const trace = join(work, 'stream.jsonl');
  launch('s', gemini.url, trace);
  const latencies = [];
  if (await waitTrace(trace, (e) => e.event === 'input-ready', 20_000)) {
    for (let i = 0; i < 3; i++) {
      tmux('send-keys', '-t', 's', '-l', `question ${i}`);
      tmux('send-keys', '-t', 's', 'Enter');
      const want = (i + 1) * chunks.length;
      const lastChunk = await waitTrace(trace, (e) => e.event === 'chunk' && e.n === want, 60_000);
      const render = lastChunk && (await waitTrace(trace, (e) => e.event === 'render' && e.n >= want, 5_000));
      if (lastChunk && render) latencies.push(render.t - lastChunk.t);
      await sleep(200);
    }
  }
  tmux('kill-session', '-t', 's');

  // Keystroke → echo with a 20,000-line answer in the scrollback: each key's render after tmux sent it.
  const LONG = 20_000;
  gemini.push(reply.text(Array.from({ length: LONG }, (_, i) => `line ${i} of a very long answer`).join('\n')));
  const longTrace = join(work, 'long.jsonl');
  launch('k', gemini.url, longTrace);
  const echoes = [];
  if (await waitTrace(longTrace, (e) => e.event === 'input-ready', 20_000)) {
    tmux('send-keys', '-t', 'k', '-l', 'show me everything');
    tmux('send-keys', '-t', 'k', 'Enter');
    const shown = await waitTrace(longTrace, (e) => e.event === 'chunk', 60_000);
    if (shown) await waitTrace(longTrace, (e) => e.event === 'render' && e.n >= shown.n, 10_000);
    await sleep(500);
    let keys = readTrace(longTrace).filter((e) => e.event === 'key').length;
    for (let i = 0; i < 10; i++) {
      const t0 = performance.timeOrigin + performance.now();
      tmux('send-keys', '-t', 'k', '-l', 'x');
      keys++;
      const render = await waitTrace(longTrace, (e) => e.event === 'render' && e.keys >= keys, 5_000);
      if (render) echoes.push(render.t - t0);
      await sleep(50);
    }
  }
  tmux('kill-session', '-t', 'k');

  const b = median(base);
  const report = (label, value, target, baseline) => {
    if (value === undefined) return console.log(`ui: ${label}: MISS (no measurement)`);
    const ratio = baseline ? ` = ${(value / baseline).toFixed(1)}x bare node (${baseline.toFixed(0)} ms)` : '';
    console.log(
      `ui: ${label}: ${value.toFixed(1)} ms${ratio} (target ≤ ${target} ms) ${value <= target ? 'PASS' : 'MISS'}`,
    );
  };
  console.log(`ui: ${MAIN.slice(ROOT.length)}; bare node -e 0 median ${b.toFixed(0)} ms over ${RUNS} runs`);
  report(
    `launch → input-ready, wall incl. tmux spawn, median of ${wall.length}`,
    wall.length ? median(wall) : undefined,
    500,
    b,
  );
  report(
    `launch → input-ready, in-process (since node start), median of ${inProcess.length}`,
    inProcess.length ? median(inProcess) : undefined,
    500,
    b,
  );
  report(
    `last streamed chunk → render, median of ${latencies.length}`,
    latencies.length ? median(latencies) : undefined,
    50,
    undefined,
  );
  report(
    `keystroke → echo with ${LONG.toLocaleString('en')} lines in the scrollback, median of ${echoes.length}`,
    echoes.length ? median(echoes) : undefined,
    50,
    undefined,
  );
} finally {
  try {
    tmux('kill-server');
  } catch {}
  await gemini.close();
  rmSync(work, { recursive: true, force: true });
}
