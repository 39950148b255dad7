// Host model loop benchmark: the scripted session "glob **/*.ts → grep TODO → text answer", timed from process
// start to exit, for our `gemini-mcp -p` and for Gemini CLI 0.61.0 on the same scripted endpoint, interleaved.
// Gemini CLI is installed into a temp directory on first run (never a project dependency).
// CPU is user + system time of the process and every descendant it waited for (bash's `times`): our host
// waits for its servers at exit, Gemini CLI for its relaunched child.
// Peak RSS is the largest sum over the process tree seen by sampling `ps` every 20 ms while a run lasts.
// Targets: our median ≤ 0.10 × Gemini CLI's median for wall time and for CPU; peak tree RSS ≤ 0.25 × its.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startScriptedGemini } from '../scripted-gemini.mjs';
import { benchEnv } from './_bench-env.mjs';
import { samplePeakRss } from './_tree-rss.mjs';
import { median } from './_stats.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLE = join(REPO, 'dist/bin/gemini-mcp.cjs');
const OURS = BUNDLE;
const UPSTREAM_VERSION = '0.61.0';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET = 0.1;
const RSS_TARGET = 0.25;
const ANSWER = 'Found the TODO comments.';

if (!existsSync(OURS)) {
  console.log(`host-loop: ${OURS} is not built; run npm run build`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'gmc-bench-loop-'));
