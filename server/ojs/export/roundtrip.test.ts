import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateWithSchema } from '../../../tests/api/discovery-helpers.ts';
import { articleAuthors, articleFiles, articles, issues } from '../../catalog/tables.ts';
import { withJournal } from '../../db/scope.ts';
import { createIssue, createVolume, publishArticle } from '../../testing/factories.ts';
import { noPassword } from '../../accounts/passwords.ts';
import { users } from '../../accounts/tables.ts';
import { type TestContext, createTestContext, fixture, insertUser } from '../../testing/harness.ts';
import { type OjsArticle, type OjsIssue, inLocale, isRefused, readIssue } from '../native.ts';
import { type OjsUser, readGroup, readUser, roleOf } from '../users.ts';
import { type XmlElement, readRecords } from '../xml.ts';

/**
 * Moving out (issue 26, decision 0068): a journal made through the API, exported as OJS 3.4 Native XML and
 * Users XML, then read back by the importer's own model (readIssue, readUser): every field survives, the
 * files' bytes too, and both files validate against OJS 3.4's schemas.
 */
let t: TestContext;
let tmp: string;
let admin: string;
const ids = { full: 0, noPdf: 0, unpublished: 0, issue: 0, emptyIssue: 0, html: 0, pdf: '' };
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('a cover, more or less')]);
const HTML = Buffer.from('<!DOCTYPE html><html><body><h1>Ωmega</h1></body></html>');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const inJournal = <T>(fn: () => Promise<T>) => withJournal(1, fn);

async function exportNative(files: 'embed' | 'href' = 'embed') {
  const dir = mkdtempSync(path.join(tmp, 'out-'));
  const result = await inJournal(() =>
    t.services.ojsExport.toFolder(dir, { files, users: true, jats: false }),
  );
  return { dir, result, xml: readFileSync(path.join(dir, 'issues.xml'), 'utf8') };
}

async function readBack(file: string, record: string): Promise<XmlElement[]> {
  const out: XmlElement[] = [];
  const tmpDir = mkdtempSync(path.join(tmp, 'read-'));
  for await (const el of readRecords(createReadStream(file), { records: new Set([record]), tmpDir }))
    out.push(el);
  return out;
}

const articleIn = (issue: OjsIssue, title: string): OjsArticle => {
  const a = issue.articles.find((x) => !isRefused(x) && inLocale(x.current.title) === title);
  if (!a || isRefused(a)) throw new Error(`No article “${title}” read back.`);
  return a;
};

