import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../common/messages.ts';
import { users } from '../../server/accounts/tables.ts';
import { articleAuthors, articleFiles, articles, issues, volumes } from '../../server/catalog/tables.ts';
import { withJournal } from '../../server/db/scope.ts';
import { importCommand } from '../../server/ojs/commands.ts';
import { importedRecords, importRuns, legacyPaths } from '../../server/ojs/tables.ts';
import { createTestContext, type TestContext } from '../../server/testing/harness.ts';
import { validateWithSchema } from './discovery-helpers.ts';
import {
  type GenIssue,
  type OjsVersion,
  OJS_PASSWORD,
  generatedPdf,
  nativeExport,
  sampleJournal,
  sampleUsers,
  usersExport,
} from '../fixtures/ojs/make.ts';

/**
 * The OJS importer (issue 26, decision 0066): exports of OJS 3.3, 3.4 and 3.5 into a journal, through the
 * service's job as the admin's page starts it; a second run of the same export changes nothing, a corrected
 * one only what changed; a dry run writes nothing; broken files are refused with their reason and never
 * leave half an article; imported accounts sign in with their OJS password.
 */
let t: TestContext;
let dir: string;
const J = 1;

beforeAll(async () => {
  t = await createTestContext();
  dir = mkdtempSync(path.join(os.tmpdir(), 'ojs-import-'));
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function write(text: string | Iterable<string>, name = `export-${++n}.xml`): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof text === 'string' ? text : [...text].join(''));
  return file;
}

/** Starts a run as the admin's page would and lets the job run it. */
async function importFiles(
  files: string[],
  options: {
    dryRun?: boolean;
    filesFrom?: string;
    oldPath?: string;
    sendPasswordLinks?: boolean;
    journal?: number;
  } = {},
) {
  const run = await t.services.ojs.startImport(options.journal ?? J, {
    files: files.map((f) => ({ path: f, name: path.basename(f) })),
    ...options,
  });
  await t.runJobs();
  return withJournal(options.journal ?? J, async () => (await t.services.ojs.run(run.id))!);
}

/** Every row of the tables an import writes (and the blobs), to compare before and after. */
async function census() {
  const count = async (table: string) =>
    Number(
      (
        (await t.services.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
          rows: Array<{ n: number }>;
        }
      ).rows[0].n,
    );
  const out: Record<string, number> = {};
  for (const table of [
    'volumes',
    'issues',
    'articles',
    'article_authors',
    'article_files',
    'stored_files',
    'users',
    'journal_memberships',
    'reviewer_profiles',
    'imported_records',
    'legacy_paths',
    'audit_log',
  ])
    out[table] = await count(table);
  out.blobs = (await t.blobFiles()).length;
  return out;
}

const updatedAts = async () =>
  (await t.services.db.select({ id: articles.id, at: articles.updatedAt }).from(articles)).map(
    (r) => `${r.id}:${r.at.toISOString()}`,
  );

