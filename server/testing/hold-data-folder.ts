/**
 * For tests of the data-folder lock: another process that takes the lock the way the server and every CLI
 * command do (`openRuntime`, with the environment's DATA_DIR), or only the lock (`lock-only`), prints
 * "HELD <kind>" and keeps it until it is killed. A refusal prints the message and exits with 3.
 *
 *   node --import tsx server/testing/hold-data-folder.ts <purpose> [lock-only]
 */
import { DataFolderLockedError, lockDataFolder } from '../db/lock.ts';
import { openRuntime } from '../lifecycle.ts';

const [purpose = 'test', mode] = process.argv.slice(2);
try {
  const kind =
    mode === 'lock-only'
      ? lockDataFolder(process.env.DATA_DIR ?? '', purpose).kind
      : (await openRuntime(purpose)).lock.kind;
  console.log(`HELD ${kind}`);
  setInterval(() => undefined, 60_000);
} catch (err) {
  console.log(err instanceof Error ? err.message : String(err));
  process.exit(err instanceof DataFolderLockedError ? 3 : 1);
}
