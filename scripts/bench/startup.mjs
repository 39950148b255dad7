// Start-up benchmark: how late the first model request leaves our `gemini-mcp -p` process, against a bare
// `node -e "fetch(…)"` process posting the same request body, with the 5 built-in servers and with 20
// extra stdio servers (7 tools each) configured; the wall time of a one-turn session with and without the
// extras; the size of the first request's tool declarations; and the processes and memory of a session
// that calls only a filesystem tool, measured while it waits for the model's final answer.
// Every figure is a ratio against a baseline run in the same invocation; runs are interleaved.
// The first-request figures are measured with and without NODE_EXTRA_CA_CERTS (both sides alike): Node
// parses the named file at every start, which adds the same ~30 ms to both and dilutes the ratio. The
// variable is the environment's, or Debian's bundle when it is unset and the file exists.
// Targets: first request ≤ 1.2× bare (5 and 25 servers) and ≤ 1.5× with 100 servers; one turn with 20 extras
// ≤ 1.15× without; declarations ≤ 25,000 characters with 25 and with 100 servers; idle RSS of the
// filesystem-only session ≤ 150 MiB.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reply, startScriptedGemini } from '../scripted-gemini.mjs';
import { benchEnv } from './_bench-env.mjs';
import { median } from './_stats.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const HOST = join(REPO, 'dist/bin/gemini-mcp.cjs');
// Nine: on a shared VM a start-up lands in a fast or a slow mode (~65 ms of CPU apart, same page faults)
// from one run to the next; with five runs a side the medians often fell on the boundary between them.
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const EXTRA = 20;
const ANSWER = 'All done here.';

if (!existsSync(HOST)) {
  console.log(`startup: ${HOST} is not built; run npm run build`);
  process.exit(1);
}

const work = mkdtempSync(join(tmpdir(), 'gmc-bench-startup-'));
const project = join(work, 'project');
mkdirSync(join(project, 'src'), { recursive: true });
for (let i = 0; i < 20; i++) writeFileSync(join(project, 'src', `f${i}.ts`), `export const v${i} = ${i};\n`);

// A small third-party-style stdio server: 7 tools with ordinary descriptions and schemas.
const extraServer = join(work, 'extra-server.mjs');
writeFileSync(
  extraServer,
  `import { Server } from ${JSON.stringify(join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js'))};
import { StdioServerTransport } from ${JSON.stringify(join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.js'))};
import { CallToolRequestSchema, ListToolsRequestSchema } from ${JSON.stringify(join(REPO, 'node_modules/@modelcontextprotocol/sdk/dist/esm/types.js'))};
const topic = process.argv[2] ?? 'thing';
const verbs = ['list', 'get', 'create', 'update', 'delete', 'search', 'export'];
const tools = verbs.map((v) => ({
  name: v + '_' + topic,
  description: 'Use this to ' + v + ' ' + topic + ' records in the remote ' + topic + ' service. Returns JSON with the ' + topic + ' fields, paging cursors and warnings from the service.',
  inputSchema: { type: 'object', properties: {
    id: { type: 'string', description: 'The ' + topic + ' identifier' },
    query: { type: 'string', description: 'Free-text filter on ' + topic + ' names and labels' },
    limit: { type: 'number', description: 'At most this many results (default 20)' } } },
}));
const server = new Server({ name: 'extra-' + topic, version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (req) => ({ content: [{ type: 'text', text: 'ok ' + req.params.name }] }));
await server.connect(new StdioServerTransport());
`,
);
const TOPICS = [
  'issue',
  'ticket',
  'invoice',
  'customer',
  'order',
  'repo',
  'deploy',
  'alert',
  'metric',
  'page',
  'user',
  'team',
  'calendar',
  'email',
  'document',
  'bucket',
  'secret',
  'build',
  'release',
  'contact',
];

function homeWith(name, settings) {
  const home = join(work, name);
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
  return home;
}
// Trusted, so a headless run declares their tools too.
const extras = Object.fromEntries(
  TOPICS.slice(0, EXTRA).map((t) => [t, { command: process.execPath, args: [extraServer, t], trust: true }]),
);
const home5 = homeWith('home5', {});
const home25 = homeWith('home25', { mcpServers: extras });
// 95 extras: 100 servers in all, each topic several times under its own name.
const many = Object.fromEntries(
  Array.from({ length: 95 }, (_, i) => [
    `${TOPICS[i % TOPICS.length]}${Math.floor(i / TOPICS.length) || ''}`,
    { command: process.execPath, args: [extraServer, `${TOPICS[i % TOPICS.length]}${i}`], trust: true },
  ]),
);
const home100 = homeWith('home100', { mcpServers: many });