describe.each(['3.3', '3.4', '3.5', '3.6'] as OjsVersion[])('an OJS %s export', (version) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx?.close());

  it('comes in whole: issues, articles with their authors and galleys, accounts', async () => {
    const journal = sampleJournal({ issues: 3, perIssue: 2 });
    const file = write(nativeExport(version, journal));
    const usersFile = write(usersExport(version, sampleUsers()));
    const run = await ctx.services.ojs.startImport(J, {
      files: [
        { path: file, name: 'issues.xml' },
        { path: usersFile, name: 'users.xml' },
      ],
      oldPath: 'OldJournal',
    });
    await ctx.runJobs();
    const done = (await ctx.services.ojs.run(run.id))!;
    expect(done.status, done.error ?? '').toBe('done');
    expect(done.total).toBe(3 + 6 + 6);
    expect(done.done).toBe(done.total);
    expect(done.report!.issues).toEqual({ created: 3, updated: 0, unchanged: 0, refused: 0 });
    expect(done.report!.articles).toEqual({ created: 6, updated: 0, unchanged: 0, refused: 0 });
    expect(done.report!.users.created).toBe(6);
    expect(done.report!.unmappedGroups).toEqual({ 'Subscription manager': 1 });

    const db = ctx.services.db;
    const imported = await db.select().from(articles).where(sql`${articles.title} like 'Measured results%'`);
    expect(imported).toHaveLength(6);
    // The unpublished issue's article comes in unpublished; the others published.
    expect(imported.filter((a) => a.status === 'unpublished')).toHaveLength(2);
    const first = imported.find((a) => a.title.startsWith('Measured results 1.1'))!;
    // The current publication (version 2) is the one imported.
    expect(first.title).toBe('Measured results 1.1: “quotes”, Ωmega & <angles> (corrected)');
    expect(first.subtitle).toBe('A second version');
    expect(first.abstract).toBe('What we found in issue 1, article 1.');
    expect(first.keywords).toBe('sensors, Zürich');
    expect([first.firstPage, first.lastPage]).toEqual([10, 19]);
    expect(first.doi).toBe('10.5555/ojs.2019.101');
    expect(first.publicationDate).toBe('2019-07-01');
    expect(first.section).toBe('Articles');
    expect(first.licenseUrl).toBe('https://creativecommons.org/licenses/by/4.0/');
    expect(first.copyrightHolder).toBe('The authors');
    expect(first.references).toHaveLength(2);
    expect(first.pdfFileId).not.toBeNull();
    const authors = await db
      .select()
      .from(articleAuthors)
      .where(eq(articleAuthors.articleId, first.id))
      .orderBy(articleAuthors.position);
    expect(authors.map((a) => a.name)).toEqual(['Zoë Ångström', 'Chinua Okafor']);
    expect(authors[0]).toMatchObject({
      orcid: '0000-0002-1825-0097',
      country: 'CH',
      affiliation: 'Universität Zürich',
      primaryContact: true,
      ...(version >= '3.5' ? { ror: 'https://ror.org/02crff812' } : {}),
    });
    const others = await db
      .select()
      .from(articleFiles)
      .where(eq(articleFiles.articleId, first.id))
      .orderBy(articleFiles.position);
    expect(others.map((o) => [o.label, o.fileId !== null, o.url])).toEqual([
      ['HTML', true, null],
      ['Dataset', false, 'https://data.example.org/set/1'],
    ]);
    const [issue] = await db
      .select()
      .from(issues)
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .where(eq(volumes.volumeNumber, 1));
    expect(issue.issues).toMatchObject({
      issueNumber: 1,
      title: 'Inaugural issue',
      publicationDate: '2019-06-15',
      publicationMonth: 6,
    });
    expect(issue.volumes).toMatchObject({ title: 'Volume 1', year: 2019 });
    // The old addresses' keys: the issue, the article, its galleys and files by their OJS ids.
    const kinds = await db.select().from(importedRecords).where(eq(importedRecords.localId, first.id));
    expect(
      kinds
        .filter((k) => k.kind === 'galley')
        .map((k) => k.sourceId)
        .sort(),
    ).toHaveLength(3);
    expect(kinds.filter((k) => k.kind === 'file')).toHaveLength(2);
    expect(await db.select().from(legacyPaths)).toEqual([
      expect.objectContaining({ path: 'oldjournal', journalId: J }),
    ]);

    // The public API shows it; search finds it; OAI-PMH and the sitemap list it (followers of the events).
    const shown = await ctx.app.inject({ method: 'GET', url: `/api/articles/public/article/${first.id}` });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.body).toContain('Ångström');
    const hidden = imported.find((a) => a.status === 'unpublished')!;
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/articles/public/article/${hidden.id}` })).statusCode,
    ).toBe(404);
    const search = await ctx.app.inject({ method: 'GET', url: '/api/search?q=corrected' });
    expect(search.body).toContain(`Measured results 1.1`);
    const oai = await ctx.app.inject({ method: 'GET', url: '/oai?verb=ListRecords&metadataPrefix=oai_dc' });
    expect(oai.body).toContain('10.5555/ojs.2019.101');
    const sitemap = await ctx.app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.body).toContain(`/article/${first.id}`);
    // The old address answers 301 at once: the directory heard of the old path by the change feed.
    const ojsId = kinds.find((k) => k.kind === 'article')!.sourceId;
    const old = await ctx.app.inject({ method: 'GET', url: `/index.php/OldJournal/article/view/${ojsId}` });
    expect(old.statusCode, old.body).toBe(301);
    expect(new URL(old.headers.location as string).pathname).toBe(`/article/${first.id}`);
    // Its galleys' old addresses: the PDF galley's lead to the PDF, the HTML galley's to the page listing its files.
    const ojsArticle = journal[0].articles[0];
    const [pdfGalley, htmlGalley] = ojsArticle.publications.at(-1)!.galleys;
    for (const [url, to] of [
      [`/index.php/OldJournal/article/view/${ojsArticle.id}/${pdfGalley.id}`, `/download/${first.id}`],
      [`/OldJournal/article/download/${ojsArticle.id}/${pdfGalley.id}`, `/download/${first.id}`],
      [`/index.php/OldJournal/article/view/${ojsArticle.id}/${htmlGalley.id}`, `/article/${first.id}`],
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(301);
      expect(new URL(res.headers.location as string).pathname, url).toBe(to);
    }
  });

  it('signs in an imported account with its OJS password, then keeps ours', async () => {
    const login = (username: string, password: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
    const res = await login('manager1', OJS_PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await ctx.services.db.select().from(users).where(eq(users.username, 'manager1'));
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    // A SHA-1 hash does not come along: told how to set a password.
    expect((await login('editor1', 'password')).json()).toEqual({ message: MESSAGES.passwordToSet });
    // A disabled OJS account is suspended here.
    expect((await login('gone1', OJS_PASSWORD)).statusCode).not.toBe(200);
    const roles = await ctx.services.db.execute(
      sql`select u.username, m.role, m.status from users u join journal_memberships m on m.user_id = u.id where m.journal_id = 1 order by u.username`,
    );
    expect((roles as unknown as { rows: unknown[] }).rows).toEqual(
      expect.arrayContaining([
        { username: 'manager1', role: 'admin', status: 'approved' },
        { username: 'editor1', role: 'editor', status: 'approved' },
        { username: 'reviewer1', role: 'researcher', status: 'approved' },
        { username: 'author1', role: 'author', status: 'approved' },
        { username: 'gone1', role: 'researcher', status: 'suspended' },
      ]),
    );
    const profiles = await ctx.services.db.execute(sql`select name, interests from reviewer_profiles`);
    expect((profiles as unknown as { rows: unknown[] }).rows).toEqual([
      { name: 'Søren Kierkegård', interests: ['sensors', 'signal processing'] },
    ]);
  });
});

describe('what OJS 3.6 changes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx?.close());

  it('an author without an e-mail, and versions in parts: 1.1 is current after 1.0, whatever their order', async () => {
    const journal = sampleJournal({ issues: 1, perIssue: 1 });
    const article = journal[0].articles[0];
    const [first, correction] = article.publications;
    // 1.0 and its minor correction 1.1, the correction written first, and no current_publication_id to say.
    article.publications = [
      {
        ...correction,
        version: 1,
        minor: 1,
        authors: [correction.authors[0], { ...correction.authors[1], email: '' }],
      },
      { ...first, version: 1, minor: 0 },
    ];
    const xml = [...nativeExport('3.6', journal)].join('').replace(/ current_publication_id="\d+"/g, '');
    expect(validateWithSchema('ojs', xml, 'main-3.6dev').ok).toBe(true);
    const run = await ctx.services.ojs.startImport(J, { files: [{ path: write(xml), name: 'issues.xml' }] });
    await ctx.runJobs();
    const done = (await ctx.services.ojs.run(run.id))!;
    expect(done.status, done.error ?? '').toBe('done');
    expect(done.report!.articles).toEqual({ created: 1, updated: 0, unchanged: 0, refused: 0 });
    const [row] = await ctx.services.db.select().from(articles).where(eq(articles.doi, correction.doi!));
    expect(row.title).toBe(correction.title);
    const authors = await ctx.services.db
      .select()
      .from(articleAuthors)
      .where(eq(articleAuthors.articleId, row.id))
      .orderBy(articleAuthors.position);
    expect(authors.map((a) => [a.name, a.email])).toEqual([
      ['Zoë Ångström', correction.authors[0].email],
      ['Chinua Okafor', ''],
    ]);
  });
});

describe('running the same export again', () => {
  const journal = () => sampleJournal({ issues: 2, perIssue: 2, doiPrefix: '10.7777' });
  let file: string;

  it('finds everything unchanged and writes nothing', async () => {
    file = write(nativeExport('3.4', journal()));
    const first = await importFiles([file]);
    expect(first.status).toBe('done');
    expect(first.report!.articles.created).toBe(4);
    const before = await census();
    const stamps = await updatedAts();
    const jobsBefore = await t.services.db.execute(sql`select count(*)::int as n from jobs`);
    const again = await importFiles([file]);
    expect(again.report!.issues).toEqual({ created: 0, updated: 0, unchanged: 2, refused: 0 });
    expect(again.report!.articles).toEqual({ created: 0, updated: 0, unchanged: 4, refused: 0 });
    expect(await census()).toEqual(before);
    expect(await updatedAts()).toEqual(stamps);
    // No event: no follower's job queued (the run's own job is the only new one).
    const jobsAfter = await t.services.db.execute(sql`select count(*)::int as n from jobs`);
    const count = (r: unknown) => (r as { rows: Array<{ n: number }> }).rows[0].n;
    expect(count(jobsAfter)).toBe(count(jobsBefore) + 1);
  });

  it('updates only the article a corrected export changes', async () => {
    const corrected = journal();
    const pub = corrected[0].articles[1].publications[0];
    pub.title = 'A corrected title';
    const stamps = await updatedAts();
    const run = await importFiles([write(nativeExport('3.4', corrected))]);
    expect(run.report!.articles).toEqual({ created: 0, updated: 1, unchanged: 3, refused: 0 });
    const changed = (await updatedAts()).filter((s) => !stamps.includes(s));
    expect(changed).toHaveLength(1);
    const [row] = await t.services.db.select().from(articles).where(eq(articles.title, 'A corrected title'));
    expect(changed[0].startsWith(`${row.id}:`)).toBe(true);
    expect(
      await t.services.db.select().from(articleAuthors).where(eq(articleAuthors.articleId, row.id)),
    ).toHaveLength(2);
  });

  it('a dry run says what would change and writes nothing', async () => {
    const before = await census();
    const fresh = sampleJournal({ issues: 1, perIssue: 2, doiPrefix: '10.8888' }).map((i) => ({
      ...i,
      id: 900,
      volume: 40,
    }));
    fresh[0].articles.forEach((a, i) => {
      a.id = 9000 + i;
    });
    const run = await importFiles(
      [write(nativeExport('3.5', fresh)), write(usersExport('3.5', sampleUsers()))],
      {
        dryRun: true,
        oldPath: 'dry',
      },
    );
    expect(run.status).toBe('done');
    expect(run.report!.articles.created).toBe(2);
    expect(run.report!.issues.created).toBe(1);
    expect(run.report!.users.created).toBeGreaterThan(0);
    expect(await census()).toEqual(before);
  });
});

describe('files that are not what an import reads', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['not XML', 'this is not XML at all', /not XML/],
    [
      'the wrong namespace',
      '<?xml version="1.0"?>\n<issues xmlns="http://example.org/other"></issues>\n',
      /namespace http:\/\/example.org\/other/,
    ],
    [
      'cut off',
      [...nativeExport('3.4', sampleJournal({ issues: 1, perIssue: 1 }))].join('').slice(0, 3000),
      /cut off/,
    ],
    [
      'billion laughs',
      '<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n<issues xmlns="http://pkp.sfu.ca">&lol2;</issues>\n',
      /DOCTYPE/,
    ],
    [
      'an external entity',
      '<?xml version="1.0"?>\n<!DOCTYPE issues [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<issues xmlns="http://pkp.sfu.ca"><issue>&xxe;</issue></issues>\n',
      /DOCTYPE/,
    ],
    [
      'another XML file',
      '<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"></html>\n',
      /not an OJS export/,
    ],
  ];
  it.each(cases)('%s: the run is refused with its reason, nothing written', async (_name, text, reason) => {
    const before = await census();
    const good = write(
      nativeExport(
        '3.4',
        sampleJournal({ issues: 1, perIssue: 1, doiPrefix: '10.6666' }).map((i) => ({
          ...i,
          id: 600,
          volume: 60,
        })),
      ),
    );
    const run = await importFiles([good, write(text)]);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(reason);
    expect(await census()).toEqual(before);
  });

  it('an element not well-formed part-way: refused with its line, the articles before it whole', async () => {
    // Each PDF larger than what is read at once: the first issue is read whole before the fault arrives.
    const issuesOf = sampleJournal({ issues: 3, perIssue: 1, doiPrefix: '10.5151', pdfBytes: 600_000 }).map(
      (i, k) => ({ ...i, id: 510 + k, volume: 51 + k }),
    );
    const text = [...nativeExport('3.4', issuesOf.slice(0, 2))].join('');
    const at = text.lastIndexOf('</pages>');
    const broken = `${text.slice(0, at)}</pagez>${text.slice(at + 8)}`;
    const run = await importFiles([write(broken)]);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/:\d+: The file is not well-formed XML/);
    const rows = await t.services.db.select().from(articles).where(sql`${articles.doi} like '10.5151/%'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].pdfFileId).not.toBeNull();
    expect(
      await t.services.db.select().from(articleAuthors).where(eq(articleAuthors.articleId, rows[0].id)),
    ).toHaveLength(2);
  });
});

