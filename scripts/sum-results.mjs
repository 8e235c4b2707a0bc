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
    // Playwright: "expected" passed first time; "flaky" failed, then passed on a retry (counted as passed,
    // and named below so nobody mistakes it for solid); "unexpected" failed every attempt; "skipped" is not
    // counted. A run-level error (a webServer that would not start, a spec that does not load) fails too.
    const stats = report.stats ?? {};
    passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    failed += (stats.unexpected ?? 0) + (report.errors?.length ?? 0);
    const flaky = flakyTitles(report.suites ?? []);
    if (flaky.length)
      console.error(`Playwright: ${flaky.length} flaky (passed on retry):\n  ${flaky.join('\n  ')}`);
  } else {
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    // A test file that failed before running any test (an import error, a failing hook) counts too.
    for (const file of report.testResults ?? []) {
      if (file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed'))
        failed++;
    }
  }
}
console.log(`${passed} passed, ${failed} failed`);

function flakyTitles(suites, trail = []) {
  const found = [];
  for (const suite of suites) {
    const here = suite.title ? [...trail, suite.title] : trail;
    for (const spec of suite.specs ?? []) {
      if ((spec.tests ?? []).some((t) => t.status === 'flaky')) found.push([...here, spec.title].join(' › '));
    }
    found.push(...flakyTitles(suite.suites ?? [], here));
  }
  return found;
}
