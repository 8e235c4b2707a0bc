// autocannon ships no types: the part of its API the benches use (https://github.com/mcollina/autocannon).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface Options {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    headers?: Record<string, string>;
    /** Seconds. */
    timeout?: number;
  }

  interface Histogram {
    p50: number;
    p99: number;
    max: number;
    total: number;
  }

  export interface Result {
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
    throughput: Histogram;
  }

  function autocannon(options: Options, done: (err: Error | null, result: Result) => void): EventEmitter;
  export default autocannon;
}
