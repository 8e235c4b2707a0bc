import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_STATEMENTS } from '../../common/preservation.ts';
import { demoVolume } from '../../content/demo-articles.ts';
import { withJournal } from '../../server/db/scope.ts';
import { MEDIA_TYPES } from '../../server/files/content-type.ts';
import { readBagFolder, unzipBag } from '../../server/preservation/bagit.ts';
import { checkBag } from '../../server/preservation/check.ts';
import { archiveCommand } from '../../server/preservation/commands.ts';
import { BAG_DEBOUNCE_MS, BAG_JOB } from '../../server/preservation/service.ts';
import { createIssue, createVolume, makeJournal, publishArticle } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';
import { KNOWN } from '../fixtures/fulltext/manuscripts.ts';

/** Preservation (issue 25, decision 0065): manifests, the crawlers' addresses, each issue's BagIt package. */
let t: TestContext;
let admin: Record<string, string>;
let editor: Record<string, string>;
let researcher: Record<string, string>;
let issueId: number;
let articleId: number;
let journalB: number;
const YEAR = 2024;

const get = (url: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
  t.app.inject({ method: 'GET', url, headers, ...(remoteAddress ? { remoteAddress } : {}) });
const putSettings = (headers: Record<string, string>, payload: unknown, prefix = '') =>
  t.app.inject({
    method: 'PUT',
    url: `${prefix}/api/admin/preservation`,
    headers,
    payload: payload as never,
  });
/** Past the debounce window: the bag jobs queued in it are due. */
const afterWindow = async () => {
  t.clock.advance(BAG_DEBOUNCE_MS + 1000);
  await t.runJobs();
};
const downloadBag = async (id: number, headers = editor) => {
  const res = await get(`/api/editor/preservation/issues/${id}/bag`, headers);
  expect(res.statusCode, res.body).toBe(200);
  return unzipBag(res.rawPayload);
};

beforeAll(async () => {
  t = await createTestContext({}, { demo: true });
  await t.runJobs();
  admin = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  const e = await t.createUser({ role: 'editor', status: 'approved' });
  editor = { authorization: `Bearer ${await t.login(e.username, e.password)}` };
  const r = await t.createUser({ role: 'researcher', status: 'approved' });
  researcher = { authorization: `Bearer ${await t.login(r.username, r.password)}` };
  const volume = await createVolume(t, admin, { number: 7, year: YEAR });
  issueId = (await createIssue(t, admin, { volumeId: volume.id, title: 'Preserved issue' })).id;
  articleId = (
    await publishArticle(t, admin, { issueId, title: 'Kept for ever', doi: '10.5555/keep.1', pages: '1-9' })
  ).id;
  journalB = await makeJournal(t, { title: 'Journal B', path: 'jb' });
});
afterAll(() => t?.close());

describe('manifest pages', () => {
  it('are 404 while off, in every journal', async () => {
    for (const url of [
      '/gateway/lockss',
      '/gateway/clockss',
      `/gateway/lockss?year=${YEAR}`,
      '/jb/gateway/lockss',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('permission');
    }
  });

  it('are switched on by the admin alone, with the crawlers’ addresses checked', async () => {
    const on = { lockss: true, clockss: false, crawlerAddresses: ['203.0.113.0/24', '2001:db8::7'] };
    expect((await putSettings(editor, on)).statusCode).toBe(403);
    expect((await putSettings({}, on)).statusCode).toBe(401);
    const bad = await putSettings(admin, { ...on, crawlerAddresses: ['203.0.113.0/33', 'lockss.example'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.crawlerAddresses).toBe(
      '"203.0.113.0/33": a range\'s prefix length is a number from 0 to 32.',
    );
    const name = await putSettings(admin, { ...on, crawlerAddresses: ['lockss.example'] });
    expect(name.json().message).toBe(
      '"lockss.example" is not an IP address or a range such as 192.0.2.0/24.',
    );
    expect((await putSettings(admin, { lockss: 'yes' })).statusCode).toBe(400);
    const res = await putSettings(admin, on);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings).toEqual(on);
    const overview = await get('/api/editor/preservation', editor);
    expect(overview.json().settings).toEqual(on);
    expect((await get('/api/editor/preservation', researcher)).statusCode).toBe(403);
  });

  it('list the years, then a year’s issues with each article’s page, PDF and JATS, and the statement', async () => {
    const base = t.services.journalUrl();
    const years = await get('/gateway/lockss');
    expect(years.statusCode).toBe(200);
    expect(years.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(years.body).toContain(PERMISSION_STATEMENTS.lockss);
    expect(years.body).not.toContain('<script');
    const journal = await t.services.settings.journal();
    expect(years.body).toContain(`<h1>${journal.name}</h1>`);
    expect(years.body).toContain(`ISSN ${journal.issnOnline}`);
    expect(years.body).toContain(`<a href="${base}/gateway/lockss?year=${YEAR}">${YEAR}</a>`);
    expect(years.body).toContain(`?year=${demoVolume.year}"`);

    const year = await get(`/gateway/lockss?year=${YEAR}`);
    expect(year.statusCode).toBe(200);
    expect(year.body).toContain(PERMISSION_STATEMENTS.lockss);
    expect(year.body).toContain(
      `<a href="${base}/volumes?volume=7&amp;issue=1">Volume 7, issue 1 (${YEAR}): Preserved issue</a>`,
    );
    expect(year.body).toContain(`<a href="${base}/article/${articleId}">Kept for ever</a>`);
    expect(year.body).toContain(`<a href="${base}/api/articles/${articleId}/download">PDF</a>`);
    expect(year.body).toContain(`<a href="${base}/article/${articleId}/jats.xml">JATS XML</a>`);
    // The demo's year is another page.
    expect(year.body).not.toContain(`Volume ${demoVolume.volumeNumber}, issue`);

    expect((await get('/gateway/clockss')).statusCode).toBe(404);
    const word = await get('/gateway/lockss?year=next');
    expect(word.statusCode).toBe(400);
    expect(word.body).toContain('Give the year as four digits, such as 2026.');
    const empty = await get('/gateway/lockss?year=1999');
    expect(empty.statusCode).toBe(404);
    expect(empty.body).toContain('No issue was published in 1999.');
  });

  it('CLOCKSS has its own statement; another journal lists only its own issues', async () => {
    await putSettings(admin, { lockss: true, clockss: true, crawlerAddresses: ['203.0.113.0/24'] });
    const clockss = await get(`/gateway/clockss?year=${YEAR}`);
    expect(clockss.statusCode).toBe(200);
    expect(clockss.body).toContain(PERMISSION_STATEMENTS.clockss);
    expect(clockss.body).not.toContain(PERMISSION_STATEMENTS.lockss);

    // Journal B: off until its own admin switches it on; then its pages name none of A's issues.
    expect((await get('/jb/gateway/lockss')).statusCode).toBe(404);
    expect(
      (await putSettings(admin, { lockss: true, clockss: false, crawlerAddresses: [] }, '/jb')).statusCode,
    ).toBe(200);
    const bYears = await get('/jb/gateway/lockss');
    expect(bYears.statusCode).toBe(200);
    expect(bYears.body).toContain('<h1>Journal B</h1>');
    expect(bYears.body).toContain('No issue has been published yet.');
    expect(bYears.body).not.toContain(String(YEAR));
    expect((await get(`/jb/gateway/lockss?year=${YEAR}`)).statusCode).toBe(404);
    expect((await get('/jb/gateway/clockss')).statusCode).toBe(404);
    // A's settings are A's.
    expect((await get(`/gateway/lockss?year=${YEAR}`)).statusCode).toBe(200);
  });
});

describe('the crawler’s downloads', () => {
  it('needs no account from a listed address while a manifest is on, and an account otherwise', async () => {
    const url = `/api/articles/${articleId}/download`;
    expect((await get(url, {}, '203.0.113.9')).statusCode).toBe(200);
    expect((await get(url, {}, '::ffff:203.0.113.200')).statusCode).toBe(200);
    expect((await get(url, {}, '198.51.100.9')).statusCode).toBe(401);
    expect((await get(url, {}, '127.0.0.1')).statusCode).toBe(401);
    // Both manifests off: the listed address is nobody's.
    await putSettings(admin, { lockss: false, clockss: false, crawlerAddresses: ['203.0.113.0/24'] });
    expect((await get(url, {}, '203.0.113.9')).statusCode).toBe(401);
    expect((await get('/gateway/lockss')).statusCode).toBe(404);
    await putSettings(admin, { lockss: true, clockss: true, crawlerAddresses: ['203.0.113.0/24'] });
    // Journal B lists no address: A's list does not open B's PDFs.
    expect((await get(`/jb${url}`, {}, '203.0.113.9')).statusCode).not.toBe(200);
  });
});

describe('archive packages', () => {
  it('are made by a job after a publication, after the debounce window, and checked whole', async () => {
    const before = (await get('/api/editor/preservation', editor)).json();
    expect(before.issues.find((i: { issue_id: number }) => i.issue_id === issueId).bag).toBeNull();
    await afterWindow();
    const overview = (await get('/api/editor/preservation', editor)).json();
    const row = overview.issues.find((i: { issue_id: number }) => i.issue_id === issueId);
    expect(row.published_articles).toBe(1);
    expect(row.bag).toMatchObject({ files: 3, download: `/api/editor/preservation/issues/${issueId}/bag` });
    const { root, bag } = await downloadBag(issueId);
    expect(root).toBe(`${(await t.services.settings.journal()).abbreviation.toLowerCase()}-v7-i1`);
    expect(checkBag(bag)).toEqual([]);
    expect(bag.get('bagit.txt')!.toString()).toBe('BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n');
    const info = bag.get('bag-info.txt')!.toString();
    expect(info).toMatch(/^Source-Organization: .+$/m);
    expect(info).toMatch(/^External-Identifier: .+volume=7&issue=1$/m);
    expect(info).toMatch(/^Bagging-Date: \d{4}-\d{2}-\d{2}$/m);
    expect(info).toMatch(/^Bag-Size: .+$/m);
    expect([...bag.keys()].filter((k) => k.startsWith('data/')).sort()).toEqual([
      `data/articles/01-article-${articleId}/article.pdf`,
      `data/articles/01-article-${articleId}/article.xml`,
      'data/issue.json',
    ]);
    const jats = bag.get(`data/articles/01-article-${articleId}/article.xml`)!.toString();
    expect(jats).toBe((await get(`/article/${articleId}/jats.xml`)).body);
    const issue = JSON.parse(bag.get('data/issue.json')!.toString());
    expect(issue.issue).toMatchObject({ volume: 7, number: 1, year: YEAR, title: 'Preserved issue' });
    expect(issue.articles).toEqual([
      expect.objectContaining({ position: 1, id: articleId, title: 'Kept for ever', doi: '10.5555/keep.1' }),
    ]);
    for (const name of ['manifest-sha256.txt', 'manifest-sha512.txt', 'tagmanifest-sha256.txt'])
      expect(bag.has(name)).toBe(true);
  });

  it('are made again, once, when the issue or its articles change; the newer replaces the older', async () => {
    const second = await publishArticle(t, admin, {
      issueId,
      title: 'A second one',
      doi: '10.5555/keep.2',
      pages: '10-12',
    });
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/editor/issues/${issueId}`,
      headers: admin,
      payload: { title: 'Preserved issue, corrected', description: 'Spring' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    // Two changes in one window: one job for the issue.
    const queued = await t.services.db.execute<{ n: number }>(
      sql`select count(*)::int as n from jobs where name = ${BAG_JOB} and status = 'queued' and (payload->>'issueId')::int = ${issueId}`,
    );
    expect((queued as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);
    await afterWindow();
    const { bag } = await downloadBag(issueId);
    expect(checkBag(bag)).toEqual([]);
    const issue = JSON.parse(bag.get('data/issue.json')!.toString());
    expect(issue.issue.title).toBe('Preserved issue, corrected');
    expect(issue.articles.map((a: { id: number }) => a.id)).toEqual([articleId, second.id]);
    const rows = await t.services.db.execute<{ n: number }>(
      sql`select count(*)::int as n from preservation_bags where issue_id = ${issueId}`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);

    // Unpublishing the second article makes it leave the bag.
    await t.app.inject({
      method: 'POST',
      url: `/api/editor/articles/${second.id}/status`,
      headers: admin,
      payload: { status: 'unpublished' },
    });
    await afterWindow();
    const after = await downloadBag(issueId);
    expect(JSON.parse(after.bag.get('data/issue.json')!.toString()).articles).toHaveLength(1);
  });

  it('are downloaded and remade by editors only; unknown issues and empty ones are refused in words', async () => {
    expect((await get(`/api/editor/preservation/issues/${issueId}/bag`, researcher)).statusCode).toBe(403);
    expect((await get(`/api/editor/preservation/issues/${issueId}/bag`)).statusCode).toBe(401);
    expect((await get(`/jb/api/editor/preservation/issues/${issueId}/bag`, admin)).statusCode).toBe(404);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/editor/preservation/issues/987654/bag',
      headers: editor,
    });
    expect(missing.statusCode).toBe(404);
    const volume = await createVolume(t, admin, { number: 8, year: YEAR - 2 });
    const empty = (await createIssue(t, admin, { volumeId: volume.id })).id;
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/editor/preservation/issues/${empty}/bag`,
      headers: editor,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(
      'This issue has no published article yet: there is nothing to archive.',
    );
    const none = await get(`/api/editor/preservation/issues/${empty}/bag`, editor);
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('This issue has no archive package yet.');

    const made = (await get('/api/editor/preservation', editor))
      .json()
      .issues.find((i: { issue_id: number }) => i.issue_id === issueId).bag.made_at;
    t.clock.advance(5000);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/editor/preservation/issues/${issueId}/bag`,
      headers: editor,
    });
    expect(res.statusCode).toBe(202);
    const again = (await get('/api/editor/preservation', editor))
      .json()
      .issues.find((i: { issue_id: number }) => i.issue_id === issueId).bag.made_at;
    expect(new Date(again).getTime()).toBeGreaterThan(new Date(made).getTime());
    // The older bag's file is gone with it: one stored ZIP for the issue.
    const zips = await t.services.db.execute(
      sql`select count(*)::int as n from stored_files where original_name like ${'%-v7-i1.zip'}`,
    );
    expect((zips as unknown as { rows: { n: number }[] }).rows[0].n).toBe(1);
  });
});

describe('a full text’s change', () => {
  it('makes the bag again with the new JATS and the figures', async () => {
    await t.services.fulltext.store(
      null,
      { articleId },
      {
        field: 'word',
        filename: 'final.docx',
        data: readFileSync(new URL('../fixtures/fulltext/article.docx', import.meta.url)),
        kind: 'docx',
        mediaType: MEDIA_TYPES.docx,
      },
      KNOWN,
    );
    const alt = await t.app.inject({
      method: 'PATCH',
      url: `/api/editor/articles/${articleId}/fulltext/alt`,
      headers: editor,
      payload: { 'alt-1': 'A diagram.', 'alt-2': 'Two bars.' },
    });
    expect(alt.statusCode, alt.body).toBe(200);
    await afterWindow();
    const { bag } = await downloadBag(issueId);
    expect(checkBag(bag)).toEqual([]);
    const figures = [...bag.keys()].filter((k) =>
      k.startsWith(`data/articles/01-article-${articleId}/figures/`),
    );
    expect(figures.length).toBe(2);
    const jats = bag.get(`data/articles/01-article-${articleId}/article.xml`)!.toString();
    expect(jats).toContain('<body>');
    expect(jats).toBe((await get(`/article/${articleId}/jats.xml`)).body);
  });
});

describe('the bag checker', () => {
  it('passes the demo volume’s bag and rejects corrupted ones, saying what is wrong', async () => {
    const [demo] = (await t.services.preservation.archivableIssues()).filter(
      (i) => i.volume === demoVolume.volumeNumber && i.year === demoVolume.year,
    );
    expect(demo.articles.length).toBeGreaterThan(1);
    const made = await t.services.preservation.makeBag(demo.id);
    expect(made).not.toBeNull();
    const { bag } = unzipBag(made!.zip);
    expect(checkBag(bag)).toEqual([]);
    // The demo's full texts bring their figures.
    expect([...bag.keys()].some((k) => /\/figures\/figure-\d+\.(png|jpg)$/.test(k))).toBe(true);

    const pdf = [...bag.keys()].find((k) => k.endsWith('.pdf'))!;
    const flipped = new Map(bag);
    const bytes = Buffer.from(flipped.get(pdf)!);
    bytes[bytes.length - 3] ^= 0xff;
    flipped.set(pdf, bytes);
    expect(checkBag(flipped)).toContain(
      `"${pdf}" does not match its sha256 checksum in manifest-sha256.txt.`,
    );

    const extra = new Map(bag);
    extra.set('data/stray.txt', Buffer.from('x'));
    const problems = checkBag(extra);
    expect(problems).toContain('"data/stray.txt" is not listed in manifest-sha256.txt.');
    expect(problems.some((p) => p.startsWith('Payload-Oxum says'))).toBe(true);

    const gone = new Map(bag);
    gone.delete(pdf);
    expect(checkBag(gone)).toContain(`manifest-sha512.txt lists "${pdf}", which is not in the bag.`);

    const version = new Map(bag);
    version.set('bagit.txt', Buffer.from('BagIt-Version: 0.97\nTag-File-Character-Encoding: UTF-8\n'));
    expect(checkBag(version)).toContain(
      'bagit.txt must be exactly "BagIt-Version: 1.0" and "Tag-File-Character-Encoding: UTF-8".',
    );
    const info = new Map(bag);
    info.set(
      'bag-info.txt',
      Buffer.from(
        bag
          .get('bag-info.txt')!
          .toString()
          .replace(/Payload-Oxum: \d+/, 'Payload-Oxum: 1'),
      ),
    );
    const infoProblems = checkBag(info);
    expect(infoProblems.some((p) => p.startsWith('Payload-Oxum says 1.'))).toBe(true);
    expect(infoProblems).toContain(
      '"bag-info.txt" does not match its sha256 checksum in tagmanifest-sha256.txt.',
    );
  });
});

describe('npm run cli -- archive', () => {
  it('makes and stores every issue’s bag and writes each as a folder, or one issue as a ZIP', async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'colophon-archive-'));
    try {
      const lines: string[] = [];
      const io = { log: (l: string) => lines.push(l), error: (l: string) => lines.push(`error: ${l}`) };
      const code = await archiveCommand(['journal', '--out', out], t.services, io);
      expect(code, lines.join('\n')).toBe(0);
      const folders = readdirSync(out).sort();
      expect(folders.length).toBe(2);
      for (const folder of folders) expect(checkBag(await readBagFolder(path.join(out, folder)))).toEqual([]);
      expect(lines.join('\n')).toContain('2 issue(s) archived');

      const zipOut = path.join(out, 'zips');
      expect(await archiveCommand(['issue', String(issueId), '--zip', '--out', zipOut], t.services, io)).toBe(
        0,
      );
      const [zipName] = readdirSync(zipOut);
      expect(zipName).toMatch(/-v7-i1\.zip$/);

      // Journal B by its path: no issue there, said so; an unknown journal or issue is an error.
      expect(await archiveCommand(['journal', '--journal', 'jb'], t.services, io)).toBe(0);
      expect(lines.at(-1)).toBe('No issue of Journal B has a published article: nothing to archive.');
      expect(await archiveCommand(['journal', '--journal', 'nowhere'], t.services, io)).toBe(2);
      expect(await archiveCommand(['issue', '987654'], t.services, io)).toBe(1);
      expect(lines.at(-1)).toBe('error: No such issue, or it has no published article: 987654.');
      expect(await archiveCommand(['issue'], t.services, io)).toBe(2);
      writeFileSync(path.join(out, 'file'), 'x');
      expect(await archiveCommand(['journal', '--out', path.join(out, 'file')], t.services, io)).toBe(1);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    // The command works in a journal's scope: B's settings are not A's.
    expect((await withJournal(journalB, () => t.services.preservation.settings())).clockss).toBe(false);
  });
});
