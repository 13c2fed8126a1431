// Prints the one line CI reads, `N passed, N failed[, N skipped]`, from jest's --json output.
// A run that never reached jest (install, typecheck or lint failed) has no results: it counts as
// one failure so the line never claims a green run.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.out/jest-results.json';
if (!existsSync(file)) {
  process.stderr.write(`no jest results at ${file}: the run failed before the tests\n`);
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(0);
}
const results = JSON.parse(readFileSync(file, 'utf8'));
// Suites that failed to load (syntax error, failing import) have no test results of their own.
const brokenSuites = results.numRuntimeErrorTestSuites ?? 0;
const failed = results.numFailedTests + brokenSuites;
const skipped = results.numPendingTests + (results.numTodoTests ?? 0);
const line =
  `${results.numPassedTests} passed, ${failed} failed` +
  (skipped > 0 ? `, ${skipped} skipped` : '');
process.stdout.write(`${line}\n`);
