/**
 * The load generator, in a process of its own so it never shares an event loop with a server it measures.
 * `startLoadGenerator()` forks this file; each `run()` is one autocannon run, and the rate is timed here
 * from the moment the connections open to the last answer (autocannon's per-second average counts whole
 * one-second samples, which halves a short run that ends early in its last sample).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Result } from 'autocannon';

export interface LoadRequest {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  headers: Record<string, string>;
  /** Seconds before a request counts as timed out (autocannon's default: 10). */
  timeout?: number;
}

export interface LoadResult {
  /** Answers received (any status), and requests sent (answered, timed out, or still open at the end). */
  answered: number;
  sent: number;
  /** From the first request to the last answer. */
  elapsedMs: number;
  /** answered / elapsed. */
  rps: number;
  /** Latency of the answered requests, ms. */
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Bytes received, headers included. */
  bytes: number;
}

type Message = { id: number; request: LoadRequest } | { id: number; result?: LoadResult; error?: string };

export interface LoadGenerator {
  pid: number;
  run(request: LoadRequest): Promise<LoadResult>;
  close(): void;
}

/** Forks the load generator process. */
export function startLoadGenerator(): LoadGenerator {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--child'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let next = 0;
  const waiting = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  child.on('message', (m: Message) => {
    const w = waiting.get(m.id);
    if (!w || !('result' in m || 'error' in m)) return;
    waiting.delete(m.id);
    if ('error' in m && m.error) w.reject(new Error(m.error));
    else w.resolve((m as { result: LoadResult }).result);
  });
  child.on('exit', () => {
    for (const w of waiting.values()) w.reject(new Error('the load generator exited'));
    waiting.clear();
  });
  return {
    pid: child.pid!,
    run(request) {
      const id = ++next;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ id, request } satisfies Message);
      });
    },
    close() {
      child.kill();
    },
  };
}

async function runOnce(request: LoadRequest): Promise<LoadResult> {
  const { default: autocannon } = await import('autocannon');
  let answered = 0;
  let last = 0;
  const t0 = performance.now();
  const result = await new Promise<Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: request.url,
        connections: request.connections,
        duration: request.duration,
        headers: request.headers,
        timeout: request.timeout ?? 10,
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
    instance.on('response', () => {
      answered++;
      last = performance.now();
    });
  });
  const elapsedMs = answered ? last - t0 : request.duration * 1000;
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = count;
  return {
    answered,
    sent: result.requests.sent,
    elapsedMs,
    rps: answered / (elapsedMs / 1000),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    bytes: result.throughput.total,
  };
}

if (process.argv.includes('--child') && process.send) {
  process.on('message', (m: Message) => {
    if (!('request' in m)) return;
    runOnce(m.request).then(
      (result) => process.send!({ id: m.id, result } satisfies Message),
      (err: Error) => process.send!({ id: m.id, error: err.message } satisfies Message),
    );
  });
  // The parent went away (killed, crashed): nothing left to measure for.
  process.on('disconnect', () => process.exit(0));
}
