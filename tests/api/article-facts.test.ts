import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articleAuthors, issues, volumes } from '../../server/catalog/tables.ts';
import { withJournal } from '../../server/db/scope.ts';
import { barChartPng } from '../../server/seed/png.ts';
import { createIssue, createVolume, publishArticle } from '../../server/testing/factories.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';

/**
 * Issue 26: the facts an imported article carries (subtitle, section, language, licence, copyright) are the
 * editors' to edit through the one article update, and an issue's cover is shown from a public route.
 */

let t: TestContext;
let auth: Record<string, string>;
let issueId: number;
let coverlessIssueId: number;
let articleId: number;

const authors = JSON.stringify([
  { name: 'Meera Iyer', email: 'meera@example.org', affiliation: 'Anna University', superscript: '1' },
]);

const fields = (over: Record<string, unknown> = {}) => ({
  title: 'An article with facts',
  abstract: 'Its abstract.',
  keywords: 'facts, tests',
  pages: '1-10',
  doi: '10.5555/facts.001',
  issue_id: String(issueId),
  authors,
  ...over,
});

const patch = (payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: `/api/editor/articles/${articleId}`, headers: auth, payload });

const publicArticle = async () =>
  (await t.app.inject({ method: 'GET', url: `/api/articles/public/article/${articleId}` })).json();

const png = barChartPng([1, 2, 3], { width: 60, height: 80 });

async function giveCover(id: number, data: Buffer, mediaType: string, filename: string, journal = 1) {
  await withJournal(journal, () =>
    t.services.files.withStoredFiles(
      [{ field: 'cover', filename, data, kind: mediaType === 'image/png' ? 'png' : 'unknown', mediaType }],
      (tx, [file]) => tx.update(issues).set({ coverFileId: file.id }).where(eq(issues.id, id)),
    ),
  );
}

beforeAll(async () => {
  t = await createTestContext();
  auth = { authorization: `Bearer ${await t.login('admin', 'admin-pass-123')}` };
  const volumeId = (await createVolume(t, auth, { number: 81, year: 2025, title: 'Vol' })).id;
  issueId = (await createIssue(t, auth, { volumeId, title: 'Iss', description: 'D' })).id;
  coverlessIssueId = (await createIssue(t, auth, { volumeId, title: 'Iss 2', description: 'D' })).id;
  const { title, abstract, keywords, pages, doi } = fields();
  articleId = (await publishArticle(t, auth, { issueId, title, abstract, keywords, pages, doi, authors })).id;
});
afterAll(() => t?.close());

