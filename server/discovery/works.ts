import { and, asc, count, desc, eq, gt, gte, inArray, lt, max, type SQL } from 'drizzle-orm';
import { keywordList } from '../../common/citation.ts';
import { publicationDate } from '../catalog/present.ts';
import { articleAuthors, articles, issues, volumes } from '../catalog/tables.ts';
import type { Db } from '../db/client.ts';

/**
 * Read queries for the discovery area (OAI-PMH, deposits, feeds, sitemap), written against the catalog's
 * tables: everything an export needs about an article in one shape, loaded in four queries whatever the
 * number of articles.
 */

export interface WorkAuthor {
  name: string;
  email: string;
  affiliation: string;
  /** Bare (0000-0002-1825-0097); exports write it as its https://orcid.org/ address. */
  orcid?: string | null;
  /** ISO 3166-1 alpha-2 ('' or absent: not given), the affiliation's ROR link, the corresponding author. */
  country?: string;
  ror?: string | null;
  primaryContact?: boolean;
}

export interface WorkIssue {
  id: number;
  number: number;
  title: string;
  description: string;
  publicationDate: string | null;
  updatedAt: Date;
}

export interface WorkVolume {
  id: number;
  number: number;
  title: string;
  year: number;
  updatedAt: Date;
}

export interface Work {
  id: number;
  /** The journal it is published in (decision 0053): its address, settings and OAI set are that journal's. */
  journalId: number;
  title: string;
  /** '' for none: exports that have a place for it give it there, the others cite "Title: Subtitle". */
  subtitle: string;
  abstract: string;
  keywords: string[];
  /** Null when the editors gave none: exports leave pages out rather than inventing them. */
  firstPage: number | null;
  lastPage: number | null;
  doi: string | null;
  articleType: string;
  /** An imported article's own (issue 26); '' (null for the year) for the journal's. */
  language: string;
  licenseUrl: string;
  copyrightHolder: string;
  copyrightYear: number | null;
  /** The reference list as plain citations, in order. */
  references: string[];
  status: 'published' | 'unpublished';
  /** YYYY-MM-DD: the article's own date, else its issue's, else 1 January of its volume's year. */
  publicationDate: string;
  createdAt: Date;
  updatedAt: Date;
  hasPdf: boolean;
  issue: WorkIssue;
  volume: WorkVolume;
  authors: WorkAuthor[];
  /** The landing page. */
  url: string;
  /** The PDF download (the same host as the landing page), or null when the article has none. */
  pdfUrl: string | null;
}

type ArticleRow = typeof articles.$inferSelect;

/**
 * Which volume, or which issue of a volume, by their numbers (as in OAI-PMH setSpecs and page URLs); in the
 * site's scope, where every journal numbers its own volumes, of which journal.
 */
export interface PlaceFilter {
  volume: number;
  issue?: number;
  journal?: number;
}

export class WorkReader {
  constructor(
    private readonly db: Db,
    /**
     * The address of the journal an article is published in: its landing page and PDF are there. In a
     * journal's scope every article read is that journal's; in the site's (the site-wide OAI repository),
     * each is its own journal's (`JournalDirectory.baseUrl`).
     */
    private readonly baseUrl: (journalId: number) => string,
  ) {}

