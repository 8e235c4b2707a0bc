import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 12, item 9: a data folder the server cannot write stops start-up with one line naming the folder
 * and what is wrong, not a stack trace. The server is started for real (server/main.ts), as `npm start`
 * does after its build check.
 */
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'colophon-startup-'));

function start(dataDir: string, wrap?: { mountOptions: string; at: string }) {
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PORT: '0',
  };
  for (const k of ['DATABASE_URL', 'SESSION_SECRET', 'ADMIN_PASSWORD', 'SMTP_URL']) delete env[k];
  const node = [process.execPath, '--import', 'tsx', 'server/main.ts'];
  const run = wrap
    ? spawnSync(
        'unshare',
        [
          '--mount',
          'sh',
          '-c',
          `mount -t tmpfs -o ${wrap.mountOptions} tmpfs "$1" && shift && exec "$@"`,
          'sh',
          wrap.at,
          ...node,
        ],
        { env, encoding: 'utf8', timeout: 120_000 },
      )
    : spawnSync(node[0], node.slice(1), { env, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, stderr: run.stderr.trim(), stdout: run.stdout.trim() };
}

const oneLine = (out: { status: number | null; stderr: string }) => {
  expect(out.status).toBe(1);
  expect(out.stderr.split('\n'), out.stderr).toHaveLength(1);
  expect(out.stderr).not.toMatch(/\n\s+at /);
  return out.stderr;
};

describe('start-up on a data folder that cannot be used', () => {
  it('a file where the folder should be: one line naming the folder and the cause', () => {
    const file = path.join(tmp(), 'not-a-folder');
    writeFileSync(file, 'x');
    const dataDir = path.join(file, 'data');
    expect(oneLine(start(dataDir))).toBe(
      `Cannot use the data folder ${dataDir}: a file stands where a folder should be (ENOTDIR), while taking its lock. Make it writable by this user, free some space, or set DATA_DIR to another folder.`,
    );
  }, 130_000);

  const mountWorks =
    spawnSync('unshare', ['--mount', 'sh', '-c', `mount -t tmpfs -o ro tmpfs "${tmp()}"`]).status === 0;
  if (!mountWorks) {
    console.warn(
      '\n*** SKIPPED: start-up on a really read-only or full data folder is NOT tested: `unshare --mount` with a tmpfs mount is not permitted here (it needs root). ***\n',
    );
  }

  it.skipIf(!mountWorks)(
    'a read-only DATA_DIR (read-only file system): one line',
    () => {
      const dataDir = tmp();
      const line = oneLine(start(dataDir, { mountOptions: 'ro', at: dataDir }));
      expect(line).toBe(
        `Cannot use the data folder ${dataDir}: it is on a read-only file system (EROFS), while taking its lock (${dataDir}/.lock). Make it writable by this user, free some space, or set DATA_DIR to another folder.`,
      );
    },
    130_000,
  );

  it.skipIf(!mountWorks)(
    'a read-only database folder inside a writable DATA_DIR: one line',
    () => {
      const dataDir = tmp();
      const pglite = path.join(dataDir, 'pglite');
      spawnSync('mkdir', [pglite]);
      const line = oneLine(start(dataDir, { mountOptions: 'ro', at: pglite }));
      expect(line).toMatch(
        new RegExp(
          // The database folder named, or not, depending on which write PGlite tried first.
          `^Cannot use the data folder ${dataDir}: it is on a read-only file system \\(EROFS\\), while opening the database in pglite/( \\(${pglite}\\))?\\.`,
        ),
      );
    },
    130_000,
  );

  it.skipIf(!mountWorks)(
    'a full disk (a 1 MB DATA_DIR: the database cannot be created): one line',
    () => {
      const dataDir = tmp();
      const line = oneLine(start(dataDir, { mountOptions: 'size=1m', at: dataDir }));
      expect(line).toMatch(
        new RegExp(
          `^Cannot use the data folder ${dataDir}: the disk is full \\(ENOSPC\\), while opening the database in pglite/\\.`,
        ),
      );
    },
    130_000,
  );
});
