// Entry of every similarity worker, thread or child process: the module to run is named in workerData
// (a thread) or as the first argument (a process). A worker does not inherit its parent's loader hooks, so
// tsx is registered here before a TypeScript module is imported.
import { workerData } from 'node:worker_threads';

const entry = workerData?.entry ?? process.argv[2];
if (typeof entry !== 'string') throw new Error('worker-boot.mjs needs workerData.entry or an argument');
if (entry.endsWith('.ts')) {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport(entry, import.meta.url);
} else {
  await import(entry);
}