describe('files an article holds', () => {
  const one = (id: number, mutate: (i: GenIssue[]) => void, href?: (name: string) => string) => {
    const i = sampleJournal({ issues: 1, perIssue: 1, doiPrefix: `10.4${id}`, href }).map((x) => ({
      ...x,
      id,
      volume: id,
    }));
    i[0].articles[0].id = id * 10;
    mutate(i);
    return write(nativeExport('3.4', i));
  };

  it('a PNG as the PDF galley: the article is refused whole, with its reason', async () => {
    const before = await census();
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.alloc(200, 1),
    ]);
    const run = await importFiles([
      one(71, (i) => {
        i[0].articles[0].files[0].bytes = png;
      }),
    ]);
    expect(run.status).toBe('done');
    expect(run.report!.articles.refused).toBe(1);
    expect(run.report!.notices.find((x) => x.level === 'refused')!.message).toMatch(
      /is not a PDF \(its bytes are a PNG file\)/,
    );
    const after = await census();
    expect(after.articles).toBe(before.articles);
    expect(after.article_authors).toBe(before.article_authors);
    expect(after.stored_files).toBe(before.stored_files);
    expect(after.blobs).toBe(before.blobs);
  });

  it('base64 that is not: the article is refused, its reason named', async () => {
    const text = [
      ...nativeExport(
        '3.4',
        sampleJournal({ issues: 1, perIssue: 1, doiPrefix: '10.4072' }).map((x) => ({
          ...x,
          id: 72,
          volume: 72,
        })),
      ),
    ].join('');
    const broken = text.replace(/(<embed encoding="base64" mime_type="application\/pdf">)JVBE/, '$1%%%%JVBE');
    const run = await importFiles([write(broken)]);
    expect(run.report!.articles.refused).toBe(1);
    expect(run.report!.notices.map((x) => x.message).join('\n')).toMatch(/not base64/);
  });

  it('<href> files: read from the allowed folder only', async () => {
    const allowed = path.join(dir, 'allowed');
    mkdirSync(allowed, { recursive: true });
    writeFileSync(path.join(allowed, 'inside.pdf'), generatedPdf('inside'));
    writeFileSync(path.join(dir, 'secret.pdf'), generatedPdf('secret'));
    symlinkSync(path.join(dir, 'secret.pdf'), path.join(allowed, 'link.pdf'));
    const ok = await importFiles(
      [
        one(
          73,
          () => {},
          () => 'inside.pdf',
        ),
      ],
      { filesFrom: allowed },
    );
    expect(ok.report!.articles).toMatchObject({ created: 1, refused: 0 });
    const refusals: Array<[string, RegExp]> = [
      ['../secret.pdf', /outside the allowed folder/],
      [path.join(dir, 'secret.pdf'), /outside the allowed folder/],
      ['link.pdf', /leads outside the allowed folder/],
      ['https://example.org/a.pdf', /names a file elsewhere/],
      ['/etc/passwd', /outside the allowed folder/],
    ];
    for (const [k, [href, reason]] of refusals.entries()) {
      const before = await census();
      const run = await importFiles(
        [
          one(
            74 + k,
            () => {},
            () => href,
          ),
        ],
        { filesFrom: allowed },
      );
      expect(run.report!.articles.refused, href).toBe(1);
      expect(run.report!.notices.find((x) => x.level === 'refused')!.message).toMatch(reason);
      const after = await census();
      expect([after.articles, after.stored_files, after.blobs]).toEqual([
        before.articles,
        before.stored_files,
        before.blobs,
      ]);
    }
    // No folder allowed: no <href> is read at all.
    const none = await importFiles([
      one(
        80,
        () => {},
        () => 'inside.pdf',
      ),
    ]);
    expect(none.report!.notices.find((x) => x.level === 'refused')!.message).toMatch(/no folder was allowed/);
  });
});

