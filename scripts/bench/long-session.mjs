#!/usr/bin/env node
// Memory over a long session: one headless run whose scripted model makes 99 tool-call turns of two reads
// each (198 calls; a prompt may take at most 100 model turns) of 4 KB files before answering, against a
// 3-turn run of the same kind in the same invocation. The process
// tree's RSS is sampled with `ps` every 20 ms; the figures are each run's peak.
// Target: RSS after 200 turns within 30 MB of after 20. A prompt may take at most 100 model turns, so the
// bench measures 20 and 99 and projects the growth per turn to 180 more turns. A heap snapshot at the end of the long run shows ~18 MB live in the host;
// the rest of its peak is garbage V8 has not collected yet, mostly the request bodies the SDK serialises
// whole each turn (the history is resent every turn), bounded by the loader's old-generation cap
// (scripts/loader/old-generation.cjs). A peak is twice the last full collection's survivors, so the
// linear projection overstates (docs/performance.md).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startScriptedGemini } from '../scripted-gemini.mjs';
import { benchEnv } from './_bench-env.mjs';
import { samplePeakRss } from './_tree-rss.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const HOST = join(REPO, 'dist/bin/gemini-mcp.cjs');
const LONG = 99;
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
const ep = await startScriptedGemini([], {
  responder: (req) => {
    if (req.method !== 'streamGenerateContent') return reply.json({ reasoning: 'done', next_speaker: 'user' });
    const done = req.body.contents.filter((c) => (c.parts ?? []).some((p) => p.functionResponse)).length;
    if (done >= turns) return reply.text(ANSWER);
    const read = (k) => ({
      id: `r${done}-${k}`,
      name: 'filesystem__read_file',
      args: { absolute_path: join(project, `f${(done + k) % 10}.txt`) },
    });
    return reply.calls(read(0), read(1));
  },
});

/** One run of `n` tool turns; resolves its peak tree RSS in MiB. */
function run(n) {
  turns = n;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOST, '-p', 'Read the files.', '-m', 'gemini-2.5-flash', '-y'], {
      cwd: project,
      env: benchEnv(home, ep.url),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const rss = samplePeakRss(child.pid);
    child.on('close', (code) => {
      const peakKib = rss.stop();
      if (code !== 0 || !out.includes(ANSWER)) return reject(new Error(`run failed: exit ${code} ${err.slice(-400)}`));
      resolve(peakKib / 1024);
    });
  });
}

try {
  await run(1); // warm-up: file cache, code cache
  const short = await run(SHORT);
  const long = await run(LONG);
  const ratio = long / short;
  console.log(
    `long-session: peak tree RSS, ${SHORT} turns ${short.toFixed(0)} MiB; ${LONG} turns (${LONG * 2} calls) ${long.toFixed(0)} MiB`,
  );
  const projected = ((long - short) / (LONG - SHORT)) * 180;
  console.log(
    `  ratio ${ratio.toFixed(2)}×; growth projected from 20 to 200 turns ${projected.toFixed(1)} MiB (target ≤ ${TARGET_MIB} MiB) ${projected <= TARGET_MIB ? 'PASS' : 'MISS'}`,
  );
} catch (err) {
  console.log(`long-session: ${err.message}`);
  process.exitCode = 1;
} finally {
  await ep.close();
  rmSync(work, { recursive: true, force: true });
}
