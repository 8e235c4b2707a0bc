import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  articleTag,
  CATALOG,
  CATALOG_INDEX,
  dependsOn,
  issueArticlesTag,
  issueTag,
  volumeTag,
} from '../cache/dependencies.ts';
import { notFound } from '../errors.ts';
import type { CatalogContext } from './context.ts';
import { type PublicArticle, presentArticle, presentIssue, presentVolume } from './present.ts';
import { articleAuthors, articleFiles, articles, issues, volumes } from './tables.ts';

/** Reading the catalog: what readers see (published articles, their issues, volumes) and the editors' lists. */

type ArticleRow = typeof articles.$inferSelect;

/** Items by a key, each list in the items' order. */
function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/**
 * Articles with their issue, volume and authors, in the order given: two queries whatever the count (the
 * issues with their volumes, and the authors), run together; authors grouped in one pass.
 */
async function hydrate(ctx: CatalogContext, rows: ArticleRow[]): Promise<PublicArticle[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [placeRows, authorRows, fileRows] = await Promise.all([
    places(ctx, [...new Set(rows.map((r) => r.issueId))]),
    authorsOf(ctx, ids),
    filesOf(ctx, ids),
  ]);
  const placeOf = new Map(placeRows.map((p) => [p.issue.id, p]));
  return rows.map((a) => {
    const { issue, volume } = placeOf.get(a.issueId)!;
    return presentArticle(
      a,
      issue,
      volume,
      authorRows.get(a.id) ?? [],
      ctx.deps.baseUrl(),
      fileRows.get(a.id) ?? [],
    );
  });
}

/** Issues with their volumes. */
function places(ctx: CatalogContext, issueIds: number[]) {
  return ctx.db
    .select({ issue: issues, volume: volumes })
    .from(issues)
    .innerJoin(volumes, eq(volumes.id, issues.volumeId))
    .where(inArray(issues.id, issueIds));
}

/** Each article's other files (beside its PDF) in order, by article id. */
async function filesOf(ctx: CatalogContext, articleIds: number[]) {
  const rows = await ctx.db
    .select()
    .from(articleFiles)
    .where(inArray(articleFiles.articleId, articleIds))
    .orderBy(asc(articleFiles.articleId), asc(articleFiles.position));
  return groupBy(rows, (row) => row.articleId);
}

/** Each article's authors in order, by article id. */
async function authorsOf(ctx: CatalogContext, articleIds: number[]) {
  const rows = await ctx.db
    .select()
    .from(articleAuthors)
    .where(inArray(articleAuthors.articleId, articleIds))
    .orderBy(asc(articleAuthors.articleId), asc(articleAuthors.position));
  return groupBy(rows, (row) => row.articleId);
}

/** Volumes, newest first, each with its issues and their published articles. */
export async function publicTree(ctx: CatalogContext) {
  dependsOn(CATALOG, CATALOG_INDEX);
  const [volumeRows, issueRows, articleRows] = await Promise.all([
    ctx.db.select().from(volumes).orderBy(desc(volumes.volumeNumber)),
    ctx.db.select().from(issues).orderBy(asc(issues.issueNumber)),
    ctx.db
      .select()
      .from(articles)
      .where(eq(articles.status, 'published'))
      .orderBy(asc(articles.firstPage), asc(articles.id)),
  ]);
  const hydrated = await hydrate(ctx, articleRows);
  const articlesOf = groupBy(hydrated, (a) => a.issue_id);
  const issuesOf = groupBy(issueRows, (i) => i.volumeId);
  return volumeRows.map((v) => ({
    ...presentVolume(v),
    issues: (issuesOf.get(v.id) ?? []).map((i) => ({
      ...presentIssue(i),
      articles: articlesOf.get(i.id) ?? [],
    })),
  }));
}

/**
 * The browse tree without the articles: volumes newest first, each with its issues in order and how
 * many published articles each holds. Three queries, however large the archive.
 */
