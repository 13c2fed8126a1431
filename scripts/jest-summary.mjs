// Prints the one line CI reads, `N passed, N failed[, N skipped]`, summed over jest's --json
// output files (the main run and the fault suite's). A run that never reached jest (install,
// typecheck or lint failed) has no results: it counts as one failure so the line never claims
// a green run.
import { existsSync, readFileSync } from 'node:fs';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['.out/jest-results.json'];
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  if (!existsSync(file)) {
    process.stderr.write(`no jest results at ${file}: that run failed before its tests\n`);
    failed += 1;
    continue;
  }
  const results = JSON.parse(readFileSync(file, 'utf8'));
  // Suites that failed to load (syntax error, failing import) have no test results of their own.
  passed += results.numPassedTests;
  failed += results.numFailedTests + (results.numRuntimeErrorTestSuites ?? 0);
  skipped += results.numPendingTests + (results.numTodoTests ?? 0);
}
process.stdout.write(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`);
