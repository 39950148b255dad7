// Features benchmark: what Gemini CLI's configuration files cost a start when a user has many of them —
// 20 extensions (each with a context file, a command and a skill), 1,000 policy rules, 50 hooks, 200
// skills and 500 custom commands — against the same home without them. Both sides run `gemini-mcp -p`
// to its one-line answer with the built-in servers left out (their start-up is the startup bench's), runs
// interleaved. Target: the wall time of a run with all of them ≤ 1.3× without.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startScriptedGemini } from '../scripted-gemini.mjs';
import { benchEnv } from './_bench-env.mjs';
import { median } from './_stats.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const HOST = join(REPO, 'dist/bin/gemini-mcp.cjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const TARGET = 1.3;
const NO_SERVERS = { mcp: { excluded: ['filesystem', 'shell', 'web', 'memory'] } };

const work = mkdtempSync(join(tmpdir(), 'gmc-bench-features-'));
const put = (path, text) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};
const skill = (dir, name) =>
  put(
    join(dir, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Helps with ${name} tasks\n---\n\nSteps for ${name}.\n`,
  );

/** A home with every kind of configuration, many times over. */
function fullHome(home) {
  const gemini = join(home, '.gemini');
  const hooks = {
    BeforeTool: Array.from({ length: 50 }, (_, i) => ({
      matcher: `tool_${i}`,
      hooks: [{ type: 'command', name: `hook-${i}`, command: `echo ${i}` }],
    })),
  };
  put(join(gemini, 'settings.json'), JSON.stringify({ ...NO_SERVERS, hooks }));
  const rules = Array.from(
    { length: 1000 },
    (_, i) =>
      `[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "tool-${i}"\ndecision = "allow"\npriority = 100\n`,
  );
  put(join(gemini, 'policies', 'many.toml'), rules.join('\n'));
  for (let i = 0; i < 200; i++) skill(join(gemini, 'skills'), `skill-${i}`);
  for (let i = 0; i < 500; i++)
    put(
      join(gemini, 'commands', `group-${i % 10}`, `cmd-${i}.toml`),
      `description = "Command ${i}"\nprompt = "Do ${i} with {{args}}"\n`,
    );
  const enabled = {};
  for (let i = 0; i < 20; i++) {
    const dir = join(gemini, 'extensions', `ext-${i}`);
    put(join(dir, 'gemini-extension.json'), JSON.stringify({ name: `ext-${i}`, version: '1.0.0' }));
    put(join(dir, 'GEMINI.md'), `Extension ${i} context.\n`);
    put(join(dir, 'commands', `run-${i}.toml`), `prompt = "Extension ${i} command"\n`);
    skill(join(dir, 'skills'), `ext-skill-${i}`);
    enabled[`ext-${i}`] = { overrides: [`${home}/*`] };
  }
  put(join(gemini, 'extensions', 'extension-enablement.json'), JSON.stringify(enabled));
}

function run(home, url) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [HOST, '-p', 'hi'], { cwd: home, env: benchEnv(home, url), stdio: 'pipe' });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || !out.includes('ok')) return reject(new Error(`run failed (${code}): ${out}`));
      resolve(Number(process.hrtime.bigint() - t0) / 1e6);
    });
  });
}

const plainHome = join(work, 'plain');
const richHome = join(work, 'rich');
put(join(plainHome, '.gemini', 'settings.json'), JSON.stringify(NO_SERVERS));
fullHome(richHome);
const gemini = await startScriptedGemini([]);
try {
  const plain = [];
  const rich = [];
  // One warm-up each (code caches, listing caches), then interleaved runs.
  for (const h of [plainHome, richHome]) {
    gemini.push(reply.text('ok'));
    await run(h, gemini.url);
  }
  for (let i = 0; i < RUNS; i++) {
    gemini.push(reply.text('ok'), reply.text('ok'));
    plain.push(await run(plainHome, gemini.url));
    rich.push(await run(richHome, gemini.url));
  }
  const ratio = median(rich) / median(plain);
  const verdict = ratio <= TARGET ? 'ok' : 'MISS';
  console.log(
    `features: -p with 20 extensions, 1,000 policy rules, 50 hooks, 200 skills, 500 commands ${median(rich).toFixed(0)} ms ` +
      `vs none ${median(plain).toFixed(0)} ms = ${ratio.toFixed(2)}× (target ≤ ${TARGET}×) ${verdict}`,
  );
} finally {
  await gemini.close();
  rmSync(work, { recursive: true, force: true });
}