describe('a run that dies part-way', () => {
  it('runs again from the start: completes, nothing doubled', async () => {
    const issuesOf = sampleJournal({ issues: 3, perIssue: 2, doiPrefix: '10.3131' }).map((i, k) => ({
      ...i,
      id: 310 + k,
      volume: 31 + k,
    }));
    for (const [k, i] of issuesOf.entries())
      for (const [m, a] of i.articles.entries()) a.id = 3100 + k * 10 + m;
    const file = write(nativeExport('3.4', issuesOf));
    const crash = withJournal(J, () =>
      t.services.ojs.importNow({ files: [{ path: file, name: 'big.xml' }] }, (p) => {
        if (p.done === 3) throw new Error('killed');
      }),
    );
    await expect(crash).rejects.toThrow('killed');
    const [stopped] = await t.services.db
      .select()
      .from(importRuns)
      .orderBy(sql`${importRuns.id} desc`)
      .limit(1);
    expect(stopped.status).toBe('running');
    const part = await t.services.db.select().from(articles).where(sql`${articles.doi} like '10.3131/%'`);
    expect(part.length).toBeGreaterThan(0);
    expect(part.length).toBeLessThan(3);
    await withJournal(J, () => t.services.ojs.resume(stopped.id));
    await t.runJobs();
    const run = (await withJournal(J, () => t.services.ojs.run(stopped.id)))!;
    expect(run.status).toBe('done');
    expect(run.report!.articles.created + run.report!.articles.unchanged).toBe(6);
    const all = await t.services.db.select().from(articles).where(sql`${articles.doi} like '10.3131/%'`);
    expect(all).toHaveLength(4);
    expect(new Set(all.map((a) => a.doi)).size).toBe(4);
  });
});

