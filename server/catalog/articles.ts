import { and, eq, sql } from 'drizzle-orm';
import type { ArticleUploadFields } from '../../common/schemas.ts';
import { PAGES_PATTERN } from '../../common/schemas.ts';
import type { SessionUser } from '../accounts/service.ts';
import { CATALOG_INDEX, issueArticlesTag } from '../cache/dependencies.ts';
import type { Tx } from '../db/client.ts';
import { isUniqueViolation, pgConstraint } from '../db/errors.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import type { StoredFile } from '../files/service.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import { articleChanged, type CatalogContext } from './context.ts';
import { articleById } from './read.ts';
import { articleAuthors, articles, issues } from './tables.ts';

/** The editors' changes to articles: publishing, editing, replacing the PDF, unpublishing. */

/** Unpublishes (hidden from readers, kept for editors) or republishes an article; 404 when it does not exist. */
export async function setArticleStatus(
  ctx: CatalogContext,
  actor: SessionUser,
  id: number,
  status: 'published' | 'unpublished',
) {
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(articles).where(eq(articles.id, id));
    if (!before) throw notFound('No such article.');
    if (before.status === status) return;
    await tx.update(articles).set({ status }).where(eq(articles.id, id));
    await ctx.deps.audit.record(
      tx,
      actor,
      status === 'published' ? 'article.republish' : 'article.unpublish',
      { type: 'article', id },
      { title: before.title, from: before.status, to: status },
    );
    await articleChanged(ctx, tx, id, CATALOG_INDEX, issueArticlesTag(before.issueId));
  });
  await ctx.deps.similarity?.articleVisibility(id, status === 'published');
  return articleById(ctx, id, { includeUnpublished: true });
}

/** Edits an article's metadata and authors (its PDF stays); 404, 400 for an unknown issue, 409 on a taken DOI. */
export async function updateArticle(
  ctx: CatalogContext,
  actor: SessionUser,
  id: number,
  input: ArticleUploadFields,
) {
  const [before] = await ctx.db.select().from(articles).where(eq(articles.id, id));
  if (!before) throw notFound('No such article.');
  const [issue] = await ctx.db.select().from(issues).where(eq(issues.id, input.issue_id));
  if (!issue) throw invalid('That issue does not exist.', { issue_id: 'That issue does not exist.' });
  const [taken] = await ctx.db
    .select({ id: articles.id })
    .from(articles)
    .where(and(sql`lower(${articles.doi}) = lower(${input.doi})`, sql`${articles.id} <> ${id}`));
  if (taken) throw doiTaken(input.doi);
  await ctx.deps.doi?.assertDoiEditable(id, input.doi);
  const [, first, last] = PAGES_PATTERN.exec(input.pages)!;
  try {
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(articles)
        .set({
          issueId: input.issue_id,
          title: input.title,
          abstract: input.abstract,
          keywords: input.keywords,
          firstPage: Number(first),
          lastPage: Number(last),
          doi: input.doi,
          ...articleFactColumns(input),
        })
        .where(eq(articles.id, id));
      // The form edits names, e-mails, affiliations and ORCID iDs; an author's country, ROR id and primary
      // contact (an imported article's) stay with the same person, found by name, else by e-mail.
      const previous = await tx.select().from(articleAuthors).where(eq(articleAuthors.articleId, id));
      const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
      const kept = (au: { name: string; email: string }) =>
        previous.find((p) => same(p.name, au.name)) ??
        previous.find((p) => p.email !== '' && same(p.email, au.email));
      await tx.delete(articleAuthors).where(eq(articleAuthors.articleId, id));
      await tx.insert(articleAuthors).values(
        authorRows(
          id,
          input.authors.map((au) => {
            const p = kept(au);
            return { ...au, country: p?.country, ror: p?.ror, primaryContact: p?.primaryContact };
          }),
        ),
      );
      await ctx.deps.audit.record(
        tx,
        actor,
        'article.update',
        { type: 'article', id },
        {
          from: { title: before.title, doi: before.doi, issueId: before.issueId },
          to: { title: input.title, doi: input.doi, issueId: input.issue_id },
        },
      );
      const moved =
        before.issueId !== input.issue_id ? [CATALOG_INDEX, issueArticlesTag(input.issue_id)] : [];
      await articleChanged(ctx, tx, id, issueArticlesTag(before.issueId), ...moved);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw doiTaken(input.doi);
    throw err;
  }
  return articleById(ctx, id, { includeUnpublished: true });
}