describe("PATCH /api/editor/articles/:id: the article's facts", () => {
  it('stores subtitle, section, language, licence and copyright, and readers see them', async () => {
    const res = await patch(
      fields({
        subtitle: '  A second line  ',
        section: 'Research notes',
        language: 'pt-BR',
        license_url: 'https://creativecommons.org/licenses/by-sa/4.0/',
        copyright_holder: 'The authors',
        copyright_year: '2024',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await publicArticle()).toMatchObject({
      subtitle: 'A second line',
      section: 'Research notes',
      language: 'pt-BR',
      license_url: 'https://creativecommons.org/licenses/by-sa/4.0/',
      copyright_holder: 'The authors',
      copyright_year: 2024,
    });
  });

  it('keeps the facts an API client leaves out, and clears those given empty', async () => {
    expect((await patch(fields({ title: 'Renamed' }))).statusCode).toBe(200);
    expect(await publicArticle()).toMatchObject({
      title: 'Renamed',
      subtitle: 'A second line',
      license_url: 'https://creativecommons.org/licenses/by-sa/4.0/',
      copyright_year: 2024,
    });
    const res = await patch(fields({ subtitle: '', license_url: '', copyright_year: null, language: '' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(await publicArticle()).toMatchObject({
      subtitle: '',
      license_url: '',
      copyright_year: null,
      language: '',
      section: 'Research notes',
      copyright_holder: 'The authors',
    });
  });

  it.each([
    [{ copyright_year: '24' }, 'copyright_year', 'Copyright year must be four digits, such as 2024.'],
    [{ copyright_year: 'MMXXIV' }, 'copyright_year', 'Copyright year must be four digits, such as 2024.'],
    [{ copyright_year: 20245 }, 'copyright_year', 'Copyright year must be four digits, such as 2024.'],
    [{ language: 'English' }, 'language', 'Language must be a language code such as en, fr or pt-BR.'],
    [{ language: 'en_US' }, 'language', 'Language must be a language code such as en, fr or pt-BR.'],
    [{ license_url: 'CC BY 4.0' }, 'license_url', 'Licence URL must be a web address starting with https://'],
    [{ license_url: 'javascript:alert(1)' }, 'license_url', 'Licence URL must be a web address'],
    [{ subtitle: 'x'.repeat(501) }, 'subtitle', 'Subtitle must be at most 500 characters.'],
  ])('refuses %j with 400 and says why, changing nothing', async (over, field, message) => {
    const res = await patch(fields({ title: 'Not saved', ...over }));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(message);
    expect(JSON.stringify(res.json())).toContain(field);
    expect((await publicArticle()).title).toBe('An article with facts');
  });
});

describe("PATCH /api/editor/articles/:id: the authors' imported facts", () => {
  it("keeps each author's country, ROR id and primary contact through an edit of the author list", async () => {
    await withJournal(1, () =>
      t.services.db
        .update(articleAuthors)
        .set({ country: 'IN', ror: 'https://ror.org/02crff812', primaryContact: true })
        .where(eq(articleAuthors.articleId, articleId)),
    );
    const two = JSON.stringify([
      { name: 'Chinua Okafor', email: 'chinua@example.org', affiliation: 'Lagos', superscript: '2' },
      // The same person, her affiliation edited: still her country, ROR id and primary contact.
      {
        name: 'Meera Iyer',
        email: 'meera@example.org',
        affiliation: 'Anna University, Chennai',
        superscript: '1',
      },
    ]);
    const res = await patch(fields({ authors: two }));
    expect(res.statusCode, res.body).toBe(200);
    const shown = (await publicArticle()).authors;
    expect(shown.map((a: { name: string }) => a.name)).toEqual(['Chinua Okafor', 'Meera Iyer']);
    expect(shown[0]).toMatchObject({ country: '', ror: null, primary_contact: false });
    expect(shown[1]).toMatchObject({
      country: 'IN',
      ror: 'https://ror.org/02crff812',
      primary_contact: true,
    });
  });
});

describe('GET /api/issues/:id/cover', () => {
  it("serves an issue's cover image, inline and public, with its type", async () => {
    await giveCover(issueId, png, 'image/png', 'cover.png');
    const res = await t.app.inject({ method: 'GET', url: `/api/issues/${issueId}/cover` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe('inline');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.rawPayload.equals(png)).toBe(true);
  });

  it('is 404 for an issue without a cover, one that does not exist, and a cover not an image we show', async () => {
    for (const id of [coverlessIssueId, 999999]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/issues/${id}/cover` });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('This issue has no cover.');
    }
    await giveCover(coverlessIssueId, Buffer.from('<svg onload="alert(1)"/>'), 'image/svg+xml', 'c.svg');
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/issues/${coverlessIssueId}/cover` })).statusCode,
    ).toBe(404);
  });

  it("is 404 for another journal's issue at this journal's address, and shown at its own", async () => {
    const journalB = (
      await t.services.journalAdmin.create({ title: 'Covers Elsewhere', path: 'jcover', editor: 'admin' })
    ).id;
    const bIssueId = await withJournal(journalB, async () => {
      const [volume] = await t.services.db
        .insert(volumes)
        .values({ title: 'B', volumeNumber: 1, year: 2025 })
        .returning();
      const [issue] = await t.services.db
        .insert(issues)
        .values({ volumeId: volume.id, issueNumber: 1, title: 'B1', description: 'B' })
        .returning();
      return issue.id;
    });
    await giveCover(bIssueId, png, 'image/png', 'b.png', journalB);
    const here = await t.app.inject({ method: 'GET', url: `/api/issues/${bIssueId}/cover` });
    expect(here.statusCode).toBe(404);
    expect(here.json().message).toBe('This issue has no cover.');
    const there = await t.app.inject({ method: 'GET', url: `/jcover/api/issues/${bIssueId}/cover` });
    expect(there.statusCode, there.body).toBe(200);
    expect(there.headers['content-type']).toBe('image/png');
  });
});
