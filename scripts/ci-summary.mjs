// Reads vitest's JSON report and prints the one line CI reads: "N passed, N failed". A second argument of 1
// (the lint check failed) adds one failure.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
const lintFailed = process.argv[3] === '1' ? 1 : 0;
if (!existsSync(file)) {
  console.log(`0 passed, ${1 + lintFailed} failed`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const files = report.testResults ?? [];
const count = (status) =>
  files.reduce((n, f) => n + (f.assertionResults ?? []).filter((a) => a.status === status).length, 0);
const passed = count('passed');
// A test file that fails to load runs no test; it counts as one failure so it cannot go unnoticed.
const brokenFiles = files.filter(
  (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
).length;
const failed = count('failed') + brokenFiles + lintFailed;
const skipped = count('skipped') + count('pending') + count('todo');
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