describe('the CLI', () => {
  it('makes the journal when the site has none at the path, imports, prints the report', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { log: (l: string) => out.push(l), error: (l: string) => err.push(l), progress: () => {} };
    const file = write(nativeExport('3.3', sampleJournal({ issues: 1, perIssue: 2, doiPrefix: '10.2222' })));
    const code = await importCommand(
      ['ojs', file, '--journal', 'moved', '--old-path', 'moved-ojs'],
      t.services,
      io,
      {
        adminUsername: 'admin',
      },
    );
    expect(code, err.join('\n')).toBe(0);
    expect(out.join('\n')).toMatch(/articles: 2 created, 0 updated, 0 unchanged, 0 refused/);
    const journal = t.services.journals.list().find((j) => j.path === 'moved')!;
    const rows = await withJournal(journal.id, () => t.services.db.select().from(articles));
    expect(rows).toHaveLength(2);
    expect(await importCommand(['ojs', file], t.services, io, { adminUsername: 'admin' })).toBe(2);
    expect(
      await importCommand(['ojs', write('nope'), '--journal', 'moved'], t.services, io, {
        adminUsername: 'admin',
      }),
    ).toBe(1);
    expect(err.at(-1)).toMatch(/not XML/);
  });
});

describe('accounts', () => {
  it('sends a set-your-password link to new accounts without a usable password, once', async () => {
    const people = sampleUsers().map((u) => ({
      ...u,
      username: `links-${u.username}`,
      email: `links-${u.email}`,
    }));
    const file = write(usersExport('3.4', people));
    const sentBefore = t.mail.length;
    const run = await importFiles([file], { sendPasswordLinks: true });
    expect(run.report!.users.created).toBe(6);
    const sent = t.mail.slice(sentBefore);
    // editor1 (SHA-1) and reviewer1 (plain text) have no password here; bcrypt ones keep theirs; gone1 is disabled.
    expect(sent.map((m) => m.to).sort()).toEqual([
      'links-editor1@example.org',
      'links-reviewer1@example.org',
    ]);
    expect(sent[0].text).toContain('/reset-password?token=');
    const again = await importFiles([file], { sendPasswordLinks: true });
    expect(again.report!.users.unchanged).toBe(6);
    expect(t.mail.length).toBe(sentBefore + 2);
  });

  it('finds an account already on the site by its e-mail, whatever its case, and keeps its password', async () => {
    const existing = await t.createUser({ role: 'researcher', status: 'approved', username: 'already-here' });
    const [row] = await t.services.db.select().from(users).where(eq(users.id, existing.id));
    const file = write(
      usersExport('3.5', [{ ...sampleUsers()[0], username: 'someone-else', email: row.email.toUpperCase() }]),
    );
    const run = await importFiles([file]);
    expect(run.report!.users).toMatchObject({ created: 0, updated: 1 });
    const [after] = await t.services.db.select().from(users).where(eq(users.id, existing.id));
    expect(after.passwordHash).toBe(row.passwordHash);
    expect(await t.login('already-here', existing.password)).toBeTruthy();
  });
});

