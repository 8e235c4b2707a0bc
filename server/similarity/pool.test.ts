import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BusyError, WorkerPool } from './pool.ts';

const entry = new URL('./worker.ts', import.meta.url);
const emptyAlign = {
  manuscript: { wordHashes: new Uint32Array(0), mask: new Uint8Array(0) },
  sources: [],
  params: { seedWords: 3, gapWords: 8, minMatchWords: 8, anchorWords: 6, minDensity: 0.5, maxSeedOccurrences: 64 },
};

describe('WorkerPool', () => {
  it('starts a TypeScript worker lazily and ends it when idle', async () => {
    const pool = new WorkerPool({ name: 'test', entry, size: 1, maxQueue: 4, idleMs: 100 });
    try {
      expect(pool.stats().workers).toBe(0);
      const idle = once(pool, 'idle-exit');
      expect(await pool.run('align', emptyAlign)).toEqual([]);
      expect(pool.stats().workers).toBe(1);
      await idle;
      expect(pool.stats().workers).toBe(0);
      // And starts again when needed.
      expect(await pool.run('align', emptyAlign)).toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('runs a JavaScript entry (the compiled build) as well as a TypeScript one', async () => {
    const js = new URL(
      `data:text/javascript,${encodeURIComponent(`
        import { parentPort, workerData } from 'node:worker_threads';
        parentPort.on('message', ({ id }) => parentPort.postMessage({ id, ok: true, result: workerData.entry.slice(0, 5) }));
      `)}`,
    );
    const pool = new WorkerPool({ name: 'test', entry: js, size: 1, maxQueue: 4, idleMs: 1000 });
    try {
      expect(await pool.run('any', {})).toBe('data:');
    } finally {
      await pool.close();
    }
  });

  it('runs a worker as a child process when asked, and ends it when idle', async () => {
    const options = { name: 'test', size: 1, maxQueue: 4, idleMs: 100, isolation: 'process' } as const;
    const pool = new WorkerPool({ ...options, entry });
    const pidOf = new URL(
      `data:text/javascript,${encodeURIComponent(`
        process.on('message', ({ id }) => process.send({ id, ok: true, result: process.pid }));
      `)}`,
    );
    const own = new WorkerPool({ ...options, entry: pidOf });
    try {
      // The similarity worker, through serveWorker, as a process.
      expect(await pool.run('align', emptyAlign)).toEqual([]);
      const idle = once(own, 'idle-exit');
      const pid = await own.run<number>('pid', {});
      expect(pid).not.toBe(process.pid);
      expect(() => process.kill(pid, 0)).not.toThrow();
      await idle;
      expect(own.stats().workers).toBe(0);
      expect(() => process.kill(pid, 0)).toThrow();
      expect(await pool.run('align', emptyAlign)).toEqual([]);
    } finally {
      await Promise.all([pool.close(), own.close()]);
    }
  });

  it('rejects at once with BusyError when the queue is full', async () => {
    const pool = new WorkerPool({ name: 'test', entry, size: 1, maxQueue: 1, idleMs: 1000 });
    try {
      const runs = [pool.run('align', emptyAlign), pool.run('align', emptyAlign), pool.run('align', emptyAlign)];
      const results = await Promise.allSettled(runs);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
      expect((results[2] as PromiseRejectedResult).reason).toBeInstanceOf(BusyError);
    } finally {
      await pool.close();
    }
  });

  it('carries errors back from the worker and keeps working', async () => {
    const pool = new WorkerPool({ name: 'test', entry, size: 1, maxQueue: 4, idleMs: 1000 });
    try {
      await expect(pool.run('nonsense', {})).rejects.toThrow(/Unknown operation nonsense/);
      const err = await pool.run('prepare', { data: new Uint8Array([1, 2, 3]), options: {} }).catch((e) => e);
      expect(err).toMatchObject({ name: 'ExtractionError', message: expect.stringMatching(/Only Word/) });
      expect(await pool.run('align', emptyAlign)).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});