  private async hydrate(rows: ArticleRow[]): Promise<Work[]> {
    if (!rows.length) return [];
    const issueRows = await this.db
      .select()
      .from(issues)
      .where(inArray(issues.id, [...new Set(rows.map((r) => r.issueId))]));
    const volumeRows = await this.db
      .select()
      .from(volumes)
      .where(inArray(volumes.id, [...new Set(issueRows.map((i) => i.volumeId))]));
    const authorRows = await this.db
      .select()
      .from(articleAuthors)
      .where(
        inArray(
          articleAuthors.articleId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(articleAuthors.articleId), asc(articleAuthors.position));
    const issueById = new Map(issueRows.map((i) => [i.id, i]));
    const volumeById = new Map(volumeRows.map((v) => [v.id, v]));
    const authorsByArticle = new Map<number, WorkAuthor[]>();
    for (const a of authorRows) {
      const list = authorsByArticle.get(a.articleId) ?? [];
      list.push({
        name: a.name.trim(),
        email: a.email.trim(),
        affiliation: a.affiliation.trim(),
        orcid: a.orcid,
        country: a.country,
        ror: a.ror,
        primaryContact: a.primaryContact,
      });
      authorsByArticle.set(a.articleId, list);
    }
    return rows.map((a) => {
      const issue = issueById.get(a.issueId)!;
      const volume = volumeById.get(issue.volumeId)!;
      const base = this.baseUrl(a.journalId);
      return {
        id: a.id,
        journalId: a.journalId,
        title: a.title.trim(),
        subtitle: a.subtitle.trim(),
        abstract: a.abstract.trim(),
        keywords: keywordList(a.keywords),
        firstPage: a.firstPage,
        lastPage: a.lastPage,
        doi: a.doi?.trim() || null,
        articleType: a.articleType,
        language: a.language,
        licenseUrl: a.licenseUrl,
        copyrightHolder: a.copyrightHolder.trim(),
        copyrightYear: a.copyrightYear,
        references: a.references.map((r) => r.trim()).filter(Boolean),
        status: a.status,
        publicationDate: publicationDate(a, issue, volume),
        createdAt: a.createdAt,
        updatedAt: a.updatedAt,
        hasPdf: a.pdfFileId !== null,
        issue: {
          id: issue.id,
          number: issue.issueNumber,
          title: issue.title,
          description: issue.description,
          publicationDate: issue.publicationDate,
          updatedAt: issue.updatedAt,
        },
        volume: {
          id: volume.id,
          number: volume.volumeNumber,
          title: volume.title,
          year: volume.year,
          updatedAt: volume.updatedAt,
        },
        authors: authorsByArticle.get(a.id) ?? [],
        url: `${base}/article/${a.id}`,
        pdfUrl: a.pdfFileId !== null ? `${base}/api/articles/${a.id}/download` : null,
      };
    });
  }

  /** The articles table's condition for "in this volume" or "in this issue of this volume". */
  private placeCondition(place: PlaceFilter): SQL {
    const issueIds = this.db
      .select({ id: issues.id })
      .from(issues)
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .where(
        and(
          eq(volumes.volumeNumber, place.volume),
          place.issue === undefined ? undefined : eq(issues.issueNumber, place.issue),
          place.journal === undefined ? undefined : eq(volumes.journalId, place.journal),
        ),
      );
    return inArray(articles.issueId, issueIds);
  }

  /** One article, published or not (callers decide what an unpublished one means to them). */
  async work(id: number): Promise<Work | null> {
    const [row] = await this.db.select().from(articles).where(eq(articles.id, id));
    return row ? (await this.hydrate([row]))[0] : null;
  }

  /** An issue's published articles in page order. */
  async issueWorks(issueId: number): Promise<Work[]> {
    const rows = await this.db
      .select()
      .from(articles)
      .where(and(eq(articles.issueId, issueId), eq(articles.status, 'published')))
      .orderBy(asc(articles.firstPage), asc(articles.id));
    return this.hydrate(rows);
  }

  /** The newest published articles: by publication date, then by id. */
  async latest(limit: number, place?: PlaceFilter): Promise<Work[]> {
    const rows = await this.db
      .select()
      .from(articles)
      .where(and(eq(articles.status, 'published'), place ? this.placeCondition(place) : undefined))
      .orderBy(desc(articles.publicationDate), desc(articles.id))
      .limit(limit);
    return this.hydrate(rows);
  }

  /** Every published article's id and last change, for the sitemap. */
  async publishedStamps() {
    return this.db
      .select({ id: articles.id, issueId: articles.issueId, updatedAt: articles.updatedAt })
      .from(articles)
      .where(eq(articles.status, 'published'))
      .orderBy(asc(articles.id));
  }

  /** Each journal's last change to a published article (in the site's scope: every journal's). */
  async lastChangeByJournal(): Promise<Map<number, Date>> {
    const rows = await this.db
      .select({ journalId: articles.journalId, at: max(articles.updatedAt) })
      .from(articles)
      .where(eq(articles.status, 'published'))
      .groupBy(articles.journalId);
    return new Map(rows.filter((r) => r.at).map((r) => [r.journalId, r.at as Date]));
  }

  /** An issue with its volume, by id or by their numbers. */
  async issue(by: { id: number } | { volume: number; issue: number }) {
    const [row] = await this.db
      .select({ issue: issues, volume: volumes })
      .from(issues)
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .where(
        'id' in by
          ? eq(issues.id, by.id)
          : and(eq(volumes.volumeNumber, by.volume), eq(issues.issueNumber, by.issue)),
      );
    return row ?? null;
  }

  /** Volumes in order, each with its issues in order. */
  async volumesWithIssues() {
    const [volumeRows, issueRows] = await Promise.all([
      this.db.select().from(volumes).orderBy(asc(volumes.volumeNumber)),
      this.db.select().from(issues).orderBy(asc(issues.issueNumber)),
    ]);
    return volumeRows.map((v) => ({ volume: v, issues: issueRows.filter((i) => i.volumeId === v.id) }));
  }

  // ---- OAI-PMH selections -------------------------------------------------------------------------

  private selection(q: Selection): SQL | undefined {
    return and(
      q.includeUnpublished ? undefined : eq(articles.status, 'published'),
      q.journal === undefined ? undefined : eq(articles.journalId, q.journal),
      q.place ? this.placeCondition(q.place) : undefined,
      q.from ? gte(articles.updatedAt, q.from) : undefined,
      q.untilExclusive ? lt(articles.updatedAt, q.untilExclusive) : undefined,
    );
  }

  /** One page of a selection, in id order after `afterId`; `limit + 1` rows tell whether more follow. */
  async selectPage(q: Selection, afterId: number, limit: number): Promise<{ works: Work[]; more: boolean }> {
    const rows = await this.db
      .select()
      .from(articles)
      .where(and(this.selection(q), gt(articles.id, afterId)))
      .orderBy(asc(articles.id))
      .limit(limit + 1);
    return { works: await this.hydrate(rows.slice(0, limit)), more: rows.length > limit };
  }

  async selectCount(q: Selection): Promise<number> {
    const [{ n }] = await this.db.select({ n: count() }).from(articles).where(this.selection(q));
    return Number(n);
  }

  /** The oldest datestamp among the records a harvester can see. */
  async earliestChange(includeUnpublished: boolean): Promise<Date | null> {
    const [row] = await this.db
      .select({ at: articles.updatedAt })
      .from(articles)
      .where(includeUnpublished ? undefined : eq(articles.status, 'published'))
      .orderBy(asc(articles.updatedAt))
      .limit(1);
    return row?.at ?? null;
  }
}

export interface Selection {
  includeUnpublished: boolean;
  /** One journal's records, in the site's scope (a site-wide set); a journal's scope holds only its own. */
  journal?: number;
  place?: PlaceFilter;
  from?: Date;
  untilExclusive?: Date;
}
