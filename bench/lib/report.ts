/** What every bench prints beside its figures: medians, the machine's load, the commit measured, a clock. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** `uptime`'s line (load averages): these machines are shared, so every figure says how busy it was. */
export const uptime = () => {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`;
  }
};

export const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

/** The commit measured, marked when the product's sources had uncommitted changes. */
export function commitMeasured(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'app', 'server', 'common', 'scripts'], {
      encoding: 'utf8',
    }).trim();
    return dirty ? `${head} (with uncommitted changes)` : head;
  } catch {
    return 'unknown';
  }
}

/** A positive number from `--name=value` flags; a wrong one stops the bench with one line. */
export function numberFlag(flags: Map<string, string>, name: string, fallback: number): number {
  const value = Number(flags.get(name) ?? fallback);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number.`);
    process.exit(2);
  }
  return value;
}
