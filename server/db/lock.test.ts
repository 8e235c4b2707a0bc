import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFolderLockedError, lockDataFolder } from './lock.ts';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'colophon-lock-'));

describe('data folder lock', () => {
  it('refuses a second holder while the first lives, and frees the folder on release', async () => {
    const dir = tmp();
    const child = spawn(
      process.execPath,
      ['-e', "require('fs').writeFileSync(process.argv[1], JSON.stringify({pid: process.pid, purpose: 'server'})); setTimeout(()=>{}, 60000)", path.join(dir, '.lock')],
      { stdio: 'ignore' },
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(() => lockDataFolder(dir, 'cli')).toThrow(DataFolderLockedError);
    expect(() => lockDataFolder(dir, 'cli')).toThrow(/in use by another Colophon process \(PID \d+, server/);
    child.kill();
    await new Promise((r) => child.on('exit', r));
    // The owner died without cleaning up: the stale lock is taken over.
    const lock = lockDataFolder(dir, 'cli');
    expect(existsSync(path.join(dir, '.lock'))).toBe(true);
    lock.release();
    expect(existsSync(path.join(dir, '.lock'))).toBe(false);
  });

  it('takes over a garbage lock file', () => {
    const dir = tmp();
    writeFileSync(path.join(dir, '.lock'), 'not json');
    const lock = lockDataFolder(dir, 'server');
    lock.release();
  });
});
