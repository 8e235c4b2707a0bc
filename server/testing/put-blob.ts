/**
 * For the blob-store test on a real file system that fails (a tiny or read-only tmpfs, mounted by the test
 * in a mount namespace of this process only): stores `bytes` random bytes under `root` and prints, as JSON,
 * what `put` threw and which files are left under `root`.
 *
 *   node --import tsx server/testing/put-blob.ts <root> <bytes>
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { LocalBlobStore, type StorageUnavailableError } from '../files/blob-store.ts';

const [root, bytes] = process.argv.slice(2);
const logged: unknown[] = [];
const store = new LocalBlobStore(root, {
  log: { warn: (o) => logged.push(o), error: (o) => logged.push((o as { code?: string }).code) },
});
let error: Partial<StorageUnavailableError> | null = null;
try {
  await store.put(randomBytes(Number(bytes)));
} catch (err) {
  const e = err as StorageUnavailableError;
  error = { name: e.name, code: e.code, fault: e.fault, message: e.message };
}
const left = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((d) => d.isFile())
  .map((d) => d.name);
console.log(JSON.stringify({ error, left, logged }));
