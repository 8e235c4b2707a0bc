import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../testing/harness.ts';
import { journalCommand } from './service-commands.ts';

/** `npm run cli -- journal …` (decision 0055): each command, its words and its exit codes. */
let t: TestContext;

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await journalCommand(args, t.services.journalAdmin, {
    log: (line) => out.push(line),
    error: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeAll(async () => {
  t = await createTestContext();
  await t.createUser({ role: 'author', status: 'approved', username: 'ada' });
});
afterAll(() => t?.close());

describe('journal commands', () => {
  it('creates a journal at a path and lists it', async () => {
    const made = await run('create', '--title', 'Tidal Studies', '--path', 'tides', '--editor', 'ADA');
    expect(made).toMatchObject({ code: 0, err: '' });
    expect(made.out).toBe('Made journal 2, “Tidal Studies”, at http://journal.test/tides.');
    const list = await run('list');
    expect(list.code).toBe(0);
    expect(list.out.split('\n')).toEqual([
      expect.stringMatching(
        /^ {3}1 {2}http:\/\/journal\.test {2}open {2}“.+” {2}0 article\(s\), 0 submission\(s\)$/,
      ),
      '   2  http://journal.test/tides  open  “Tidal Studies”  0 article(s), 0 submission(s)',
    ]);
    expect(t.services.journals.get(2)?.path).toBe('tides');
  });

  it('creates one at a domain (options as --name=value too)', async () => {
    const made = await run(
      'create',
      '--title=Harbour Review',
      '--domain=harbour.example.org',
      '--editor=ada@example.org',
    );
    expect(made.out).toBe('Made journal 3, “Harbour Review”, at http://harbour.example.org.');
  });

  it('moves a journal named by id, path or domain, and says what answers 301', async () => {
    const moved = await run('move-to-path', '/tides', 'tidal');
    expect(moved).toMatchObject({ code: 0 });
    expect(moved.out).toBe(
      'Journal 2, “Tidal Studies”, answers at http://journal.test/tidal. Old addresses answering 301: /tides.',
    );
    expect((await run('move-to-domain', 'tidal', 'tides.example.org')).out).toContain(
      'answers at http://tides.example.org. Old addresses answering 301: /tides, /tidal.',
    );
    expect((await run('move-to-path', 'harbour.example.org', 'harbour')).out).toContain(
      'answers at http://journal.test/harbour. Old addresses answering 301: harbour.example.org.',
    );
  });

  it('closes, archives and reopens', async () => {
    expect((await run('close', '2')).out).toBe('Journal 2, “Tidal Studies”, is closed.');
    expect((await run('archive', 'harbour')).out).toBe('Journal 3, “Harbour Review”, is archived.');
    expect((await run('reopen', '2')).out).toBe('Journal 2, “Tidal Studies”, is open.');
  });

  it('refuses with the page’s words and exit code 1', async () => {
    const reserved = await run('create', '--title', 'X', '--path', 'volumes', '--editor', 'ada');
    expect(reserved).toMatchObject({ code: 1, out: '' });
    expect(reserved.err).toMatch(/one of the site’s own addresses/);
    const unknown = await run('create', '--title', 'X', '--path', 'x-journal', '--editor', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/No account has the username or e-mail “nobody”/);
    const taken = await run('create', '--title', 'X', '--path', 'tides', '--editor', 'ada');
    expect(taken.code).toBe(1);
    expect(taken.err).toMatch(/was the address of the journal “Tidal Studies”/);
    expect(await run('close', 'no-such-journal')).toMatchObject({
      code: 1,
      err: 'No journal has the id, path or domain “no-such-journal”.',
    });
    expect((await run('move-to-domain', '2', 'not a domain')).err).toMatch(/host name/);
  });

  it('answers a usage mistake with the usage and exit code 2', async () => {
    for (const args of [
      [],
      ['rename'],
      ['list', 'extra'],
      ['create', '--title'],
      ['create', '--colour', 'red'],
      ['create', '--title', 'A', '--title', 'B'],
      ['move-to-path', '2'],
      ['close'],
    ]) {
      const r = await run(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain('journal create --title TITLE');
    }
  });
});

describe('npm run cli -- journal', () => {
  it('runs on a data folder as a person runs it, with exit codes', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'colophon-cli-journal-'));
    try {
      const cli = (...args: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'journal', ...args], {
          cwd: path.resolve(import.meta.dirname, '../..'),
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            DATA_DIR: dataDir,
            SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
            PUBLIC_URL: 'http://journal.test',
            LOG_LEVEL: 'warn',
          },
          encoding: 'utf8',
          timeout: 120_000,
        });
      const list = cli('list');
      expect(list.status, list.stderr).toBe(0);
      expect(list.stdout).toMatch(/^ {3}1 {2}http:\/\/journal\.test {2}open/);
      // No account yet on a data folder the server never seeded: refused in words, exit 1.
      const refused = cli('create', '--title', 'Tides', '--path', 'tides', '--editor', 'admin');
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/No account has the username or e-mail “admin”/);
      expect(cli('nonsense').status).toBe(2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