/** Script per run: 'answer' ends at once; 'fs' calls filesystem__glob, then answers after a pause. */
let mode = 'answer';
let idleProbe;
const ep = await startScriptedGemini([], {
  responder: async (req) => {
    if (req.method !== 'streamGenerateContent') return reply.json({ reasoning: 'done', next_speaker: 'user' });
    const responses = (req.body.contents.at(-1)?.parts ?? []).filter((p) => p.functionResponse);
    if (mode === 'fs' && responses.length === 0)
      return reply.calls({ id: 'g1', name: 'filesystem__glob', args: { pattern: '**/*.ts' } });
    if (mode === 'fs') await idleProbe?.();
    return reply.text(ANSWER);
  },
});

const DEBIAN_CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
const CA_BUNDLE = process.env.NODE_EXTRA_CA_CERTS || (existsSync(DEBIAN_CA_BUNDLE) ? DEBIAN_CA_BUNDLE : undefined);
/** The environments the first request is measured in: this one's first, then the other. */
const MACHINE_CA = process.env.NODE_EXTRA_CA_CERTS || undefined;
const CA_VARIANTS = MACHINE_CA ? [MACHINE_CA, undefined] : CA_BUNDLE ? [undefined, CA_BUNDLE] : [undefined];

/** `env` with NODE_EXTRA_CA_CERTS set to `ca`, or without it when `ca` is undefined. */
function withCa(env, ca) {
  const out = { ...env };
  delete out.NODE_EXTRA_CA_CERTS;
  if (ca !== undefined) out.NODE_EXTRA_CA_CERTS = ca;
  return out;
}

const envFor = (home, ca) => withCa(benchEnv(home, ep.url), ca);

/** One headless run: ms from spawn to the first model request's arrival, and to exit. */
function runHost(home, ca) {
  return new Promise((resolve, reject) => {
    const before = ep.requests.length;
    const t0 = Date.now();
    const child = spawn(process.execPath, [HOST, '-p', 'Say something.', '-m', 'gemini-2.5-flash'], {
      cwd: project,
      env: envFor(home, ca),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const wall = Date.now() - t0;
      const first = ep.requests.slice(before).find((r) => r.method === 'streamGenerateContent');
      if (code !== 0 || !out.includes(ANSWER) || !first)
        return reject(new Error(`host run failed: exit ${code} ${err.slice(-500)}`));
      resolve({ first: first.time - t0, wall, body: first.body });
    });
    runHost.child = child;
  });
}

/** The baseline: a bare Node process that posts the same body to the same endpoint. */
function runBare(bodyFile, ca) {
  return new Promise((resolve, reject) => {
    const before = ep.requests.length;
    const url = `${ep.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`;
    const code = `fetch(${JSON.stringify(url)},{method:'POST',headers:{'content-type':'application/json'},body:require('fs').readFileSync(${JSON.stringify(bodyFile)},'utf8')}).then(r=>r.text())`;
    const t0 = Date.now();
    const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore', env: withCa(process.env, ca) });
    child.on('close', () => {
      const first = ep.requests.slice(before).find((r) => r.method === 'streamGenerateContent');
      if (!first) return reject(new Error('bare fetch did not arrive'));
      resolve(first.time - t0);
    });
  });
}

/** Processes below `pid` and their RSS (KiB), from ps. */
function tree(pid) {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .map(([p, pp, rss, ...args]) => ({ pid: Number(p), ppid: Number(pp), rss: Number(rss), args: args.join(' ') }));
  const out = [];
  const walk = (id) => {
    for (const r of rows) if (r.ppid === id) out.push(r), walk(r.pid);
  };
  const self = rows.find((r) => r.pid === pid);
  if (self) out.push(self);
  walk(pid);
  return out;
}

/** RUNS interleaved rounds of the bare fetch and the host, with 5, 25 and 100 servers, in one environment. */
async function firstRequests(bodies, ca) {
  // The built-in web server's listing is keyed by its environment, NODE_EXTRA_CA_CERTS included, and a
  // third-party server's by the user's whole environment: a first run in each fills their caches.
  for (const home of [home5, home25, home100]) await runHost(home, ca);
  const t = { bare5: [], bare25: [], bare100: [], first5: [], first25: [], first100: [], wall5: [], wall25: [] };
  for (let i = 0; i < RUNS; i++) {
    t.bare5.push(await runBare(bodies.body5, ca));
    const a = await runHost(home5, ca);
    t.first5.push(a.first);
    t.wall5.push(a.wall);
    t.bare25.push(await runBare(bodies.body25, ca));
    const b = await runHost(home25, ca);
    t.first25.push(b.first);
    t.wall25.push(b.wall);
    t.bare100.push(await runBare(bodies.body100, ca));
    t.first100.push((await runHost(home100, ca)).first);
  }
  return t;
}

