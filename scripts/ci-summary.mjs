// Reads vitest's JSON report and prints the one line CI reads: "N passed, N failed".
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
// A suite that fails to load counts as a failure even though none of its tests ran.
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0) - countSuitesWithFailedTests(report);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);

function countSuitesWithFailedTests(r) {
  return (r.testResults ?? []).filter((s) => s.status === 'failed' && (s.assertionResults ?? []).some((a) => a.status === 'failed')).length;
}