const project = join(work, 'project');
for (let i = 0; i < 40; i++) {
  const dir = join(project, 'src', `mod${i % 8}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `file${i}.ts`), `export const v${i} = ${i};\n${i % 5 === 0 ? `// TODO: item ${i}\n` : ''}`);
}

/** Answers by conversation state, using whatever glob / grep names the client declared. */
function responder(req) {
  if (req.method === 'generateContent')
    return reply.json({ reasoning: 'The answer is complete.', next_speaker: 'user' });
  if (req.method !== 'streamGenerateContent') return undefined;
  const names = (req.body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name);
  const glob = names.find((n) => /(^|__)glob$/.test(n));
  const grep = names.find((n) => /(^|__)(search_file_content|grep_search|grep)$/.test(n));
  const responses = (req.body.contents.at(-1)?.parts ?? []).filter((p) => p.functionResponse);
  if (!glob || !grep) return reply.text(`missing tools: ${names.join(',')}`);
  if (responses.length === 0) return reply.calls({ id: 'b1', name: glob, args: { pattern: '**/*.ts' } });
  if (responses[0].functionResponse.name === glob)
    return reply.calls({ id: 'b2', name: grep, args: { pattern: 'TODO' } });
  return reply.text(ANSWER);
}

const ep = await startScriptedGemini([], { responder });

function homeWith(settings) {
  const home = mkdtempSync(join(work, 'home-'));
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
  return home;
}

function runOnce(cmd, args, home) {
  return new Promise((resolve) => {
    const before = ep.requestsOf('streamGenerateContent').length;
    const env = benchEnv(home, ep.url);
    const t0 = process.hrtime.bigint();
    const child = spawn('bash', ['-c', '"$@"; rc=$?; times >&2; exit $rc', 'bench', cmd, ...args], {
      cwd: project,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    const rss = samplePeakRss(child.pid);
    child.on('close', (code) => {
      const peakKib = rss.stop();
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      const turns = ep.requestsOf('streamGenerateContent').length - before;
      const ok = code === 0 && out.includes(ANSWER) && turns === 3;
      resolve({
        ms,
        cpu: childCpuMs(err),
        rssMib: peakKib / 1024,
        ok,
        why: ok
          ? ''
          : `exit ${code}, ${turns} model requests, stdout ${JSON.stringify(out.slice(0, 200))}, stderr ${JSON.stringify(err.slice(-400))}`,
      });
    });
  });
}

/** The last line of bash's `times`: user and system time of the waited-for children, e.g. `0m1.234s 0m0.210s`. */
function childCpuMs(stderr) {
  const line = stderr.trim().split('\n').at(-1) ?? '';
  const secs = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return secs.length === 2 ? (secs[0] + secs[1]) * 1000 : NaN;
}

/** Installs Gemini CLI into a cached temp prefix; returns its entry script or the reason it cannot. */
function installUpstream() {
  const prefix = join(tmpdir(), `gmc-bench-gemini-cli-${UPSTREAM_VERSION}`);
  const pkgDir = join(prefix, 'node_modules', '@google', 'gemini-cli');
  const pkgFile = join(pkgDir, 'package.json');
  const have = () => existsSync(pkgFile) && JSON.parse(readFileSync(pkgFile, 'utf8')).version === UPSTREAM_VERSION;
  if (!have()) {
    console.log(`installing @google/gemini-cli@${UPSTREAM_VERSION} into ${prefix} (first run only) ...`);
    mkdirSync(prefix, { recursive: true });
    const r = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        `@google/gemini-cli@${UPSTREAM_VERSION}`,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ],
      {
        encoding: 'utf8',
        timeout: 300_000,
      },
    );
    if (r.status !== 0 || !have())
      return {
        error: `npm install failed (${r.status ?? r.signal ?? r.error?.message}): ${(r.stderr ?? '').trim().slice(-300)}`,
      };
  }
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.gemini ?? Object.values(pkg.bin ?? {})[0]);
  if (!bin) return { error: 'no bin entry in @google/gemini-cli/package.json' };
  return { entry: join(pkgDir, bin) };
}

const fmt = (ms) => `${Math.round(ms)} ms`;

const oursHome = homeWith({});
const ours = {
  name: 'gemini-mcp -p',
  cmd: process.execPath,
  args: [OURS, '-p', 'Find the TODO comments in the TypeScript files.', '-m', 'gemini-2.5-flash'],
  home: oursHome,
  times: [],
  cpu: [],
  rss: [],
};
const upstreamHome = homeWith({
  security: { auth: { selectedType: 'gemini-api-key' }, folderTrust: { enabled: false } },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  model: { skipNextSpeakerCheck: true },
});
const inst = installUpstream();
let upstream;
if (inst.entry) {
  upstream = {
    name: `gemini-cli ${UPSTREAM_VERSION} -p`,
    cmd: process.execPath,
    args: [inst.entry, '-p', 'Find the TODO comments in the TypeScript files.', '-m', 'gemini-2.5-flash'],
    home: upstreamHome,
    times: [],
    cpu: [],
    rss: [],
  };
}

try {
  // Warm-up (file cache, first-run setup), then interleaved measured runs.
  const w = await runOnce(ours.cmd, ours.args, ours.home);
  if (!w.ok) throw new Error(`our run failed: ${w.why}`);
  let upstreamWhy = inst.error;
  if (upstream) {
    const u = await runOnce(upstream.cmd, upstream.args, upstream.home);
    if (!u.ok) {
      upstreamWhy = `Gemini CLI run failed: ${u.why}`;
      upstream = undefined;
    }
  }
  for (let i = 0; i < RUNS; i++) {
    for (const who of upstream ? [ours, upstream] : [ours]) {
      const r = await runOnce(who.cmd, who.args, who.home);
      if (!r.ok) throw new Error(`${who.name} failed: ${r.why}`);
      who.times.push(r.ms);
      who.cpu.push(r.cpu);
      who.rss.push(r.rssMib);
    }
  }
  console.log(
    `host-loop: scripted session glob → grep → answer, process start to exit, ${RUNS} interleaved runs, medians`,
  );
  console.log(
    `  ${ours.name.padEnd(24)} ${fmt(median(ours.times))}  (runs ${ours.times.map((t) => Math.round(t)).join(', ')})`,
  );
  if (upstream) {
    console.log(
      `  ${upstream.name.padEnd(24)} ${fmt(median(upstream.times))}  (runs ${upstream.times.map((t) => Math.round(t)).join(', ')})`,
    );
    const ratio = median(ours.times) / median(upstream.times);
    console.log(`  wall ratio ${ratio.toFixed(2)}× (target ≤ ${TARGET}×) ${ratio <= TARGET ? 'PASS' : 'MISS'}`);
    const cpuRatio = median(ours.cpu) / median(upstream.cpu);
    console.log(
      `  CPU (user+sys, with children): ours ${fmt(median(ours.cpu))} (runs ${ours.cpu.map((t) => Math.round(t)).join(', ')}), Gemini CLI ${fmt(median(upstream.cpu))} (runs ${upstream.cpu.map((t) => Math.round(t)).join(', ')})`,
    );
    console.log(`  CPU ratio ${cpuRatio.toFixed(2)}× (target ≤ ${TARGET}×) ${cpuRatio <= TARGET ? 'PASS' : 'MISS'}`);
    const rssRatio = median(ours.rss) / median(upstream.rss);
    console.log(
      `  peak tree RSS: ours ${median(ours.rss).toFixed(0)} MiB, Gemini CLI ${median(upstream.rss).toFixed(0)} MiB; ratio ${rssRatio.toFixed(2)}× (target ≤ ${RSS_TARGET}×) ${rssRatio <= RSS_TARGET ? 'PASS' : 'MISS'}`,
    );
  } else {
    console.log(`  Gemini CLI ${UPSTREAM_VERSION} not measured: ${upstreamWhy}`);
    console.log(`  ratio n/a (target ≤ ${TARGET}×) MISS (no baseline)`);
  }
} catch (err) {
  console.log(`host-loop: ${err.message}`);
  process.exitCode = 1;
} finally {
  await ep.close();
  rmSync(work, { recursive: true, force: true });
}
