/**
 * `npm run bench`: every bench, one after the other (they share the two cores badly). Each prints its own
 * figures; the exit status is non-zero if any bench failed or went over its budget.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCHES = ['js-size.ts'];

const here = path.dirname(fileURLToPath(import.meta.url));
let failed = 0;
for (const bench of BENCHES) {
  console.log(`\n== bench/${bench}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, bench)], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
