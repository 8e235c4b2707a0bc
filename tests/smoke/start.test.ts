import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Runs the README's start command (`npm start`) on an empty data folder, as a newcomer would, and checks
 * what the issue promises: the site, the demo content, the admin credentials, the data-folder lock, and a
 * graceful shutdown.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'colophon-start-'));
const children: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function start(port: number) {
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' } as Record<
    string,
    string
  >;
  for (const k of ['DATABASE_URL', 'ADMIN_PASSWORD', 'SESSION_SECRET', 'PUBLIC_URL', 'SEED_DEMO', 'SMTP_URL'])
    delete env[k];
  const child = spawn('npm', ['start', '--silent'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes('Colophon is running at')) {
        clearInterval(timer);
        resolve();
      }
    }, 100);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  ready.catch(() => undefined); // a start expected to fail is awaited through `exited`
  return { child, ready, exited, output: () => output };
}

async function waitFor(ok: () => boolean, ms = 15_000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const stopGroup = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM') => {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    /* gone */
  }
};

afterAll(() => {
  for (const c of children) stopGroup(c, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start on an empty data folder', () => {
  it('serves the site with the demo content, prints the admin credentials, and guards its data folder', async () => {
    const port = await freePort();
    const first = start(port);
    await first.ready;
    expect(first.output()).toMatch(/Admin account created: username "admin", password "[A-Za-z0-9_-]{12,}"/);
    expect(first.output()).toContain(`http://localhost:${port}`);
    // React's production build, though the test runner's environment says NODE_ENV=test.
    expect(first.output()).toContain('Mode: production');
    // How long the start took, from the process's start to listening.
    expect(first.output()).toMatch(/Started in \d+\.\d\d s/);
    // The new database came from the copy `npm run build` prepared, not from initdb (decision 0021).
    expect(first.output()).toContain('(new, from the copy prepared by npm run build)');

    const home = await fetch(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain('Latest Articles');

    const tree = await (await fetch(`http://127.0.0.1:${port}/api/articles/public/articles`)).json();
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ volume_number: 1, year: 2025 });
    expect(tree[0].issues).toHaveLength(1);
    expect(tree[0].issues[0].articles).toHaveLength(5);

    // A client's mistake is its answer, not a fault in the log: a form posted to a page that takes none.
    const before = first.output().length;
    const posted = await fetch(`http://127.0.0.1:${port}/volumes`, {
      method: 'POST',
      headers: { origin: `http://127.0.0.1:${port}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(posted.status).toBe(405);
    await new Promise((r) => setTimeout(r, 200));
    expect(first.output().slice(before)).not.toMatch(/Error:|did not provide an `action`/);

    // A second server on the same folder fails at once, with a clear message; the first keeps working.
    const second = start(await freePort());
    const code = await second.exited;
    expect(code).not.toBe(0);
    expect(second.output()).toMatch(/in use by another Colophon process/);
    expect((await fetch(`http://127.0.0.1:${port}/api/papers`)).status).toBe(200);

    // Graceful shutdown (SIGTERM reaches npm and the server alike) releases the folder.
    stopGroup(first.child, 'SIGTERM');
    await first.exited;
    await waitFor(() => !existsSync(path.join(dataDir, '.lock')));
    expect(first.output()).toContain('SIGTERM received');

    // What a server killed between an upload's last byte and its commit leaves (a blob no row names, a
    // half-written .tmp), older than an hour: the next start-up sweeps it; a young one stays.
    const leftovers = path.join(dataDir, 'files', 'ee', 'ff');
    mkdirSync(leftovers, { recursive: true });
    const orphan = path.join(leftovers, `eeff${'0'.repeat(60)}`);
    const partial = path.join(leftovers, `eeff${'1'.repeat(60)}.0123456789ab.tmp`);
    const young = path.join(leftovers, `eeff${'2'.repeat(60)}.0123456789ab.tmp`);
    for (const f of [orphan, partial, young]) writeFileSync(f, 'leftover');
    const twoHoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    for (const f of [orphan, partial]) utimesSync(f, twoHoursAgo, twoHoursAgo);

    // A restart keeps the data and seeds nothing twice.
    const again = start(port);
    await again.ready;
    expect([existsSync(orphan), existsSync(partial), existsSync(young)]).toEqual([false, false, true]);
    expect(again.output()).not.toMatch(/password "/);
    const tree2 = await (await fetch(`http://127.0.0.1:${port}/api/articles/public/articles`)).json();
    expect(tree2[0].issues[0].articles).toHaveLength(5);
    const notFound = await fetch(`http://127.0.0.1:${port}/no-such-page`);
    expect(notFound.status).toBe(404);
    expect(await notFound.text()).toMatch(/The page you(&#x27;|')re looking for doesn(&#x27;|')t exist\./);
    stopGroup(again.child, 'SIGTERM');
    await again.exited;
    await waitFor(() => !existsSync(path.join(dataDir, '.lock')));
  }, 180_000);
});
