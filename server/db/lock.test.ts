import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openRuntime } from '../lifecycle.ts';
import { DataFolderLockedError, lockDataFolder } from './lock.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'colophon-lock-'));
const SECRET = 'lock-test-secret-that-is-long-enough-0123456789';
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

/**
 * Another process taking the folder (server/testing/hold-data-folder.ts), optionally in a PID namespace of
 * its own, as a second container on the same volume is.
 */
function holder(dataDir: string, purpose: string, opts: { namespace?: boolean; lockOnly?: boolean } = {}) {
  const args = [
    '--import',
    'tsx',
    'server/testing/hold-data-folder.ts',
    purpose,
    ...(opts.lockOnly ? ['lock-only'] : []),
  ];
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    SESSION_SECRET: SECRET,
    LOG_LEVEL: 'silent',
  };
  delete env.DATABASE_URL;
  const child = opts.namespace
    ? spawn('unshare', ['--pid', '--fork', '--mount-proc', '--kill-child', process.execPath, ...args], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const held = new Promise<string>((resolve, reject) => {
    const look = (d: Buffer) => {
      output += d;
      const m = /HELD (\S+)/.exec(output);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    void exited.then((code) => reject(new Error(`the holder exited with ${code}: ${output}`)));
  });
  held.catch(() => undefined);
  return { child, held, exited, output: () => output };
}

/** SIGKILL to the Node process itself: inside `unshare --fork` that is unshare's child, not unshare. */
async function killNine(h: ReturnType<typeof holder>, namespace: boolean) {
  const pid = namespace
    ? Number(readFileSync(`/proc/${h.child.pid}/task/${h.child.pid}/children`, 'utf8').trim().split(/\s+/)[0])
    : h.child.pid!;
  process.kill(pid, 'SIGKILL');
  await h.exited; // unshare waits for its child; once it has exited, the kernel has closed the child's files
}

const unshareWorks = spawnSync('unshare', ['--pid', '--fork', '--mount-proc', 'true']).status === 0;
if (!unshareWorks) {
  console.warn(
    '\n*** SKIPPED: the data-folder lock across PID namespaces is NOT tested: `unshare --pid --fork --mount-proc` is not permitted here (it needs root or user namespaces). ***\n',
  );
}

describe('data folder lock (flock)', () => {
  it('refuses a second holder while the first lives, names it, and is free again once it is killed with SIGKILL', async () => {
    const dir = tmp();
    const first = holder(dir, 'server', { lockOnly: true });
    expect(await first.held).toBe('flock');
    expect(() => lockDataFolder(dir, 'cli')).toThrow(DataFolderLockedError);
    expect(() => lockDataFolder(dir, 'cli')).toThrow(
      new RegExp(`in use by another Colophon process \\(PID ${first.child.pid}, server, since `),
    );
    await killNine(first, false);
    // The dead holder left its file behind; the kernel dropped its lock, so the folder is free.
    expect(existsSync(path.join(dir, '.lock'))).toBe(true);
    const lock = lockDataFolder(dir, 'cli');
    expect(lock.kind).toBe('flock');
    lock.release();
    expect(existsSync(path.join(dir, '.lock'))).toBe(false);
  }, 60_000);

  it('is exclusive within one process too, and free again after release', () => {
    const dir = tmp();
    const lock = lockDataFolder(dir, 'server');
    expect(() => lockDataFolder(dir, 'cli')).toThrow(/in use by another Colophon process \(PID \d+, server/);
    lock.release();
    lockDataFolder(dir, 'cli').release();
  });

  it('is not fooled by a stale record naming a live PID (a container restarted with the same PID)', () => {
    const dir = tmp();
    // PID 1 is alive in every PID namespace: the PID-file lock would refuse forever.
    writeFileSync(
      path.join(dir, '.lock'),
      JSON.stringify({ pid: 1, purpose: 'server', since: '2020-01-01' }),
    );
    const lock = lockDataFolder(dir, 'server');
    expect(lock.kind).toBe('flock');
    expect(JSON.parse(readFileSync(path.join(dir, '.lock'), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it.skipIf(!unshareWorks)(
    'holds across PID namespaces (two containers on one volume): refused while the other runs, taken once it is killed with SIGKILL',
    async () => {
      const dir = tmp();
      const env = { DATA_DIR: dir, SESSION_SECRET: SECRET, LOG_LEVEL: 'silent' };
      // The first server, in a PID namespace of its own, through the same openRuntime as the server and the CLI.
      const first = holder(dir, 'server', { namespace: true });
      expect(await first.held).toBe('flock');
      // Here its PID (1 over there) means nothing: the old PID-file lock took over at this point.
      await expect(openRuntime('cli reindex', env)).rejects.toThrow(DataFolderLockedError);
      await expect(openRuntime('cli reindex', env)).rejects.toThrow(
        /in use by another Colophon process \(PID 1 in another PID namespace \(another container\?\), server, since /,
      );
      // A second server in a third PID namespace is refused as well.
      const second = holder(dir, 'server', { namespace: true });
      expect(await second.exited).toBe(3);
      expect(second.output()).toMatch(/in use by another Colophon process \(PID 1 in another PID namespace/);

      await killNine(first, true);
      const runtime = await openRuntime('cli reindex', env);
      expect(runtime.lock.kind).toBe('flock');
      // And now it is this process that keeps the others out.
      const third = holder(dir, 'server', { namespace: true, lockOnly: true });
      expect(await third.exited).toBe(3);
      expect(third.output()).toMatch(new RegExp(`PID ${process.pid} in another PID namespace`));
      await runtime.database.close();
      runtime.lock.release();
    },
    120_000,
  );
});

describe('data folder lock without flock (the PID-file fallback)', () => {
  const noFlock = { flockCommand: 'colophon-no-such-flock-command' };

  it('refuses a second holder while the first lives, and frees the folder on release', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const dir = tmp();
      const child = spawn(
        process.execPath,
        [
          '-e',
          "require('fs').writeFileSync(process.argv[1], JSON.stringify({pid: process.pid, purpose: 'server'})); console.log('up'); setTimeout(()=>{}, 60000)",
          path.join(dir, '.lock'),
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      children.push(child);
      await new Promise((r) => child.stdout!.once('data', r));
      expect(() => lockDataFolder(dir, 'cli', noFlock)).toThrow(DataFolderLockedError);
      expect(() => lockDataFolder(dir, 'cli', noFlock)).toThrow(
        /in use by another Colophon process \(PID \d+, server/,
      );
      child.kill();
      await new Promise((r) => child.on('exit', r));
      // The owner died without cleaning up: the stale lock is taken over.
      const lock = lockDataFolder(dir, 'cli', noFlock);
      expect(lock.kind).toBe('pid-file');
      expect(existsSync(path.join(dir, '.lock'))).toBe(true);
      lock.release();
      expect(existsSync(path.join(dir, '.lock'))).toBe(false);
      // On Linux it says what is missing: the lock no longer holds across containers.
      if (process.platform === 'linux')
        expect(warn).toHaveBeenCalledWith(expect.stringMatching(/flock command \(util-linux\) is missing/));
    } finally {
      warn.mockRestore();
    }
  });

  it('takes over a garbage lock file', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const dir = tmp();
    writeFileSync(path.join(dir, '.lock'), 'not json');
    const lock = lockDataFolder(dir, 'server', noFlock);
    lock.release();
    warn.mockRestore();
  });
});