/** The article facts given (issue 26) as columns; one left out (undefined) is not among them, so it is kept. */
function articleFactColumns(input: ArticleUploadFields) {
  const columns = {
    subtitle: input.subtitle,
    section: input.section,
    language: input.language,
    licenseUrl: input.license_url,
    copyrightHolder: input.copyright_holder,
    copyrightYear: input.copyright_year,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, v]) => v !== undefined)) as Partial<
    typeof columns
  >;
}

/** Replaces an article's PDF, all or nothing (the new file is stored first, removed if the row fails). */
export async function replaceArticlePdf(
  ctx: CatalogContext,
  actor: SessionUser,
  id: number,
  pdf: CheckedUpload,
) {
  const [before] = await ctx.db.select().from(articles).where(eq(articles.id, id));
  if (!before) throw notFound('No such article.');
  await ctx.deps.files.withStoredFiles([pdf], async (tx, [file]) => {
    await tx.update(articles).set({ pdfFileId: file.id }).where(eq(articles.id, id));
    await ctx.deps.audit.record(
      tx,
      actor,
      'article.replace_pdf',
      { type: 'article', id },
      {
        title: before.title,
        from: before.pdfFileId,
        file: { id: file.id, sha256: file.sha256, size: file.size },
      },
    );
    await articleChanged(ctx, tx, id, issueArticlesTag(before.issueId));
  });
  return articleById(ctx, id, { includeUnpublished: true });
}

export async function uploadArticle(
  ctx: CatalogContext,
  actor: SessionUser,
  input: ArticleUploadFields,
  pdf: CheckedUpload,
) {
  const [, first, last] = PAGES_PATTERN.exec(input.pages)!;
  const id = await publishNew(ctx, actor, {
    issueId: input.issue_id,
    title: input.title,
    abstract: input.abstract,
    keywords: input.keywords,
    firstPage: Number(first),
    lastPage: Number(last),
    doi: input.doi,
    ...articleFactColumns(input),
    authors: input.authors,
    pdf,
  });
  return articleById(ctx, id, { includeUnpublished: true });
}

/**
 * Stores the PDF and publishes the article with its authors, all or nothing; returns its id. `alongside`
 * runs in the same transaction once the article exists (the submission's full text becomes the article's).
 */
export async function publishNew(
  ctx: CatalogContext,
  actor: SessionUser,
  a: Omit<ArticleFields, 'file'> & {
    pdf: CheckedUpload;
    /** None: the journal's DOI pattern gives it one as it goes into its issue (decision 0064). */
    doi: string | null;
    alongside?: (tx: Tx, articleId: number) => Promise<void>;
  },
): Promise<number> {
  const [issue] = await ctx.db.select().from(issues).where(eq(issues.id, a.issueId));
  if (!issue) throw invalid('That issue does not exist.', { issue_id: 'That issue does not exist.' });
  if (a.doi) await assertDoiFree(ctx, a.doi);
  // Read before the transaction (one connection on PGlite): what assigns a DOI inside it.
  const assignDoi = a.doi ? null : await ctx.deps.doi?.assigner();
  try {
    const id = await ctx.deps.files.withStoredFiles([a.pdf], async (tx, [file]) => {
      const { alongside, pdf: _pdf, ...fields } = a;
      const articleId = await insertArticle(ctx, tx, actor, { ...fields, file });
      await assignDoi?.(tx, articleId);
      await alongside?.(tx, articleId);
      await articleChanged(ctx, tx, articleId, CATALOG_INDEX, issueArticlesTag(a.issueId));
      return articleId;
    });
    return id;
  } catch (err) {
    if (isUniqueViolation(err) && pgConstraint(err) === 'articles_submission_idx') {
      throw conflict('This submission is already published.');
    }
    if (isUniqueViolation(err)) throw doiTaken(a.doi ?? 'assigned by the pattern');
    throw err;
  }
}

/** An article's author as the catalog keeps it. */
export type ArticleAuthorFields = {
  name: string;
  email: string;
  affiliation: string;
  superscript: string;
  orcid?: string | null;
  /** ISO 3166-1 alpha-2, the affiliation's ROR link, the author readers write to (an imported OJS article's). */
  country?: string;
  ror?: string | null;
  primaryContact?: boolean;
};

