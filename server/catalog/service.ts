import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { ArticleUploadFields, IssueInput, VolumeInput } from '../../common/schemas.ts';
import { PAGES_PATTERN } from '../../common/schemas.ts';
import type { SessionUser } from '../accounts/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import {
  articleTag,
  CATALOG,
  CATALOG_INDEX,
  dependsOn,
  issueArticlesTag,
  issueTag,
  volumeTag,
} from '../cache/dependencies.ts';
import type { Db, Tx } from '../db/client.ts';
import { isUniqueViolation, pgConstraint } from '../db/errors.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import type { EventBus } from '../events/bus.ts';
import type { FileService, StoredFile } from '../files/service.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { SimilarityService } from '../similarity/service.ts';
import { type PublicArticle, presentArticle, presentIssue, presentVolume } from './present.ts';
import { articleAuthors, articles, issues, volumes } from './tables.ts';

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

export class CatalogService {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      files: FileService;
      audit: AuditService;
      baseUrl: string;
      /** The similarity corpus: readers' checks follow an article's published state at once. */
      similarity?: Pick<SimilarityService, 'articleVisibility'>;
      /** The outbox: `article.changed` in the change's transaction, for its followers (decision 0031). */
      events?: Pick<EventBus, 'emit'>;
      /** Kept pages and answers, in every process: told in the change's transaction what changed (0018, 0031). */
      changes?: Pick<ChangeFeed, 'publish'>;
    },
  ) {}

  /** In a change's transaction: the kept answers that show it go once it commits (every list of articles too). */
  private async changed(tx: Tx, ...tags: string[]) {
    await this.deps.changes?.publish(tx, [CATALOG, ...tags]);
  }

  /** In the transaction of a change of one article: its kept answers, and the event its followers take. */
  private async articleChanged(tx: Tx, articleId: number, ...tags: string[]) {
    await this.changed(tx, articleTag(articleId), ...tags);
    await this.deps.events?.emit(tx, 'article.changed', { articleId });
  }

  // ---- Reading -------------------------------------------------------------------------------------

  /**
   * Articles with their issue, volume and authors, in the order given: two queries whatever the count (the
   * issues with their volumes, and the authors), run together; authors grouped in one pass.
   */
  private async hydrate(rows: ArticleRow[]): Promise<PublicArticle[]> {
    if (!rows.length) return [];
    const [placeRows, authorRows] = await Promise.all([
      this.places([...new Set(rows.map((r) => r.issueId))]),
      this.authorsOf(rows.map((r) => r.id)),
    ]);
    const placeOf = new Map(placeRows.map((p) => [p.issue.id, p]));
    return rows.map((a) => {
      const { issue, volume } = placeOf.get(a.issueId)!;
      return presentArticle(a, issue, volume, authorRows.get(a.id) ?? [], this.deps.baseUrl);
    });
  }

  /** Issues with their volumes. */
  private places(issueIds: number[]) {
    return this.db
      .select({ issue: issues, volume: volumes })
      .from(issues)
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .where(inArray(issues.id, issueIds));
  }

  /** Each article's authors in order, by article id. */
  private async authorsOf(articleIds: number[]) {
    const rows = await this.db
      .select()
      .from(articleAuthors)
      .where(inArray(articleAuthors.articleId, articleIds))
      .orderBy(asc(articleAuthors.articleId), asc(articleAuthors.position));
    return groupBy(rows, (row) => row.articleId);
  }

  /** Volumes, newest first, each with its issues and their published articles. */
  async publicTree() {
    dependsOn(CATALOG, CATALOG_INDEX);
    const [volumeRows, issueRows, articleRows] = await Promise.all([
      this.db.select().from(volumes).orderBy(desc(volumes.volumeNumber)),
      this.db.select().from(issues).orderBy(asc(issues.issueNumber)),
      this.db
        .select()
        .from(articles)
        .where(eq(articles.status, 'published'))
        .orderBy(asc(articles.firstPage), asc(articles.id)),
    ]);
    const hydrated = await this.hydrate(articleRows);
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
  async browseIndex() {
    dependsOn(CATALOG_INDEX);
    const [volumeRows, issueRows, counts] = await Promise.all([
      this.db.select().from(volumes).orderBy(desc(volumes.volumeNumber)),
      this.db.select().from(issues).orderBy(asc(issues.issueNumber)),
      this.db
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
      })),
    }));
  }

  /** One issue's published articles, in page order. */
  async issueArticles(issueId: number): Promise<PublicArticle[]> {
    dependsOn(issueArticlesTag(issueId));
    const rows = await this.db
      .select()
      .from(articles)
      .where(and(eq(articles.issueId, issueId), eq(articles.status, 'published')))
      .orderBy(asc(articles.firstPage), asc(articles.id));
    return this.hydrate(rows);
  }

  /** One article as readers see it; unpublished articles only for `includeUnpublished` (editors). */
  async article(id: number, opts: { includeUnpublished?: boolean } = {}): Promise<PublicArticle> {
    // The article with its issue and volume, and its authors: two queries, together.
    const [[found], authors] = await Promise.all([
      this.db
        .select({ article: articles, issue: issues, volume: volumes })
        .from(articles)
        .innerJoin(issues, eq(issues.id, articles.issueId))
        .innerJoin(volumes, eq(volumes.id, issues.volumeId))
        .where(eq(articles.id, id)),
      this.authorsOf([id]),
    ]);
    // A page that shows the article goes when it, its issue or its volume changes.
    if (found) dependsOn(articleTag(id), issueTag(found.issue.id), volumeTag(found.volume.id));
    if (!found || (found.article.status !== 'published' && !opts.includeUnpublished))
      throw notFound('Article not found.');
    return presentArticle(found.article, found.issue, found.volume, authors.get(id) ?? [], this.deps.baseUrl);
  }

  /**
   * One page of the published articles, newest first (by publication date, then id): the paginated variant
   * of the public tree, for clients that cannot take the whole archive at once.
   */
  async publishedPage(page: {
    limit: number;
    offset: number;
  }): Promise<{ articles: PublicArticle[]; total: number }> {
    dependsOn(CATALOG);
    const published = eq(articles.status, 'published');
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(articles)
        .where(published)
        .orderBy(desc(articles.publicationDate), desc(articles.id))
        .limit(page.limit)
        .offset(page.offset),
      this.db.select({ total: count() }).from(articles).where(published),
    ]);
    return { articles: await this.hydrate(rows), total: Number(total) };
  }

  async latest(limit = 5): Promise<PublicArticle[]> {
    dependsOn(CATALOG);
    const rows = await this.db
      .select()
      .from(articles)
      .where(eq(articles.status, 'published'))
      .orderBy(desc(articles.publicationDate), desc(articles.id))
      .limit(limit);
    return this.hydrate(rows);
  }

  async papers() {
    dependsOn(CATALOG);
    return this.db
      .select({ id: articles.id, title: articles.title })
      .from(articles)
      .where(eq(articles.status, 'published'))
      .orderBy(desc(articles.publicationDate), desc(articles.id))
      .then((rows) => rows.map((r) => ({ ...r, pdfPath: `/api/articles/${r.id}/download` })));
  }

  /** The stored PDF of an article, for the download route (which decides who may have it). */
  async articlePdf(id: number, opts: { includeUnpublished: boolean }) {
    const article = await this.article(id, opts);
    const [row] = await this.db
      .select({ fileId: articles.pdfFileId })
      .from(articles)
      .where(eq(articles.id, id));
    if (!row?.fileId) throw notFound('This article has no PDF yet.');
    const file = await this.deps.files.get(row.fileId);
    return { article, file };
  }

  // ---- Editorial lists ------------------------------------------------------------------------------

  async editorVolumes() {
    const rows = await this.db
      .select({
        volume: volumes,
        // Qualified by hand: inside sql`` Drizzle prints columns without their table.
        issueCount: sql<number>`(select count(*)::int from "issues" i where i."volume_id" = "volumes"."id")`,
      })
      .from(volumes)
      .orderBy(desc(volumes.volumeNumber));
    return rows.map((r) => ({ ...presentVolume(r.volume), issue_count: r.issueCount }));
  }

  async editorIssues() {
    const rows = await this.db
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

  async editorArticles(page: { limit: number; offset: number }) {
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(articles).orderBy(desc(articles.id)).limit(page.limit).offset(page.offset),
      this.db.select({ total: count() }).from(articles),
    ]);
    return { articles: await this.hydrate(rows), total };
  }

  // ---- Editorial changes ----------------------------------------------------------------------------

  async createVolume(actor: SessionUser, input: VolumeInput) {
    try {
      const created = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(volumes)
          .values({ title: input.title, volumeNumber: input.volume_number, year: input.year })
          .returning();
        await this.deps.audit.record(
          tx,
          actor,
          'volume.create',
          { type: 'volume', id: row.id },
          { ...input },
        );
        await this.changed(tx, CATALOG_INDEX, volumeTag(row.id));
        return presentVolume(row);
      });
      return created;
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw conflict(`Volume ${input.volume_number} already exists.`, {
          volume_number: `Volume ${input.volume_number} already exists.`,
        });
      }
      throw err;
    }
  }

  /** Creates the next issue of a volume: issue numbers are given in order (1, 2, 3, …). */
  async createIssue(actor: SessionUser, input: IssueInput) {
    const [volume] = await this.db.select().from(volumes).where(eq(volumes.id, input.volume_id));
    if (!volume) throw invalid('That volume does not exist.', { volume_id: 'That volume does not exist.' });
    for (let attempt = 0; ; attempt++) {
      try {
        const created = await this.db.transaction(async (tx) => {
          const [{ next }] = await tx
            .select({ next: sql<number>`coalesce(max(${issues.issueNumber}), 0)::int + 1` })
            .from(issues)
            .where(eq(issues.volumeId, volume.id));
          const [row] = await tx
            .insert(issues)
            .values({
              volumeId: volume.id,
              issueNumber: next,
              title: input.title,
              description: input.description,
              publicationMonth: input.publication_month ?? null,
            })
            .returning();
          await this.deps.audit.record(
            tx,
            actor,
            'issue.create',
            { type: 'issue', id: row.id },
            { ...input },
          );
          await this.changed(tx, CATALOG_INDEX, issueTag(row.id));
          return { ...presentIssue(row), volume_number: volume.volumeNumber };
        });
        return created;
      } catch (err) {
        // Two editors adding an issue at once: the unique (volume, number) pair sends one round again.
        if (isUniqueViolation(err) && attempt < 3) continue;
        throw err;
      }
    }
  }

  /** Changes a volume's title, number and year; 404 when it does not exist, 409 when the number is taken. */
  async updateVolume(actor: SessionUser, id: number, input: VolumeInput) {
    try {
      const updated = await this.db.transaction(async (tx) => {
        const [before] = await tx.select().from(volumes).where(eq(volumes.id, id));
        if (!before) throw notFound('No such volume.');
        const [row] = await tx
          .update(volumes)
          .set({ title: input.title, volumeNumber: input.volume_number, year: input.year })
          .where(eq(volumes.id, id))
          .returning();
        // Its articles' records change with it (set names, source, citations): harvesters must see them again.
        await tx
          .update(articles)
          .set({ updatedAt: new Date() })
          .where(
            inArray(
              articles.issueId,
              tx.select({ id: issues.id }).from(issues).where(eq(issues.volumeId, id)),
            ),
          );
        await this.deps.audit.record(
          tx,
          actor,
          'volume.update',
          { type: 'volume', id },
          {
            from: { title: before.title, volume_number: before.volumeNumber, year: before.year },
            to: { ...input },
          },
        );
        await this.changed(tx, CATALOG_INDEX, volumeTag(id));
        return presentVolume(row);
      });
      return updated;
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw conflict(`Volume ${input.volume_number} already exists.`, {
          volume_number: `Volume ${input.volume_number} already exists.`,
        });
      }
      throw err;
    }
  }

  /**
   * Changes an issue's title, description and month (its volume and number stay; a month left out stays as it
   * is, null clears it); 404 when it does not exist.
   */
  async updateIssue(
    actor: SessionUser,
    id: number,
    input: { title: string; description: string; publication_month?: number | null },
  ) {
    const updated = await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(issues).where(eq(issues.id, id));
      if (!before) throw notFound('No such issue.');
      const month = input.publication_month === undefined ? before.publicationMonth : input.publication_month;
      const [row] = await tx
        .update(issues)
        .set({ title: input.title, description: input.description, publicationMonth: month })
        .where(eq(issues.id, id))
        .returning();
      await tx.update(articles).set({ updatedAt: new Date() }).where(eq(articles.issueId, id));
      await this.deps.audit.record(
        tx,
        actor,
        'issue.update',
        { type: 'issue', id },
        {
          from: {
            title: before.title,
            description: before.description,
            publication_month: before.publicationMonth,
          },
          to: { title: input.title, description: input.description, publication_month: month },
        },
      );
      await this.changed(tx, CATALOG_INDEX, issueTag(id));
      return presentIssue(row);
    });
    return updated;
  }

  /** Unpublishes (hidden from readers, kept for editors) or republishes an article; 404 when it does not exist. */
  async setArticleStatus(actor: SessionUser, id: number, status: 'published' | 'unpublished') {
    await this.db.transaction(async (tx) => {
      const [before] = await tx.select().from(articles).where(eq(articles.id, id));
      if (!before) throw notFound('No such article.');
      if (before.status === status) return;
      await tx.update(articles).set({ status }).where(eq(articles.id, id));
      await this.deps.audit.record(
        tx,
        actor,
        status === 'published' ? 'article.republish' : 'article.unpublish',
        { type: 'article', id },
        { title: before.title, from: before.status, to: status },
      );
      await this.articleChanged(tx, id, CATALOG_INDEX, issueArticlesTag(before.issueId));
    });
    await this.deps.similarity?.articleVisibility(id, status === 'published');
    return this.article(id, { includeUnpublished: true });
  }

  /** Edits an article's metadata and authors (its PDF stays); 404, 400 for an unknown issue, 409 on a taken DOI. */
  async updateArticle(actor: SessionUser, id: number, input: Omit<ArticleUploadFields, never>) {
    const [before] = await this.db.select().from(articles).where(eq(articles.id, id));
    if (!before) throw notFound('No such article.');
    const [issue] = await this.db.select().from(issues).where(eq(issues.id, input.issue_id));
    if (!issue) throw invalid('That issue does not exist.', { issue_id: 'That issue does not exist.' });
    const [taken] = await this.db
      .select({ id: articles.id })
      .from(articles)
      .where(and(sql`lower(${articles.doi}) = lower(${input.doi})`, sql`${articles.id} <> ${id}`));
    if (taken) throw this.doiTaken(input.doi);
    const [, first, last] = PAGES_PATTERN.exec(input.pages)!;
    try {
      await this.db.transaction(async (tx) => {
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
          })
          .where(eq(articles.id, id));
        await tx.delete(articleAuthors).where(eq(articleAuthors.articleId, id));
        await tx.insert(articleAuthors).values(
          input.authors.map((au, i) => ({
            articleId: id,
            position: i + 1,
            name: au.name,
            email: au.email,
            affiliation: au.affiliation,
            superscript: au.superscript,
            orcid: au.orcid,
          })),
        );
        await this.deps.audit.record(
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
        await this.articleChanged(tx, id, issueArticlesTag(before.issueId), ...moved);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw this.doiTaken(input.doi);
      throw err;
    }
    return this.article(id, { includeUnpublished: true });
  }

  /** Replaces an article's PDF, all or nothing (the new file is stored first, removed if the row fails). */
  async replaceArticlePdf(actor: SessionUser, id: number, pdf: CheckedUpload) {
    const [before] = await this.db.select().from(articles).where(eq(articles.id, id));
    if (!before) throw notFound('No such article.');
    await this.deps.files.withStoredFiles([pdf], async (tx, [file]) => {
      await tx.update(articles).set({ pdfFileId: file.id }).where(eq(articles.id, id));
      await this.deps.audit.record(
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
      await this.articleChanged(tx, id, issueArticlesTag(before.issueId));
    });
    return this.article(id, { includeUnpublished: true });
  }

  async uploadArticle(actor: SessionUser, input: ArticleUploadFields, pdf: CheckedUpload) {
    const [, first, last] = PAGES_PATTERN.exec(input.pages)!;
    const id = await this.publishNew(actor, {
      issueId: input.issue_id,
      title: input.title,
      abstract: input.abstract,
      keywords: input.keywords,
      firstPage: Number(first),
      lastPage: Number(last),
      doi: input.doi,
      authors: input.authors,
      pdf,
    });
    return this.article(id, { includeUnpublished: true });
  }

  /**
   * Stores the PDF and publishes the article with its authors, all or nothing; returns its id. `alongside`
   * runs in the same transaction once the article exists (the submission's full text becomes the article's).
   */
  async publishNew(
    actor: SessionUser,
    a: Omit<Parameters<CatalogService['insertArticle']>[2], 'file'> & {
      pdf: CheckedUpload;
      doi: string;
      alongside?: (tx: Tx, articleId: number) => Promise<void>;
    },
  ): Promise<number> {
    const [issue] = await this.db.select().from(issues).where(eq(issues.id, a.issueId));
    if (!issue) throw invalid('That issue does not exist.', { issue_id: 'That issue does not exist.' });
    await this.assertDoiFree(a.doi);
    try {
      const id = await this.deps.files.withStoredFiles([a.pdf], async (tx, [file]) => {
        const { alongside, pdf: _pdf, ...fields } = a;
        const articleId = await this.insertArticle(tx, actor, { ...fields, file });
        await alongside?.(tx, articleId);
        await this.articleChanged(tx, articleId, CATALOG_INDEX, issueArticlesTag(a.issueId));
        return articleId;
      });
      return id;
    } catch (err) {
      if (isUniqueViolation(err) && pgConstraint(err) === 'articles_submission_idx') {
        throw conflict('This submission is already published.');
      }
      if (isUniqueViolation(err)) throw this.doiTaken(a.doi);
      throw err;
    }
  }

  /** Inserts an article and its authors inside the caller's transaction; returns its id. */
  async insertArticle(
    tx: Tx,
    actor: SessionUser | null,
    a: {
      issueId: number;
      title: string;
      abstract: string;
      keywords: string;
      firstPage: number;
      lastPage: number;
      doi: string | null;
      articleType?: string;
      publicationDate?: string;
      submissionId?: number;
      authors: {
        name: string;
        email: string;
        affiliation: string;
        superscript: string;
        orcid?: string | null;
      }[];
      file: StoredFile;
    },
  ): Promise<number> {
    const [row] = await tx
      .insert(articles)
      .values({
        issueId: a.issueId,
        title: a.title,
        abstract: a.abstract,
        keywords: a.keywords,
        firstPage: a.firstPage,
        lastPage: a.lastPage,
        doi: a.doi,
        articleType: a.articleType ?? 'Research Article',
        pdfFileId: a.file.id,
        status: 'published',
        publicationDate: a.publicationDate ?? new Date().toISOString().slice(0, 10),
        submissionId: a.submissionId ?? null,
      })
      .returning({ id: articles.id });
    await tx.insert(articleAuthors).values(
      a.authors.map((au, i) => ({
        articleId: row.id,
        position: i + 1,
        name: au.name,
        email: au.email,
        affiliation: au.affiliation,
        superscript: au.superscript,
        orcid: au.orcid ?? null,
      })),
    );
    await this.deps.audit.record(
      tx,
      actor,
      'article.publish',
      { type: 'article', id: row.id },
      {
        title: a.title,
        doi: a.doi,
        issueId: a.issueId,
        file: { id: a.file.id, sha256: a.file.sha256, size: a.file.size },
      },
    );
    return row.id;
  }

  private async assertDoiFree(doi: string) {
    const [taken] = await this.db
      .select({ id: articles.id })
      .from(articles)
      .where(sql`lower(${articles.doi}) = lower(${doi})`);
    if (taken) throw this.doiTaken(doi);
  }

  private doiTaken(doi: string) {
    return conflict(`An article with DOI ${doi} already exists.`, {
      doi: `An article with DOI ${doi} already exists.`,
    });
  }
}
