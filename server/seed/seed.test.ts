import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { journalSettingsSchema } from '../../common/journal.ts';
import { demoArticles } from '../../content/demo-articles.ts';
import { journalDefaults } from '../../content/journal.ts';
import { users } from '../accounts/tables.ts';
import { articleAuthors, articles, issues, volumes } from '../catalog/tables.ts';
import { loadConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';
import { storedFiles } from '../files/tables.ts';
import { installCacheDir } from '../install-cache.ts';
import { createServices, type Services } from '../services.ts';
import { JOURNAL_KEY } from '../settings/service.ts';
import { scratchDatabase } from '../testing/harness.ts';
import { articlePdf } from './pdf.ts';
import { DEMO_MARKER_KEY, issnCheckDigit, isValidIssn, seed } from './seed.ts';

const silent = { info() {}, warn() {}, error() {} };
const opened: { database: Database; dir: string }[] = [];

async function setup(env: Record<string, string> = {}): Promise<Services> {
  const dir = mkdtempSync(path.join(tmpdir(), 'colophon-seed-'));
  const config = loadConfig({
    DATA_DIR: dir,
    SESSION_SECRET: 'x'.repeat(40),
    ADMIN_PASSWORD: 'admin-pass-123',
    ...env,
  });
  const database = await openDatabase({ memory: true });
  opened.push({ database, dir });
  return createServices(config, database, silent);
}

afterEach(async () => {
  for (const { database, dir } of opened.splice(0)) {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

describe('seed', () => {
  it('creates settings, the admin and the demo issue once, however often it runs', async () => {
    const services = await setup();
    const started = performance.now();
    const first = await seed(services, { demo: true });
    const elapsed = performance.now() - started;
    const second = await seed(services, { demo: true });
    console.info(`seed with demo content: ${Math.round(elapsed)} ms`);

    expect(first).toEqual({ adminCreated: true, adminPassword: null });
    expect(second).toEqual({ adminCreated: false, adminPassword: null });
    const db = services.db;

    const admins = await db.select().from(users).where(eq(users.username, 'admin'));
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({ siteAdmin: true });
    expect(await services.accounts.sessionUser(admins[0].id)).toMatchObject({ role: 'admin', status: 'approved' });

    const journal = journalSettingsSchema.parse(await services.settings.get(JOURNAL_KEY));
    expect(isValidIssn(journal.issnOnline)).toBe(true);
    expect(journal.email).toBe(services.config.EDITORIAL_EMAIL);

    expect(await db.select().from(volumes)).toMatchObject([
      { title: 'Volume 1', volumeNumber: 1, year: 2025 },
    ]);
    const issueRows = await db.select().from(issues);
    expect(issueRows).toMatchObject([{ title: 'Issue 1', issueNumber: 1, publicationDate: '2025-03-01' }]);

    const rows = await db.select().from(articles).orderBy(articles.firstPage);
    expect(rows).toHaveLength(5);
    let expectedFirst = 1;
    for (const row of rows) {
      expect(row.status).toBe('published');
      expect(row.issueId).toBe(issueRows[0].id);
      expect(row.doi).toMatch(/^10\.5555\/cjei\.2025\.1\.1\.00[1-5]$/);
      expect(row.keywords.split(',').length).toBeGreaterThanOrEqual(4);
      // Page ranges follow each other without gaps.
      expect(row.firstPage).toBe(expectedFirst);
      expectedFirst = row.lastPage! + 1;

      const [{ n }] = await db
        .select({ n: count() })
        .from(articleAuthors)
        .where(eq(articleAuthors.articleId, row.id));
      expect(n).toBeGreaterThanOrEqual(2);

      const file = await services.files.get(row.pdfFileId!);
      expect(file.mediaType).toBe('application/pdf');
      expect(await services.files.blobs.size(file.key)).toBe(file.size);
      const bytes = await readAll(await services.files.open(file));
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const pdf = await PDFDocument.load(bytes);
      expect(pdf.getPageCount()).toBeGreaterThanOrEqual(3);
      // The printed page range is the PDF's own length.
      expect(pdf.getPageCount()).toBe(row.lastPage! - row.firstPage! + 1);
      expect(pdf.getTitle()).toBe(row.title);
    }
    // The five PDFs now; each article's Word file and figures (its full text, issue 16) once the jobs the
    // seed queued have run (a started server runs them after it listens), once each.
    expect((await db.select({ n: count() }).from(storedFiles))[0].n).toBe(5);
    // Five full texts; each one made tells preservation its issue changed (five follow-ups, decision 0065),
    // whose one bag waits for the end of its minute.
    expect(await services.jobs.runDue()).toBe(10);
    expect(await services.jobs.runDue()).toBe(0);
    const figureCount = demoArticles.reduce((n, a) => n + a.sections.filter((x) => x.figure).length, 0);
    expect((await db.select({ n: count() }).from(storedFiles))[0].n).toBe(5 + 5 + figureCount);
    for (const [i, row] of rows.entries()) {
      const view = await services.fulltext.of({ articleId: row.id });
      expect(view?.ready, row.title).toBe(true);
      const demo = demoArticles[i];
      expect(
        view!.document.sections.map((x) => x.title.map((t) => (t.t === 'text' ? t.v : '')).join('')),
      ).toEqual([...demo.sections.map((x, n) => `${n + 1}. ${x.heading}`), 'Funding', 'Data availability']);
      expect(view!.document.references).toHaveLength(demo.references.length);
      // The Word file's own title page is left out and said so ('front', decision 0041); nothing else is listed
      // but references without a DOI.
      expect(view!.problems.map((p) => p.kind).filter((k) => k !== 'doi')).toEqual(['front']);
      expect(await services.fulltext.readerHtml(row.id)).toContain(
        '<figure class="fulltext-figure" id="figure-1">',
      );
    }

    // What the reader site shows.
    const tree = await services.catalog.publicTree();
    expect(tree[0].issues[0].articles.map((a) => a.title)).toEqual(demoArticles.map((a) => a.title));
    expect(tree[0].issues[0].articles[0].authors[0]).toMatchObject({ superscript: '1' });
  });

  it('creates no articles without demo content, and reports a generated admin password', async () => {
    const services = await setup({ ADMIN_PASSWORD: '' });
    const result = await seed(services, { demo: false });
    expect(result.adminCreated).toBe(true);
    expect(result.adminPassword).toMatch(/^\S{12,}$/);
    expect((await seed(services, { demo: false })).adminPassword).toBeNull();
    expect(await services.db.select().from(articles)).toHaveLength(0);
    expect(await services.db.select().from(volumes)).toHaveLength(0);
    expect((await services.settings.journal()).name).toBe(journalDefaults({ email: 'x@example.org' }).name);
  });

  it("never overwrites the editors' settings or catalogue", async () => {
    const services = await setup();
    await seed(services, { demo: false });
    const edited = { ...(await services.settings.journal()), name: 'Renamed by the office' };
    await services.settings.set(services.db, JOURNAL_KEY, edited);
    await services.db.insert(volumes).values({ title: 'Our own Volume 1', volumeNumber: 1, year: 2026 });

    // Turning demo content on later finds a Volume 1 made by the editors and leaves it alone.
    await seed(services, { demo: true });
    expect((await services.settings.journal()).name).toBe('Renamed by the office');
    expect(await services.db.select().from(volumes)).toMatchObject([{ title: 'Our own Volume 1' }]);
    expect(await services.db.select().from(issues)).toHaveLength(0);
    expect(await services.db.select().from(articles)).toHaveLength(0);
  });

  it('completes a demo seed that stopped half-way, and does not bring back deleted articles', async () => {
    const services = await setup();
    await seed(services, { demo: true });
    const db = services.db;
    // Simulate a run that stopped after two articles: remove three and mark the seed unfinished.
    const marker = await services.settings.get<Record<string, unknown>>(DEMO_MARKER_KEY);
    expect(marker).toMatchObject({ state: 'done' });
    await db.delete(articles).where(sql`${articles.doi} > '10.5555/cjei.2025.1.1.002'`);
    await services.settings.set(db, DEMO_MARKER_KEY, { ...marker, state: 'started' });
    await seed(services, { demo: true });
    expect(await db.select().from(articles)).toHaveLength(5);
    expect(await db.select().from(volumes)).toHaveLength(1);

    // Once done, an article the editors delete stays deleted.
    await db.delete(articles).where(eq(articles.doi, '10.5555/cjei.2025.1.1.005'));
    await seed(services, { demo: true });
    expect(await db.select().from(articles)).toHaveLength(4);
  });
});

describe('journal settings', () => {
  it('computes ISSN check digits', () => {
    expect(issnCheckDigit('0378595')).toBe('5'); // 0378-5955
    expect(issnCheckDigit('2049363')).toBe('0'); // 2049-3630
    expect(isValidIssn('2434-561X')).toBe(true);
    expect(isValidIssn('0317-8471')).toBe(true);
    expect(isValidIssn('3049-4175')).toBe(false);
    expect(journalSettingsSchema.safeParse(journalDefaults({ email: 'office@example.org' })).success).toBe(
      true,
    );
  });
});

describe('the demo PDFs kept in the installation cache', () => {
  const journal = journalSettingsSchema.parse(journalDefaults({ email: 'kept-pdf-test@example.org' }));
  const input = (title: string) => ({
    journal,
    article: { ...demoArticles[0], title },
    volume: { number: 1, year: 2025 },
    issue: { number: 1 },
    firstPage: 1,
    doi: '10.5555/kept.1',
  });
  const keptFiles = () => {
    const dir = path.join(installCacheDir()!, 'demo-pdf');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  it('typesets a PDF once, then reads it back byte for byte; other input is typeset anew', async () => {
    const title = `Kept PDF ${Date.now()} ${Math.random()}`;
    const before = keptFiles();
    const first = await articlePdf(input(title));
    const added = keptFiles().filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(new RegExp(`-${first.pageCount}\\.pdf$`));
    const again = await articlePdf(input(title));
    expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes))).toBe(true);
    expect(again.pageCount).toBe(first.pageCount);
    expect(keptFiles().filter((f) => !before.includes(f))).toHaveLength(1);
    // The kept file is what is read: a PDF changed in the cache comes back as it is now.
    const file = path.join(installCacheDir()!, 'demo-pdf', added[0]);
    writeFileSync(file, Buffer.concat([Buffer.from(first.bytes), Buffer.from('%kept')]));
    expect(Buffer.from((await articlePdf(input(title))).bytes).toString('latin1')).toMatch(/%kept$/);
    rmSync(file);
    // Another title is another PDF.
    const other = await articlePdf(input(`${title} (2)`));
    expect(Buffer.from(other.bytes).equals(Buffer.from(first.bytes))).toBe(false);
    for (const f of keptFiles().filter((f) => !before.includes(f))) {
      rmSync(path.join(installCacheDir()!, 'demo-pdf', f));
    }
    expect((await PDFDocument.load(other.bytes)).getPageCount()).toBe(other.pageCount);
  });
});

describe.runIf(Boolean(process.env.DATABASE_URL))('seed by server processes started together', () => {
  it('creates one admin on a new PostgreSQL database, and only the process that made it says so', async () => {
    const scratch = await scratchDatabase(process.env.DATABASE_URL!);
    const dir = mkdtempSync(path.join(tmpdir(), 'colophon-seed-'));
    const databases: Database[] = [];
    const blocker = new pg.Client({ connectionString: scratch.url });
    try {
      for (let i = 0; i < 3; i++) databases.push(await openDatabase({ url: scratch.url }));
      // No ADMIN_PASSWORD: a password is generated, and one printed that another process's row beat
      // would not sign anyone in.
      const config = loadConfig({ DATA_DIR: dir, SESSION_SECRET: 'x'.repeat(40), ADMIN_PASSWORD: '' });
      // Inserts into users wait on this lock: the three meet there, each having found no admin.
      await blocker.connect();
      await blocker.query('begin');
      await blocker.query('lock table users in share mode');
      const seeding = Promise.all(
        databases.map((d) => seed(createServices(config, d, silent), { demo: false })),
      );
      for (let i = 0; ; i++) {
        const { rows } = await blocker.query(
          `select count(*)::int as n from pg_locks
            where not granted and database = (select oid from pg_database where datname = current_database())`,
        );
        if (rows[0].n === 3) break;
        if (i > 300)
          throw new Error(`the three seeds did not all reach the admin's insert (${rows[0].n} waiting)`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await blocker.query('commit');
      const results = await seeding;
      expect(results.filter((r) => r.adminCreated)).toHaveLength(1);
      expect(results.filter((r) => r.adminPassword)).toHaveLength(1);
      expect(await databases[0].db.select().from(users).where(eq(users.username, 'admin'))).toHaveLength(1);
    } finally {
      await blocker.end().catch(() => undefined);
      for (const d of databases) await d.close();
      await scratch.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