describe('a DOI another journal of the site has', () => {
  it('is left out with a warning; the article comes in', async () => {
    const other = await t.services.journalAdmin.create({
      title: 'Other journal',
      path: 'other',
      editor: 'admin',
    });
    await t.services.journals.load();
    const theirs = sampleJournal({ issues: 1, perIssue: 1, doiPrefix: '10.9191' }).map((i) => ({
      ...i,
      id: 919,
      volume: 91,
    }));
    expect(
      (await importFiles([write(nativeExport('3.4', theirs))], { journal: other.id })).report!.articles
        .created,
    ).toBe(1);
    const ours = sampleJournal({ issues: 1, perIssue: 1, doiPrefix: '10.9191' }).map((i) => ({
      ...i,
      id: 929,
      volume: 92,
    }));
    ours[0].articles[0].id = 9290;
    const run = await importFiles([write(nativeExport('3.4', ours))]);
    expect(run.report!.articles.created).toBe(1);
    expect(run.report!.notices.map((x) => x.message)).toContain(
      'The DOI 10.9191/ojs.2019.101 is another article’s on this site: left out.',
    );
    // The other journal's old path is its own: this journal cannot take it.
    await importFiles([write(nativeExport('3.4', theirs))], { journal: other.id, oldPath: 'their-ojs' });
    const refused = await importFiles([write(nativeExport('3.4', ours))], { oldPath: 'Their-OJS' });
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatch(/another journal's/);
  });
});
