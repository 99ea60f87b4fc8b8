// Prints the closing line CI reads ("N passed, N failed, N skipped") from vitest's JSON report, and
// exits 1 when the report holds a failure (or none was written), whatever exit code the run had.
import { existsSync, readFileSync } from 'node:fs';

const file = '.test-data/vitest-results.json';
if (!existsSync(file)) {
  console.log('tests: 0 passed, 1 failed');
  process.exit(1);
}
const r = JSON.parse(readFileSync(file, 'utf8'));
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
if (r.numFailedTests > 0 || r.numFailedTestSuites > 0 || r.success === false) process.exit(1);
