import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * One anonymous request must not be able to exhaust the server's memory: 200 MB bodies, sent chunked (no
 * length declared) and form-encoded or multipart, to every kind of form, page or API. The server's resident
 * memory is read from /proc before and at its peak after; each body must be refused (413, 415, or the
 * connection closed once the limit is passed) and the peak must stay bounded.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'colophon-bigbody-'));
let child: ChildProcess;
let port = 0;
let adminCookie = '';
const BODY = 200 * 1024 * 1024;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port: p } = srv.address() as { port: number };
      srv.close(() => resolve(p));
    });
  });
}

/** Resident and peak resident memory of the server process, in MB (Linux /proc). */
function memory(): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Streams `BODY` bytes of filler, chunked, and resolves with the status (or 'closed' if the server hung up). */
function post(
  url: string,
  contentType: string,
  headers: Record<string, string> = {},
): Promise<number | 'closed'> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: url,
        method: 'POST',
        headers: { 'content-type': contentType, ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.on('error', () => resolve('closed'));
    const boundary = /boundary=(.+)$/.exec(contentType)?.[1];
    const head = boundary
      ? Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${'t'.repeat(1000)}\r\n--${boundary}\r\nContent-Disposition: form-data; name="submissionFile"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
        )
      : Buffer.from('username=');
    const chunk = Buffer.alloc(1024 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      if (sent === 0) {
        req.write(head);
      }
      while (sent < BODY) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(boundary ? `\r\n--${boundary}--\r\n` : undefined);
    };
    pump();
  });
}

beforeAll(async () => {
  port = await freePort();
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    ADMIN_PASSWORD: 'admin-pass-123456',
    SIMILARITY_BACKGROUND: 'false',
  } as Record<string, string>;
  delete env.DATABASE_URL;
  child = spawn(process.execPath, ['scripts/start.mjs'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // Listening: the start-up lines say so (or the process ends, or two minutes pass).
  await new Promise<void>((resolve, reject) => {
    const failed = () => reject(new Error(`the server did not start:\n${output}`));
    const timer = setTimeout(failed, 120_000);
    const read = (d: Buffer) => {
      output += d;
      if (output.includes('Colophon is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', () => {
      clearTimeout(timer);
      failed();
    });
  });
  const login = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin-pass-123456' }),
  });
  adminCookie = `colophon_session=${((await login.json()) as { token: string }).token}`;
  // Warm up: every page kind once, so that the baseline includes what the first requests load.
  for (const p of [
    '/',
    '/login',
    '/contact',
    '/regist',
    '/editor-dashboard/articles',
    '/api/articles/public/articles',
  ]) {
    await fetch(`http://127.0.0.1:${port}${p}`, { headers: { cookie: adminCookie } });
  }
}, 180_000);

afterAll(async () => {
  // Its data folder goes once it has exited (it writes there while it drains).
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

describe('200 MB bodies, chunked', () => {
  it('are refused while they stream, with bounded memory', async () => {
    // Forget the peak of start-up (Linux: writing 5 to clear_refs resets VmHWM), so the peak below is the run's.
    writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
    const before = memory();
    const origin = { origin: `http://127.0.0.1:${port}` };
    const admin = { ...origin, cookie: adminCookie };
    const multipart = 'multipart/form-data; boundary=fuzzfuzz';
    const targets: [string, string, Record<string, string>][] = [
      ['/login', 'application/x-www-form-urlencoded', origin],
      ['/contact', 'application/x-www-form-urlencoded', origin],
      ['/regist', 'application/x-www-form-urlencoded', origin],
      ['/subscription', 'application/x-www-form-urlencoded', admin],
      ['/unsubscribe', 'application/x-www-form-urlencoded', origin],
      ['/forgot-password', 'application/x-www-form-urlencoded', origin],
      ['/editor-dashboard/volumes', 'application/x-www-form-urlencoded', admin],
      ['/editor-dashboard/content/about', 'application/x-www-form-urlencoded', admin],
      ['/submission', multipart, admin],
      ['/editor-dashboard/articles', multipart, admin],
      ['/plagiarism', multipart, admin],
      ['/api/submission/submit', multipart, admin],
      ['/api/articles/admin/upload', multipart, admin],
      ['/api/auth/login', 'application/json', {}],
      ['/contact', 'application/json', {}],
      ['/login', 'text/plain', origin],
    ];
    const answers: string[] = [];
    for (const [url, type, headers] of targets) {
      const status = await post(url, type, headers);
      answers.push(`${url} (${type.split(';')[0]}): ${status}`);
      expect(status === 'closed' || (status >= 400 && status < 500), `${url} ${type}: ${status}`).toBe(true);
    }
    // The server still answers, and has not grown with what it was sent.
    expect((await fetch(`http://127.0.0.1:${port}/login`)).status).toBe(200);
    const after = memory();
    console.log(
      `Big bodies: ${targets.length} × 200 MB chunked. Server RSS ${before.rss.toFixed(0)} MB before, ${after.rss.toFixed(0)} MB after; peak ${before.peak.toFixed(0)} → ${after.peak.toFixed(0)} MB.\n  ${answers.join('\n  ')}`,
    );
    expect(after.peak - before.peak).toBeLessThan(100);
  }, 600_000);
});