export async function browseIndex(ctx: CatalogContext) {
  dependsOn(CATALOG_INDEX);
  const [volumeRows, issueRows, counts] = await Promise.all([
    ctx.db.select().from(volumes).orderBy(desc(volumes.volumeNumber)),
    ctx.db.select().from(issues).orderBy(asc(issues.issueNumber)),
    ctx.db
      .select({ issueId: articles.issueId, n: count() })
      .from(articles)
      .where(eq(articles.status, 'published'))
      .groupBy(articles.issueId),
  ]);
  const countByIssue = new Map(counts.map((c) => [c.issueId, Number(c.n)]));
  const issuesOf = groupBy(issueRows, (i) => i.volumeId);
  return volumeRows.map((v) => ({
    ...presentVolume(v),
    issues: (issuesOf.get(v.id) ?? []).map((i) => ({
      ...presentIssue(i),
      article_count: countByIssue.get(i.id) ?? 0,
      has_cover: i.coverFileId !== null,
    })),
  }));
}

/** One issue's published articles, in page order. */
export async function issueArticles(ctx: CatalogContext, issueId: number): Promise<PublicArticle[]> {
  dependsOn(issueArticlesTag(issueId));
  const rows = await ctx.db
    .select()
    .from(articles)
    .where(and(eq(articles.issueId, issueId), eq(articles.status, 'published')))
    .orderBy(asc(articles.firstPage), asc(articles.id));
  return hydrate(ctx, rows);
}

/** One article as readers see it; unpublished articles only for `includeUnpublished` (editors). */
export async function articleById(
  ctx: CatalogContext,
  id: number,
  opts: { includeUnpublished?: boolean } = {},
): Promise<PublicArticle> {
  // The article with its issue and volume, and its authors: two queries, together.
  const [[found], authors, files] = await Promise.all([
    ctx.db
      .select({ article: articles, issue: issues, volume: volumes })
      .from(articles)
      .innerJoin(issues, eq(issues.id, articles.issueId))
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .where(eq(articles.id, id)),
    authorsOf(ctx, [id]),
    filesOf(ctx, [id]),
  ]);
  // A page that shows the article goes when it, its issue or its volume changes.
  if (found) dependsOn(articleTag(id), issueTag(found.issue.id), volumeTag(found.volume.id));
  if (!found || (found.article.status !== 'published' && !opts.includeUnpublished))
    throw notFound('Article not found.');
  return presentArticle(
    found.article,
    found.issue,
    found.volume,
    authors.get(id) ?? [],
    ctx.deps.baseUrl(),
    files.get(id) ?? [],
  );
}

/**
 * One page of the published articles, newest first (by publication date, then id): the paginated variant
 * of the public tree, for clients that cannot take the whole archive at once.
 */
export async function publishedPage(
  ctx: CatalogContext,
  page: {
    limit: number;
    offset: number;
  },
): Promise<{ articles: PublicArticle[]; total: number }> {
  dependsOn(CATALOG);
  const published = eq(articles.status, 'published');
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(articles)
      .where(published)
      .orderBy(desc(articles.publicationDate), desc(articles.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ total: count() }).from(articles).where(published),
  ]);
  return { articles: await hydrate(ctx, rows), total: Number(total) };
}

export async function latestArticles(ctx: CatalogContext, limit = 5): Promise<PublicArticle[]> {
  dependsOn(CATALOG);
  const rows = await ctx.db
    .select()
    .from(articles)
    .where(eq(articles.status, 'published'))
    .orderBy(desc(articles.publicationDate), desc(articles.id))
    .limit(limit);
  return hydrate(ctx, rows);
}

export async function papers(ctx: CatalogContext) {
  dependsOn(CATALOG);
  return ctx.db
    .select({ id: articles.id, title: articles.title })
    .from(articles)
    .where(eq(articles.status, 'published'))
    .orderBy(desc(articles.publicationDate), desc(articles.id))
    .then((rows) => rows.map((r) => ({ ...r, pdfPath: `/api/articles/${r.id}/download` })));
}

