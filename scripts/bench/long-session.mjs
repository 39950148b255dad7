#!/usr/bin/env node
// Memory over a long session: one editor session (ACP, `gemini-mcp --acp`) whose scripted model makes 200
// tool-call turns of two reads each (400 calls) of 4 KB files, in four prompts of 50 turns (a prompt may
// take at most 100 model turns), against a session of 20 such turns in one prompt, in the same
// invocation. The history grows across the prompts as in any long chat and is resent whole each turn. The
// process tree's RSS is sampled with `ps` every 20 ms; the figures are each session's peak.
// Target: RSS after 200 turns within 30 MB of after 20.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startScriptedGemini } from '../scripted-gemini.mjs';
import { benchEnv } from './_bench-env.mjs';
import { samplePeakRss } from './_tree-rss.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const HOST = join(REPO, 'dist/bin/gemini-mcp.cjs');
const PROMPT_TURNS = 50;
const LONG = 200;
const SHORT = 20;
const TARGET_MIB = 30;
const ANSWER = 'Read them all.';

if (!existsSync(HOST)) {
  console.log(`long-session: ${HOST} is not built; run npm run build`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'gmc-bench-long-'));
const project = join(work, 'project');
mkdirSync(project);
for (let i = 0; i < 10; i++)
  writeFileSync(join(project, `f${i}.txt`), `${`line ${i} of some file text\n`.repeat(150)}`);
const home = join(work, 'home');
mkdirSync(join(home, '.gemini'), { recursive: true });
writeFileSync(join(home, '.gemini', 'settings.json'), '{}');

let turns = 0;
let requests = 0;
const ep = await startScriptedGemini([], {
  responder: (req) => {
    if (req.method !== 'streamGenerateContent') return reply.json({ reasoning: 'done', next_speaker: 'user' });
    requests++;
    // Tool turns since this prompt's own words: the history holds the earlier prompts' turns too.
    const contents = req.body.contents;
    let start = contents.length - 1;
    while (start > 0 && !(contents[start].role === 'user' && contents[start].parts.some((p) => p.text))) start--;
    const done = contents.slice(start).filter((c) => (c.parts ?? []).some((p) => p.functionResponse)).length;
    if (done >= turns) return reply.text(ANSWER);
    const read = (k) => ({
      id: `r${start}-${done}-${k}`,
      name: 'filesystem__read_file',
      args: { absolute_path: join(project, `f${(done + k) % 10}.txt`) },
    });
    return reply.calls(read(0), read(1));
  },
});

/** Line-delimited JSON-RPC to an ACP agent on the child's stdio: requests out, their answers back. */
function acpPeer(child) {
  const waiting = new Map();
  let next = 1;
  let buf = '';
  child.stdout.on('data', (d) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const msg = line.trim() ? JSON.parse(line) : {};
      if (msg.id !== undefined && msg.method === undefined) waiting.get(msg.id)?.(msg);
      // Read-only calls ask nothing; any other request of the agent's is answered "not supported".
      else if (msg.id !== undefined)
        child.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'not offered by this bench' } })}\n`,
        );
    }
  });
  return (method, params) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, (msg) =>
        msg.error ? reject(new Error(`${method}: ${msg.error.message}`)) : resolve(msg.result),
      );
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
}

/** CPU time (user + system) a live process has used so far, in ms; Linux only (else NaN). */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** One editor session of `total` tool turns, in prompts of at most PROMPT_TURNS: its peak tree RSS (MiB) and the host's CPU. */
async function run(total) {
  const child = spawn(process.execPath, [HOST, '--acp', '-m', 'gemini-2.5-flash'], {
    cwd: project,
    env: benchEnv(home, ep.url),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((r) => child.on('close', r));
  const rss = samplePeakRss(child.pid);
  const call = acpPeer(child);
  requests = 0;
  try {
    await call('initialize', { protocolVersion: 1, clientCapabilities: {} });
    const { sessionId } = await call('session/new', { cwd: project, mcpServers: [] });
    for (let left = total; left > 0; left -= PROMPT_TURNS) {
      turns = Math.min(left, PROMPT_TURNS);
      const r = await call('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'Read the files.' }] });
      if (r.stopReason !== 'end_turn') throw new Error(`prompt stopped: ${r.stopReason}`);
    }
    const prompts = Math.ceil(total / PROMPT_TURNS);
    if (requests !== total + prompts) throw new Error(`${requests} model requests, not ${total + prompts}`);
    return { mib: rss.stop() / 1024, cpuMs: cpuMsOf(child.pid) };
  } catch (e) {
    rss.stop();
    throw new Error(`${e.message} ${err.slice(-400)}`);
  } finally {
    child.stdin.end();
    await exited;
  }
}

try {
  await run(1); // warm-up: file cache, code cache
  const short = await run(SHORT);
  const long = await run(LONG);
  console.log(
    `long-session: peak tree RSS, ${SHORT} turns ${short.mib.toFixed(0)} MiB; ${LONG} turns (${LONG * 2} calls, ${LONG / PROMPT_TURNS} prompts) ${long.mib.toFixed(0)} MiB; host CPU ${short.cpuMs} / ${long.cpuMs} ms`,
  );
  const growth = long.mib - short.mib;
  console.log(
    `  ratio ${(long.mib / short.mib).toFixed(2)}×; growth from ${SHORT} to ${LONG} turns ${growth.toFixed(1)} MiB (target ≤ ${TARGET_MIB} MiB) ${growth <= TARGET_MIB ? 'PASS' : 'MISS'}`,
  );
} catch (err) {
  console.log(`long-session: ${err.message}`);
  process.exitCode = 1;
} finally {
  await ep.close();
  rmSync(work, { recursive: true, force: true });
}
