// `npm run bench`: builds nothing, runs every scripts/bench/*.mjs in turn against the built dist and
// prints their figures. Targets are ratios against baselines measured in the same run.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const dir = fileURLToPath(new URL('./bench/', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const f of files) {
  process.stdout.write(`\n=== ${f} ===\n`);
  const r = spawnSync(process.execPath, [join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    process.stdout.write(`(${f} exited with ${r.status ?? r.signal})\n`);
  }
}
process.exit(failed ? 1 : 0);
