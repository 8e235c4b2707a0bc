/**
 * What Linux says about a process: CPU time and memory from /proc. The figures cover every thread of the
 * process (a worker thread's time is in its process's utime/stime), not its child processes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU time the process has used so far, in milliseconds (resolution: one clock tick, 10 ms). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields from the closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicks();
}

/** Resident memory now and at its peak (VmRSS, VmHWM), in MiB, of the process itself. */
function ownMemoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** The process's child processes, and theirs (the similarity and grammar workers are processes). */
export function descendants(pid: number): number[] {
  const out: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter(Boolean).map(Number)) {
      out.push(child, ...descendants(child));
    }
  }
  return out;
}

/**
 * Resident memory of the server: the process and its worker processes (now), the process's own peak, and
 * how many worker processes were counted. A worker that ends between two reads counts as nothing.
 */
export function memoryMiB(pid: number): { rss: number; peak: number; workers: number } {
  const own = ownMemoryMiB(pid);
  let rss = own.rss;
  let workers = 0;
  for (const child of descendants(pid)) {
    try {
      rss += ownMemoryMiB(child).rss;
      workers++;
    } catch {
      // ended meanwhile
    }
  }
  return { rss, peak: own.peak, workers };
}

/**
 * Waits until the process has been quiet (under `threshold` of one core over `windowMs`), at most
 * `timeoutMs` (with `descendantsToo`, the sum of it and its worker processes): requests a load left in its
 * queue are finished, background work after a start has settled.
 * Returns how long it waited.
 */
export async function waitQuiet(
  pid: number,
  { windowMs = 500, threshold = 0.05, timeoutMs = 60_000, descendantsToo = false } = {},
): Promise<number> {
  const start = performance.now();
  const cpu = () => {
    let ms = cpuMs(pid);
    if (descendantsToo)
      for (const child of descendants(pid)) {
        try {
          ms += cpuMs(child);
        } catch {
          // ended meanwhile
        }
      }
    return ms;
  };
  let before = cpu();
  while (performance.now() - start < timeoutMs) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = cpu();
    if (now - before <= threshold * windowMs) break;
    before = now;
  }
  return performance.now() - start;
}
