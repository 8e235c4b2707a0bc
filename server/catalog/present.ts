import { MONTHS } from '../../common/dates.ts';
import type { articleAuthors, articles, issues, volumes } from './tables.ts';

type ArticleRow = typeof articles.$inferSelect;
type IssueRow = typeof issues.$inferSelect;
type VolumeRow = typeof volumes.$inferSelect;
type AuthorRow = typeof articleAuthors.$inferSelect;


/**
 * One publication date per article, used everywhere (pages, listings, metadata): its own date, else its
 * issue's, else 1 January of its volume's year.
 */
export function publicationDate(article: ArticleRow, issue: IssueRow, volume: VolumeRow): string {
  return article.publicationDate ?? issue.publicationDate ?? `${volume.year}-01-01`;
}

/** "March 2025" from "2025-03-01". */
export function monthYear(isoDate: string): string {
  const [y, m] = isoDate.split('-').map(Number);
  return `${MONTHS[m - 1]} ${y}`;
}

/**
 * An issue's date as readers see it on /volumes and the article page: "March 2026" when the issue has a
 * month, else its volume's year alone, "2026" (decision 0039).
 */
export function issueDate(year: number, month: number | null): string {
  return month ? `${MONTHS[month - 1]} ${year}` : String(year);
}

/**
 * The date an article is cited by (its citations, the citation line, `monyr`): its issue's month in its
 * volume's year when the issue has one, else the article's own date of publication. "2026-03" or "2026-11-05".
 */
export function citedDate(articleDate: string, issue: IssueRow, volume: VolumeRow): string {
  return issue.publicationMonth
    ? `${volume.year}-${String(issue.publicationMonth).padStart(2, '0')}`
    : articleDate;
}

/** Pages as "first-last"; the spec's default 1-10 when missing. */
export function pagesOf(article: Pick<ArticleRow, 'firstPage' | 'lastPage'>): string {
  return `${article.firstPage ?? 1}-${article.lastPage ?? 10}`;
}

export function presentAuthor(a: AuthorRow) {
  return {
    name: a.name,
    email: a.email,
    affiliation: a.affiliation,
    superscript: a.superscript,
    orcid: a.orcid,
  };
}

export function presentArticle(
  a: ArticleRow,
  issue: IssueRow,
  volume: VolumeRow,
  authors: AuthorRow[],
  baseUrl: string,
) {
  const date = publicationDate(a, issue, volume);
  const cited = citedDate(date, issue, volume);
  const pdfUrl = a.pdfFileId ? `${baseUrl}/api/articles/${a.id}/download` : null;
  return {
    id: a.id,
    title: a.title,
    abstract: a.abstract,
    keywords: a.keywords,
    pages: pagesOf(a),
    doi: a.doi,
    article_type: a.articleType,
    issue_id: a.issueId,
    status: a.status,
    authors: [...authors].sort((x, y) => x.position - y.position).map(presentAuthor),
    pdf_url: pdfUrl,
    public_pdf_url: pdfUrl,
    monyr: monthYear(cited),
    year: Number(cited.slice(0, 4)),
    publication_date: date,
    /** The issue's month (1–12) in its volume's year, or null (decision 0039). */
    issue_month: issue.publicationMonth,
    /** The volume's year: the year of the issue. */
    issue_year: volume.year,
    /** "March 2026", or "2026" for an issue without a month: as /volumes shows the issue. */
    issue_date: issueDate(volume.year, issue.publicationMonth),
    volume_id: volume.id,
    volume_number: volume.volumeNumber,
    volume_title: volume.title,
    issue_number: issue.issueNumber,
    issue_title: issue.title,
    url: `${baseUrl}/article/${a.id}`,
  };
}
export type PublicArticle = ReturnType<typeof presentArticle>;

export function presentIssue(i: IssueRow) {
  return {
    id: i.id,
    title: i.title,
    description: i.description,
    volume_id: i.volumeId,
    issue_number: i.issueNumber,
    publication_date: i.publicationDate,
    publication_month: i.publicationMonth,
  };
}

/** What an editor is told when an issue is made: "Issue 1 of Volume 3 created." (page and API alike). */
export function issueCreatedMessage(issue: { issue_number: number; volume_number: number }): string {
  return `Issue ${issue.issue_number} of Volume ${issue.volume_number} created.`;
}

export function presentVolume(v: VolumeRow) {
  return { id: v.id, title: v.title, volume_number: v.volumeNumber, year: v.year };
}
