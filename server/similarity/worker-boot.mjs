// Entry of every similarity worker thread: a worker does not inherit its parent's loader hooks, so tsx is
// registered here before the TypeScript module named in workerData is imported.
import { workerData } from 'node:worker_threads';

const entry = workerData?.entry;
if (typeof entry !== 'string') throw new Error('worker-boot.mjs needs workerData.entry');
if (entry.endsWith('.ts')) {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport(entry, import.meta.url);
} else {
  await import(entry);
}