beforeAll(async () => {
  t = await createTestContext();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ojs-export-'));
  admin = await t.login('admin', 'admin-pass-123');
  const volume = await createVolume(t, admin, { number: 3, year: 2025 });
  ids.issue = (
    await createIssue(t, admin, {
      volumeId: volume.id,
      title: 'Spring & “quotes”',
      description: 'First paragraph.\n\nSecond <one>.',
    })
  ).id;
  ids.emptyIssue = (await createIssue(t, admin, { volumeId: volume.id, title: 'Nothing yet' })).id;
  ids.full = (
    await publishArticle(t, admin, {
      issueId: ids.issue,
      title: 'Zürich’s sensors: Ωmega & <angles>',
      doi: '10.5555/out.1',
      pages: '11-20',
      abstract: 'What we found.\n\nAnd a second paragraph.',
      keywords: 'sensors, Zürich, signal processing',
      authors: [
        {
          name: 'Zoë Ångström',
          email: 'zoe@example.org',
          affiliation: 'Universität Zürich',
          orcid: '0000-0002-1825-0097',
        },
        { name: 'Ludwig van Beethoven', email: 'lvb@example.org', affiliation: 'Wien' },
        { name: 'Sukarno', email: 'sukarno@example.org', affiliation: 'Universitas Indonesia' },
      ],
    })
  ).id;
  ids.noPdf = (
    await publishArticle(t, admin, {
      issueId: ids.issue,
      title: 'Without a PDF',
      doi: '10.5555/out.2',
      pages: '21-22',
    })
  ).id;
  ids.unpublished = (
    await publishArticle(t, admin, { issueId: ids.issue, title: 'Not yet out', doi: '10.5555/out.3' })
  ).id;
  await inJournal(async () => {
    const db = t.services.db;
    await db
      .update(articles)
      .set({
        subtitle: 'A subtitle, with ß',
        section: 'Research Papers',
        language: 'de',
        licenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
        copyrightHolder: 'The authors',
        copyrightYear: 2025,
        references: ['Okafor C. Earlier work. J Test. 2024;1:1-9.', 'Smith J. A book & more. 2010.'],
        publicationDate: '2025-04-02',
      })
      .where(eq(articles.id, ids.full));
    await db
      .update(articleAuthors)
      .set({ country: 'CH', primaryContact: true })
      .where(eq(articleAuthors.name, 'Zoë Ångström'));
    await db
      .update(articleAuthors)
      .set({ country: 'AT' })
      .where(eq(articleAuthors.name, 'Ludwig van Beethoven'));
    await db.update(articles).set({ pdfFileId: null, lastPage: null }).where(eq(articles.id, ids.noPdf));
    await db.update(articles).set({ status: 'unpublished' }).where(eq(articles.id, ids.unpublished));
    await db.update(issues).set({ publicationDate: '2025-04-01' }).where(eq(issues.id, ids.issue));
    await t.services.files.withStoredFiles(
      [
        { field: 'html', filename: 'article.html', data: HTML, kind: 'unknown', mediaType: 'text/html' },
        { field: 'cover', filename: 'cover.png', data: PNG, kind: 'png', mediaType: 'image/png' },
      ],
      async (tx, [html, cover]) => {
        ids.html = html.id;
        await tx.insert(articleFiles).values([
          { articleId: ids.full, position: 1, label: 'HTML', locale: 'fr', fileId: html.id },
          { articleId: ids.full, position: 2, label: 'Dataset', url: 'https://data.example.org/set/1' },
        ]);
        await tx.update(issues).set({ coverFileId: cover.id }).where(eq(issues.id, ids.issue));
      },
    );
  });
  ids.pdf = sha(fixture('manuscript.pdf'));
});
afterAll(async () => {
  await t?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('Native XML', () => {
  it('validates against OJS 3.4’s schema, embedded or referenced', async () => {
    for (const mode of ['embed', 'href'] as const) {
      const { xml } = await exportNative(mode);
      const check = validateWithSchema('ojs', xml, '3.4');
      expect(check.ok, `${mode}: ${check.output}`).toBe(true);
    }
  });

  it('reads back with every field: issue, sections, cover, articles, authors, galleys, references', async () => {
    const { dir, result } = await exportNative();
    expect(result.native).toMatchObject({ issues: 2, articles: 3 });
    const read = (await readBack(path.join(dir, 'issues.xml'), 'issue')).map(readIssue);
    expect(read.flatMap((r) => r.notices)).toEqual([]);
    const issue = read.map((r) => r.value).find((i) => i.ojsId === ids.issue)!;
    expect(issue).toMatchObject({
      volume: 3,
      number: '1',
      year: 2025,
      published: true,
      datePublished: '2025-04-01',
      title: { en: 'Spring & “quotes”' },
      description: { en: '<p>First paragraph.</p><p>Second &lt;one&gt;.</p>' },
    });
    expect(issue.sections.map((s) => inLocale(s.title)).sort()).toEqual([
      'Research Article',
      'Research Papers',
    ]);
    expect(issue.cover?.name).toBe('cover.png');
    expect(issue.cover?.embedded.sha256).toBe(sha(PNG));

    const full = articleIn(issue, 'Zürich’s sensors: Ωmega & <angles>');
    const p = full.current;
    expect(full).toMatchObject({ ojsId: ids.full, doi: '10.5555/out.1', locale: 'de', status: 3 });
    expect(p).toMatchObject({
      status: 3,
      datePublished: '2025-04-02',
      subtitle: { de: 'A subtitle, with ß' },
      abstract: { de: '<p>What we found.</p><p>And a second paragraph.</p>' },
      keywords: { de: ['sensors', 'Zürich', 'signal processing'] },
      licenseUrl: 'https://creativecommons.org/licenses/by-sa/4.0/',
      copyrightHolder: { de: 'The authors' },
      copyrightYear: 2025,
      pages: '11-20',
      doi: '10.5555/out.1',
      citations: ['Okafor C. Earlier work. J Test. 2024;1:1-9.', 'Smith J. A book & more. 2010.'],
      issue: { volume: 3, number: '1', year: 2025 },
    });
    expect(issue.sections.find((s) => s.ref === p.sectionRef)?.title).toEqual({ en: 'Research Papers' });
    expect(
      p.authors.map((a) => ({
        given: inLocale(a.given),
        family: inLocale(a.family),
        affiliation: inLocale(a.affiliations[0].name),
        email: a.email,
        orcid: a.orcid,
        country: a.country,
        primary: a.primaryContact,
      })),
    ).toEqual([
      {
        given: 'Zoë',
        family: 'Ångström',
        affiliation: 'Universität Zürich',
        email: 'zoe@example.org',
        orcid: '0000-0002-1825-0097',
        country: 'CH',
        primary: true,
      },
      {
        given: 'Ludwig',
        family: 'van Beethoven',
        affiliation: 'Wien',
        email: 'lvb@example.org',
        orcid: '',
        country: 'AT',
        primary: false,
      },
      {
        given: 'Sukarno',
        family: '',
        affiliation: 'Universitas Indonesia',
        email: 'sukarno@example.org',
        orcid: '',
        country: '',
        primary: false,
      },
    ]);
    expect(p.primaryContactId).toBe(p.authors[0].ojsId);
    // The PDF, the HTML file (in French) and the remote dataset, in order; files resolved and whole.
    expect(p.galleys.map((g) => [g.label, g.locale, g.remote])).toEqual([
      ['PDF', '', null],
      ['HTML', 'fr', null],
      ['Dataset', '', 'https://data.example.org/set/1'],
    ]);
    const fileOf = (ref: number | null) => full.files.find((f) => f.id === ref)!;
    const pdf = fileOf(p.galleys[0].fileRef);
    const html = fileOf(p.galleys[1].fileRef);
    expect([pdf.extension, pdf.mimeType, html.name, html.mimeType]).toEqual([
      'pdf',
      'application/pdf',
      'article.html',
      'text/html',
    ]);
    expect(pdf.content && 'embedded' in pdf.content && pdf.content.embedded.sha256).toBe(ids.pdf);
    expect(html.content && 'embedded' in html.content && html.content.embedded.sha256).toBe(sha(HTML));

    const noPdf = articleIn(issue, 'Without a PDF');
    expect(noPdf.files).toEqual([]);
    expect(noPdf.current.galleys).toEqual([]);
    expect(noPdf.current.pages).toBe('21');

    const unpublished = articleIn(issue, 'Not yet out');
    expect(unpublished.status).toBe(1);
    expect(unpublished.current.status).toBe(1);
    expect(unpublished.current.datePublished).toBeNull();

    const empty = read.map((r) => r.value).find((i) => i.ojsId === ids.emptyIssue)!;
    expect(empty).toMatchObject({
      published: false,
      articles: [],
      sections: [],
      title: { en: 'Nothing yet' },
    });
  });

  it('with --files href, writes each file beside the XML, byte for byte, and names it', async () => {
    const { dir, result } = await exportNative('href');
    expect(result.written).toEqual(['issues.xml', 'files/', 'users.xml']);
    const issue = (await readBack(path.join(dir, 'issues.xml'), 'issue'))
      .map((el) => readIssue(el).value)
      .find((i) => i.ojsId === ids.issue)!;
    const full = articleIn(issue, 'Zürich’s sensors: Ωmega & <angles>');
    const hashes = full.files.map((f) => {
      if (!f.content || !('href' in f.content)) throw new Error('not referenced');
      expect(f.content.href).toMatch(new RegExp(`^files/${ids.full}/\\d+-[A-Za-z0-9._-]+$`));
      return sha(readFileSync(path.join(dir, f.content.href)));
    });
    expect(hashes).toEqual([ids.pdf, sha(HTML)]);
    // The cover stays embedded (OJS's schema has no reference for it).
    expect(issue.cover?.embedded.sha256).toBe(sha(PNG));
  });
});

describe('Users XML', () => {
  it('validates against OJS 3.4’s schema and reads back with each account’s role, names and password', async () => {
    const r = await inJournal(() =>
      insertUser(t.services.db, { role: 'editor', status: 'approved', fullName: 'Mónica Núñez' }),
    );
    const suspended = await inJournal(() =>
      insertUser(t.services.db, { role: 'author', status: 'suspended', fullName: 'Łukasz Żółkiewski' }),
    );
    const invited = await inJournal(async () => {
      const u = await insertUser(t.services.db, { role: 'researcher', status: 'approved' });
      await t.services.db
        .update(users)
        .set({ passwordHash: noPassword('invited') })
        .where(eq(users.id, u.id));
      return u;
    });
    const { dir } = await exportNative();
    const xml = readFileSync(path.join(dir, 'users.xml'), 'utf8');
    const check = validateWithSchema('ojs-users', xml, '3.4');
    expect(check.ok, check.output).toBe(true);
    const groups = new Map(
      (await readBack(path.join(dir, 'users.xml'), 'user_group')).map(readGroup).map((g) => [g.key, g]),
    );
    expect([...groups.values()].map((g) => [g.key, g.roleId])).toEqual([
      ['Journal manager', 16],
      ['Section editor', 17],
      ['Reviewer', 4096],
      ['Author', 65536],
      ['Reader', 1048576],
    ]);
    const accounts = new Map(
      (await readBack(path.join(dir, 'users.xml'), 'user'))
        .map((el) => readUser(el).value!)
        .map((u): [string, OjsUser] => [u.username, u]),
    );
    const editor = accounts.get(r.username)!;
    expect(editor).toMatchObject({ given: 'Mónica', family: 'Núñez', email: r.email, disabled: false });
    expect(editor.affiliation).toBe('Test University');
    expect(roleOf(editor.groups, groups).role).toBe('editor');
    // argon2id hashes go as they are: OJS cannot check them, so they read back as a scheme it does not know.
    expect(editor.password).toEqual({ kind: 'legacy', scheme: 'argon2id' });
    expect(xml).toMatch(/<password encryption="argon2id"[^>]*><value>\$argon2id\$/);
    const author = accounts.get(suspended.username)!;
    expect(author).toMatchObject({ given: 'Łukasz', family: 'Żółkiewski', disabled: true });
    expect(roleOf(author.groups, groups).role).toBe('author');
    expect(roleOf(accounts.get('admin')!.groups, groups).role).toBe('admin');
    // An account with no password yet goes with none, to be set in OJS.
    const reader = accounts.get(invited.username)!;
    expect(reader.password).toEqual({ kind: 'none' });
    expect(roleOf(reader.groups, groups).role).toBe('researcher');
    expect(xml).not.toContain('!unset:');
  });
});

/** What an exported issue says, without what differs between two journals by construction (ids, places). */
function content(issue: OjsIssue) {
  const fileSha = (a: OjsArticle, ref: number | null) => {
    const f = a.files.find((x) => x.id === ref);
    return f?.content && 'embedded' in f.content ? f.content.embedded.sha256 : null;
  };
  const section = (ref: string) => inLocale(issue.sections.find((s) => s.ref === ref)?.title ?? {});
  return {
    volume: issue.volume,
    number: issue.number,
    year: issue.year,
    published: issue.published,
    datePublished: issue.datePublished,
    title: issue.title,
    description: issue.description,
    sections: issue.sections.map((s) => ({ title: s.title, abbrev: s.abbrev })),
    cover: issue.cover ? { name: issue.cover.name, sha256: issue.cover.embedded.sha256 } : null,
    articles: issue.articles
      .map((a) => {
        if (isRefused(a)) return { refused: a.refused };
        const p = a.current;
        return {
          doi: a.doi,
          locale: a.locale,
          status: a.status,
          files: a.files
            .map((f) => ({
              name: f.name,
              genre: f.genre,
              mimeType: f.mimeType,
              sha256: f.content && 'embedded' in f.content ? f.content.embedded.sha256 : null,
            }))
            .sort((x, y) => (x.sha256 ?? '').localeCompare(y.sha256 ?? '')),
          publication: {
            status: p.status,
            datePublished: p.datePublished,
            section: section(p.sectionRef),
            title: p.title,
            prefix: p.prefix,
            subtitle: p.subtitle,
            abstract: p.abstract,
            keywords: p.keywords,
            licenseUrl: p.licenseUrl,
            copyrightHolder: p.copyrightHolder,
            copyrightYear: p.copyrightYear,
            languages: p.languages,
            pages: p.pages,
            doi: p.doi,
            citations: p.citations,
            issue: p.issue,
            authors: p.authors.map(({ ojsId: _id, seq: _seq, ...rest }) => rest),
            galleys: p.galleys.map((g) => ({
              label: g.label,
              locale: g.locale,
              remote: g.remote,
              sha256: fileSha(a, g.fileRef),
            })),
          },
        };
      })
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
  };
}

describe('round trip: export, import into a new journal, export again', () => {
  it('gives the same content, files byte for byte', async () => {
    const first = await exportNative();
    const before = (await readBack(path.join(first.dir, 'issues.xml'), 'issue')).map(
      (r) => readIssue(r).value,
    );
    // The journal it came from is gone from the DOIs' point of view (a DOI names one article of the site).
    await inJournal(() => t.services.db.update(articles).set({ doi: null }));
    const made = await t.services.journalAdmin.create({
      title: 'Moved here',
      path: 'moved',
      editor: 'admin',
    });
    await t.services.journals.load();
    const run = await t.services.ojs.startImport(made.id, {
      files: [
        { path: path.join(first.dir, 'users.xml'), name: 'users.xml' },
        { path: path.join(first.dir, 'issues.xml'), name: 'issues.xml' },
      ],
    });
    await t.runJobs();
    const done = (await withJournal(made.id, () => t.services.ojs.run(run.id)))!;
    expect(done.status, done.error ?? '').toBe('done');
    expect(done.report!.notices.filter((n) => n.level === 'refused')).toEqual([]);
    expect(done.report!.issues.created).toBe(before.length);

    const dir = mkdtempSync(path.join(tmp, 'again-'));
    await withJournal(made.id, () =>
      t.services.ojsExport.toFolder(dir, { files: 'embed', users: true, jats: false }),
    );
    const after = (await readBack(path.join(dir, 'issues.xml'), 'issue')).map((r) => readIssue(r).value);
    const byNumber = (a: OjsIssue, b: OjsIssue) =>
      (a.volume ?? 0) - (b.volume ?? 0) || a.number.localeCompare(b.number);
    expect(after.sort(byNumber).map(content)).toEqual(before.sort(byNumber).map(content));

    // The accounts: the same people with the same groups (passwords cannot cross: OJS checks none of ours).
    const people = async (file: string) =>
      (await readBack(file, 'user'))
        .flatMap((el) => readUser(el).value ?? [])
        .map(({ password: _p, path: _path, line: _line, ...u }) => u)
        .sort((a, b) => a.username.localeCompare(b.username));
    expect(await people(path.join(dir, 'users.xml'))).toEqual(
      await people(path.join(first.dir, 'users.xml')),
    );
  });
});