/** What an article holds beyond its id: what `insertArticle` writes and `rewriteArticle` replaces. */
export type ArticleFields = {
  issueId: number;
  title: string;
  abstract: string;
  keywords: string;
  firstPage: number | null;
  lastPage: number | null;
  doi: string | null;
  articleType?: string;
  publicationDate?: string;
  submissionId?: number;
  subtitle?: string;
  section?: string;
  language?: string;
  licenseUrl?: string;
  copyrightHolder?: string;
  copyrightYear?: number | null;
  references?: string[];
  /** Published unless said (an article of an unpublished OJS issue comes in unpublished). */
  status?: 'published' | 'unpublished';
  authors: ArticleAuthorFields[];
  /** Its PDF; none for an article moved in without one (an HTML-only OJS article). */
  file: StoredFile | null;
};

const columnsOf = (a: ArticleFields) => ({
  issueId: a.issueId,
  title: a.title,
  subtitle: a.subtitle ?? '',
  abstract: a.abstract,
  keywords: a.keywords,
  firstPage: a.firstPage,
  lastPage: a.lastPage,
  doi: a.doi,
  articleType: a.articleType ?? 'Research Article',
  section: a.section ?? '',
  language: a.language ?? '',
  licenseUrl: a.licenseUrl ?? '',
  copyrightHolder: a.copyrightHolder ?? '',
  copyrightYear: a.copyrightYear ?? null,
  references: a.references ?? [],
  pdfFileId: a.file?.id ?? null,
  status: a.status ?? 'published',
});

const authorRows = (articleId: number, authors: ArticleAuthorFields[]) =>
  authors.map((au, i) => ({
    articleId,
    position: i + 1,
    name: au.name,
    email: au.email,
    affiliation: au.affiliation,
    superscript: au.superscript,
    orcid: au.orcid ?? null,
    country: au.country ?? '',
    ror: au.ror ?? null,
    primaryContact: au.primaryContact ?? false,
  }));

/** Inserts an article and its authors inside the caller's transaction; returns its id. */
export async function insertArticle(
  ctx: CatalogContext,
  tx: Tx,
  actor: SessionUser | null,
  a: ArticleFields,
): Promise<number> {
  const [row] = await tx
    .insert(articles)
    .values({
      ...columnsOf(a),
      publicationDate: a.publicationDate ?? (ctx.deps.clock?.date() ?? new Date()).toISOString().slice(0, 10),
      submissionId: a.submissionId ?? null,
    })
    .returning({ id: articles.id });
  if (a.authors.length) await tx.insert(articleAuthors).values(authorRows(row.id, a.authors));
  await ctx.deps.audit.record(
    tx,
    actor,
    'article.publish',
    { type: 'article', id: row.id },
    {
      title: a.title,
      doi: a.doi,
      issueId: a.issueId,
      file: a.file && { id: a.file.id, sha256: a.file.sha256, size: a.file.size },
    },
  );
  return row.id;
}

/**
 * Replaces an article's fields, authors and PDF inside the caller's transaction (an imported article whose
 * source changed, issue 26); the caller says the article changed (`articleChanged`), as after an insert.
 */
export async function rewriteArticle(
  ctx: CatalogContext,
  tx: Tx,
  actor: SessionUser | null,
  id: number,
  a: ArticleFields,
): Promise<void> {
  const [before] = await tx
    .select({ title: articles.title, doi: articles.doi, issueId: articles.issueId })
    .from(articles)
    .where(eq(articles.id, id));
  if (!before) throw notFound('No such article.');
  await tx
    .update(articles)
    .set({ ...columnsOf(a), ...(a.publicationDate ? { publicationDate: a.publicationDate } : {}) })
    .where(eq(articles.id, id));
  await tx.delete(articleAuthors).where(eq(articleAuthors.articleId, id));
  if (a.authors.length) await tx.insert(articleAuthors).values(authorRows(id, a.authors));
  await ctx.deps.audit.record(
    tx,
    actor,
    'article.update',
    { type: 'article', id },
    { from: before, to: { title: a.title, doi: a.doi, issueId: a.issueId } },
  );
}

async function assertDoiFree(ctx: CatalogContext, doi: string) {
  const [taken] = await ctx.db
    .select({ id: articles.id })
    .from(articles)
    .where(sql`lower(${articles.doi}) = lower(${doi})`);
  if (taken) throw doiTaken(doi);
}

function doiTaken(doi: string) {
  return conflict(`An article with DOI ${doi} already exists.`, {
    doi: `An article with DOI ${doi} already exists.`,
  });
}
