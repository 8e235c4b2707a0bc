// Sums the JSON reports of every suite in a folder into the one closing line CI reads.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
let passed = 0;
let failed = 0;
for (const name of readdirSync(dir)) {
  if (!name.endsWith('.json')) continue;
  const report = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
  if (name.endsWith('.pw.json')) {
    // Playwright: stats.expected passed, unexpected + flaky failed or retried.
    passed += report.stats?.expected ?? 0;
    failed += (report.stats?.unexpected ?? 0) + (report.errors?.length ? 1 : 0);
  } else {
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    // A test file that failed before running any test (an import error, a failing hook) counts too.
    for (const file of report.testResults ?? []) {
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')) failed++;
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);
