import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles } from '../../server/catalog/tables.ts';
import { withJournal } from '../../server/db/scope.ts';
import { exportCommand } from '../../server/ojs/export/commands.ts';
import type { JatsManifest } from '../../server/ojs/export/jats-folder.ts';
import { writeBase64 } from '../../server/ojs/export/sink.ts';
import { reviewerProfiles } from '../../server/review/tables.ts';
import {
  bearer,
  createIssue,
  createVolume,
  makeJournal,
  publishArticle,
} from '../../server/testing/factories.ts';
import { type TestContext, createTestContext, fixture, insertUser } from '../../server/testing/harness.ts';
import { validateWithSchema } from './discovery-helpers.ts';

/**
 * Moving out (issue 26, decision 0068): the journal admin's downloads (OJS Native XML and Users XML, streamed,
 * theirs alone) and the `export ojs` command (the files beside the XML, the JATS folder).
 */
let t: TestContext;
let admin: Record<string, string>;
let editor: Record<string, string>;
let adminB: Record<string, string>;
let journalB: number;
let published: number;
let unpublished: number;
let tmp: string;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  t = await createTestContext();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ojs-export-api-'));
  admin = bearer(await t.login('admin', 'admin-pass-123'));
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = bearer(await t.login(e.username, e.password));
  await withJournal(1, () =>
    t.services.db.insert(reviewerProfiles).values({
      userId: e.id,
      name: 'Test editor',
      email: e.email,
      interests: ['sensors', 'signal processing'],
    }),
  );
  const volume = await createVolume(t, admin, { number: 1, year: 2024 });
  const issueId = (await createIssue(t, admin, { volumeId: volume.id, title: 'Journal A’s issue' })).id;
  published = (await publishArticle(t, admin, { issueId, title: 'A published paper', doi: '10.5555/a.1' }))
    .id;
  unpublished = (await publishArticle(t, admin, { issueId, title: 'A withdrawn paper', doi: '10.5555/a.2' }))
    .id;
  await withJournal(1, () =>
    t.services.db.update(articles).set({ status: 'unpublished' }).where(eq(articles.id, unpublished)),
  );
  journalB = await makeJournal(t, { title: 'Journal B', path: 'jb' }, {}, { admin: null });
  const b = await withJournal(journalB, () =>
    insertUser(t.services.db, { role: 'admin', status: 'approved' }),
  );
  adminB = bearer(await t.login(b.username, b.password));
  // Journal B's volume, through its own address.
  const volumeB = await t.app.inject({
    method: 'POST',
    url: '/jb/api/editor/volume',
    headers: adminB,
    payload: { title: 'Volume 9', volume_number: 9, year: 2026 },
  });
  expect(volumeB.statusCode, volumeB.body).toBe(201);
  const issueB = await t.app.inject({
    method: 'POST',
    url: '/jb/api/editor/issue',
    headers: adminB,
    payload: { volume_id: volumeB.json().volume.id, title: 'Journal B’s first', description: 'Soon' },
  });
  expect(issueB.statusCode, issueB.body).toBe(201);
  // Journal C has no issue at all.
  await makeJournal(t, { title: 'Journal C', path: 'jc' }, {}, { admin: b.username });
});
afterAll(async () => {
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('GET /api/admin/export/ojs.xml', () => {
  it('is the journal admin’s alone', async () => {
    expect((await get('/api/admin/export/ojs.xml')).statusCode).toBe(401);
    expect((await get('/api/admin/export/ojs.xml', editor)).statusCode).toBe(403);
    // Journal B's admin is nobody in journal A, and journal A's admin nobody in journal B.
    expect((await get('/api/admin/export/ojs.xml', adminB)).statusCode).toBe(403);
    expect((await get('/jb/api/admin/export/ojs.xml', admin)).statusCode).toBe(403);
  });

  it('streams the journal as valid OJS 3.4 Native XML, published and unpublished articles, PDFs embedded', async () => {
    const res = await get('/api/admin/export/ojs.xml', admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('issues.xml');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const check = validateWithSchema('ojs', res.body, '3.4');
    expect(check.ok, check.output).toBe(true);
    expect(res.body).toContain('<title locale="en">A published paper</title>');
    expect(res.body).toContain('<title locale="en">A withdrawn paper</title>');
    expect(res.body).toContain('<embed encoding="base64" mime_type="application/pdf">');
    const pdf = fixture('manuscript.pdf');
    const embedded = /<embed encoding="base64" mime_type="application\/pdf">([^<]*)<\/embed>/.exec(
      res.body,
    )![1];
    expect(sha(Buffer.from(embedded, 'base64'))).toBe(sha(pdf));
    expect(res.body).not.toContain('Volume 9');
  });

  it('answers each journal with its own', async () => {
    const res = await get('/jb/api/admin/export/ojs.xml', adminB);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('<volume>9</volume>');
    expect(res.body).not.toContain('A published paper');
    expect(validateWithSchema('ojs', res.body, '3.4').ok).toBe(true);
  });

  it('refuses a journal with no issue (OJS wants one), before anything is written', async () => {
    const res = await get('/jc/api/admin/export/ojs.xml', adminB);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('This journal has no issue yet: there is nothing to export to OJS.');
  });
});

describe('GET /api/admin/export/users.xml', () => {
  it('is the admin’s alone, and gives the journal’s accounts as valid OJS 3.4 Users XML', async () => {
    expect((await get('/api/admin/export/users.xml')).statusCode).toBe(401);
    expect((await get('/api/admin/export/users.xml', editor)).statusCode).toBe(403);
    const res = await get('/api/admin/export/users.xml', admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain('users.xml');
    const check = validateWithSchema('ojs-users', res.body, '3.4');
    expect(check.ok, check.output).toBe(true);
    // The editor reviews too: both groups, and the interests of the reviewer profile.
    expect(res.body).toMatch(
      /<user_group_ref>Section editor<\/user_group_ref><user_group_ref>Reviewer<\/user_group_ref><review_interests>sensors, signal processing<\/review_interests>/,
    );
    const b = await get('/jb/api/admin/export/users.xml', adminB);
    expect(b.statusCode).toBe(200);
    expect(b.body.match(/<user>/g)).toHaveLength(1);
    expect(b.body).not.toContain('<username>admin</username>');
  });
});

describe('writeBase64', () => {
  it('encodes a stream in lines of 76 whatever its chunks, byte for byte', async () => {
    const bytes = Buffer.from(Array.from({ length: 10_007 }, (_, i) => (i * 7919) % 256));
    const source = new PassThrough();
    const out: string[] = [];
    const done = writeBase64({ write: async (s) => void out.push(String(s)) }, source);
    for (let i = 0, n = 1; i < bytes.length; i += n, n = (n * 3) % 997 || 1)
      source.write(bytes.subarray(i, i + n));
    source.end();
    expect(await done).toBe(bytes.length);
    const text = out.join('');
    expect(
      text
        .split('\n')
        .slice(0, -2)
        .every((line) => line.length === 76),
    ).toBe(true);
    expect(Buffer.from(text, 'base64').equals(bytes)).toBe(true);
  });
});

describe('npm run cli -- export ojs', () => {
  const run = async (args: string[]) => {
    const lines: string[] = [];
    const errors: string[] = [];
    const code = await exportCommand(args, t.services, {
      log: (l) => lines.push(l),
      error: (l) => errors.push(l),
    });
    return { code, lines, errors };
  };

  it('refuses what it cannot do, saying why', async () => {
    expect((await run(['ojs', '--out', tmp])).errors[0]).toContain('say which journal with --journal');
    expect((await run(['ojs', '--journal', '1'])).errors[0]).toContain('say where with --out DIR');
    const unknown = await run(['ojs', '--journal', 'nope', '--out', tmp]);
    expect(unknown.code).toBe(2);
    expect(unknown.errors[0]).toContain('no journal "nope"');
    expect((await run(['ojs', '--journal', '1', '--out', tmp, '--files', 'zip'])).errors[0]).toContain(
      '--files is "embed" or "href", not "zip"',
    );
    expect((await run(['csv'])).code).toBe(2);
    const empty = await run(['ojs', '--journal', 'jc', '--out', path.join(tmp, 'c')]);
    expect(empty).toMatchObject({
      code: 1,
      errors: ['Journal C: This journal has no issue yet: there is nothing to export to OJS.'],
    });
    expect(existsSync(path.join(tmp, 'c', 'issues.xml'))).toBe(false);
    // A folder that cannot be written: a file stands where it should be.
    const blocked = path.join(tmp, 'blocked');
    await import('node:fs/promises').then((fs) => fs.writeFile(blocked, 'a file'));
    const refused = await run(['ojs', '--journal', '1', '--out', path.join(blocked, 'out')]);
    expect(refused.code).toBe(1);
    expect(refused.errors[0]).toMatch(/^Could not write to .*blocked\/out: /);
  });

  it('writes issues.xml with the files beside it, users.xml and the JATS folder', async () => {
    const out = path.join(tmp, 'export');
    const r = await run(['ojs', '--journal', 'jb', '--out', path.join(tmp, 'b')]);
    expect(r.code, r.errors.join('\n')).toBe(0);
    const a = await run(['ojs', '--journal', '1', '--out', out, '--files', 'href', '--users', '--jats']);
    expect(a.code, a.errors.join('\n')).toBe(0);
    expect(a.lines[0]).toMatch(/1 issue\(s\), 2 article\(s\), 2 file\(s\)/);
    expect(readdirSync(out).sort()).toEqual(['files', 'issues.xml', 'jats', 'users.xml']);
    const xml = readFileSync(path.join(out, 'issues.xml'), 'utf8');
    expect(validateWithSchema('ojs', xml, '3.4').ok).toBe(true);
    const hrefs = [...xml.matchAll(/<href src="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toHaveLength(2);
    for (const h of hrefs) expect(sha(readFileSync(path.join(out, h)))).toBe(sha(fixture('manuscript.pdf')));
    expect(validateWithSchema('ojs-users', readFileSync(path.join(out, 'users.xml'), 'utf8'), '3.4').ok).toBe(
      true,
    );

    const manifest: JatsManifest = JSON.parse(readFileSync(path.join(out, 'jats', 'manifest.json'), 'utf8'));
    expect(manifest.articles.map((m) => [m.id, m.status, m.folder])).toEqual([
      [published, 'published', `v1-i1/01-article-${published}`],
      [unpublished, 'unpublished', `v1-i1/02-article-${unpublished}`],
    ]);
    for (const m of manifest.articles) {
      const jats = readFileSync(path.join(out, 'jats', m.files.jats), 'utf8');
      const check = validateWithSchema('jats', jats);
      expect(check.ok, check.output).toBe(true);
      expect(jats).toContain(m.title);
      expect(sha(readFileSync(path.join(out, 'jats', m.files.pdf!)))).toBe(sha(fixture('manuscript.pdf')));
    }
    // Nothing half-written is left behind.
    const all = readdirSync(out, { recursive: true }).map(String);
    expect(all.filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(existsSync(path.join(tmp, 'b', 'users.xml'))).toBe(false);
  });
});