/** The stored PDF of an article, for the download route (which decides who may have it). */
export async function articlePdf(ctx: CatalogContext, id: number, opts: { includeUnpublished: boolean }) {
  const article = await articleById(ctx, id, opts);
  const [row] = await ctx.db.select({ fileId: articles.pdfFileId }).from(articles).where(eq(articles.id, id));
  if (!row?.fileId) throw notFound('This article has no PDF yet.');
  const file = await ctx.deps.files.get(row.fileId);
  return { article, file };
}

/** One of an article's other files kept here, for the download route (which decides who may have it). */
export async function articleFile(
  ctx: CatalogContext,
  id: number,
  fileId: number,
  opts: { includeUnpublished: boolean },
) {
  const article = await articleById(ctx, id, opts);
  const [row] = await ctx.db
    .select({ fileId: articleFiles.fileId, label: articleFiles.label })
    .from(articleFiles)
    .where(and(eq(articleFiles.id, fileId), eq(articleFiles.articleId, id)));
  // A remote file is its link, not a download of ours.
  if (!row?.fileId) throw notFound('This article has no such file.');
  const file = await ctx.deps.files.get(row.fileId);
  return { article, file, label: row.label };
}

/** The image types an issue's cover is shown in: what browsers show in an `<img>` (never SVG, which can script). */
export const COVER_MEDIA_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** An issue's stored cover image (issue 26: OJS's issue covers), public; 404 when it has none we show. */
export async function issueCover(ctx: CatalogContext, id: number) {
  const [row] = await ctx.db.select({ fileId: issues.coverFileId }).from(issues).where(eq(issues.id, id));
  // One answer for an issue that does not exist and one without a cover: the issue's public either way.
  if (!row?.fileId) throw notFound('This issue has no cover.');
  const file = await ctx.deps.files.get(row.fileId);
  if (!COVER_MEDIA_TYPES.includes(file.mediaType)) throw notFound('This issue has no cover.');
  return file;
}

export async function editorVolumes(ctx: CatalogContext) {
  const rows = await ctx.db
    .select({
      volume: volumes,
      // Qualified by hand: inside sql`` Drizzle prints columns without their table.
      issueCount: sql<number>`(select count(*)::int from "issues" i where i."volume_id" = "volumes"."id")`,
    })
    .from(volumes)
    .orderBy(desc(volumes.volumeNumber));
  return rows.map((r) => ({ ...presentVolume(r.volume), issue_count: r.issueCount }));
}

export async function editorIssues(ctx: CatalogContext) {
  const rows = await ctx.db
    .select({
      issue: issues,
      volume: volumes,
      articleCount: sql<number>`(select count(*)::int from "articles" a where a."issue_id" = "issues"."id")`,
      // What the issue can export: Crossref wants published articles with a DOI, DOAJ ones with a PDF.
      withDoi: sql<number>`(select count(*)::int from "articles" a where a."issue_id" = "issues"."id"
        and a."status" = 'published' and coalesce(a."doi", '') <> '')`,
      withPdf: sql<number>`(select count(*)::int from "articles" a where a."issue_id" = "issues"."id"
        and a."status" = 'published' and a."pdf_file_id" is not null)`,
    })
    .from(issues)
    .innerJoin(volumes, eq(volumes.id, issues.volumeId))
    .orderBy(desc(volumes.volumeNumber), desc(issues.issueNumber));
  return rows.map((r) => ({
    ...presentIssue(r.issue),
    volume_number: r.volume.volumeNumber,
    volume_title: r.volume.title,
    volume_year: r.volume.year,
    article_count: r.articleCount,
    exportable: { crossref: r.withDoi > 0, doaj: r.withPdf > 0 },
  }));
}

export async function editorArticles(ctx: CatalogContext, page: { limit: number; offset: number }) {
  const [rows, [{ total }]] = await Promise.all([
    ctx.db.select().from(articles).orderBy(desc(articles.id)).limit(page.limit).offset(page.offset),
    ctx.db.select({ total: count() }).from(articles),
  ]);
  return { articles: await hydrate(ctx, rows), total };
}