function printFirstRequests(t, label) {
  for (const [n, target] of [
    [5, 1.2],
    [25, 1.2],
    [100, 1.5],
  ]) {
    const first = median(t[`first${n}`]);
    const bare = median(t[`bare${n}`]);
    const r = first / bare;
    console.log(
      `  first request, ${n} servers, ${label}: ${first} ms; bare node fetch ${bare} ms; ratio ${r.toFixed(2)}× (target ≤ ${target}×) ${verdict(r <= target)}   runs ${t[`first${n}`].join(', ')}`,
    );
  }
}

const declChars = (body) => JSON.stringify(body.tools ?? []).length;
const verdict = (ok) => (ok ? 'PASS' : 'MISS');

try {
  // A first run per home fills the file cache and the host's caches (the servers' tool listings); a second
  // gives the request bodies as every later run sends them. A first run's own body lacks the tools of
  // servers that were not ready in time (they join the session later).
  for (const home of [home5, home25, home100]) await runHost(home, MACHINE_CA);
  const w5 = await runHost(home5, MACHINE_CA);
  const w25 = await runHost(home25, MACHINE_CA);
  const w100 = await runHost(home100, MACHINE_CA);
  const body5 = join(work, 'body5.json');
  const body25 = join(work, 'body25.json');
  const body100 = join(work, 'body100.json');
  writeFileSync(body100, JSON.stringify(w100.body));
  writeFileSync(body5, JSON.stringify(w5.body));
  writeFileSync(body25, JSON.stringify(w25.body));
  console.log(`startup: ${RUNS} interleaved runs, medians (ms from spawn)`);
  let walls;
  for (const ca of CA_VARIANTS) {
    const t = await firstRequests({ body5, body25, body100 }, ca);
    walls ??= t;
    printFirstRequests(t, ca === undefined ? 'without NODE_EXTRA_CA_CERTS' : 'with NODE_EXTRA_CA_CERTS');
  }
  const wall5 = median(walls.wall5);
  const wall25 = median(walls.wall25);
  const rWall = wall25 / wall5;
  console.log(
    `  one-turn session wall: 25 servers ${wall25} ms, 5 servers ${wall5} ms; ratio ${rWall.toFixed(2)}× (target ≤ 1.15×) ${verdict(rWall <= 1.15)}`,
  );
  const chars25 = declChars(w25.body);
  const n25 = (w25.body.tools ?? []).flatMap((x) => x.functionDeclarations ?? []).length;
  console.log(
    `  first request tool declarations: 5 servers ${declChars(w5.body)} chars; 25 servers ${chars25} chars in ${n25} declarations (target ≤ 25000) ${verdict(chars25 <= 25000)}`,
  );
  const chars100 = declChars(w100.body);
  console.log(
    `  first request tool declarations, 100 servers: ${chars100} chars (target ≤ 25000) ${verdict(chars100 <= 25000)}`,
  );

  // A filesystem-only session, probed while the model "thinks" about its final answer.
  mode = 'fs';
  let probe;
  idleProbe = async () => {
    await new Promise((r) => setTimeout(r, 1000));
    probe = tree(runHost.child.pid);
  };
  await runHost(home5, MACHINE_CA);
  const rss = probe.reduce((a, p) => a + p.rss, 0) / 1024;
  console.log(
    `  filesystem-only session (glob, then waiting for the model): ${probe.length} processes, RSS ${rss.toFixed(1)} MiB (target ≤ 150 MiB) ${verdict(rss <= 150)}`,
  );
  for (const p of probe)
    console.log(
      `    ${String(p.pid).padStart(7)} ${(p.rss / 1024).toFixed(1).padStart(6)} MiB  ${p.args.replace(REPO, '').slice(0, 90)}`,
    );
} catch (err) {
  console.log(`startup: ${err.stack ?? err.message}`);
  process.exitCode = 1;
} finally {
  await ep.close();
  if (!process.env.BENCH_KEEP) rmSync(work, { recursive: true, force: true });
}
