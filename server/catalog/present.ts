import { MONTHS } from '../../common/dates.ts';
import type { articleAuthors, articleFiles, articles, issues, volumes } from './tables.ts';

type ArticleRow = typeof articles.$inferSelect;
type IssueRow = typeof issues.$inferSelect;
type VolumeRow = typeof volumes.$inferSelect;
type AuthorRow = typeof articleAuthors.$inferSelect;
type FileRow = typeof articleFiles.$inferSelect;

/**
 * One publication date per article, used everywhere (pages, listings, metadata): its own date, else its
 * issue's, else 1 January of its volume's year.
 */
export function publicationDate(article: ArticleRow, issue: IssueRow, volume: VolumeRow): string {
  return article.publicationDate ?? issue.publicationDate ?? `${volume.year}-01-01`;
}

/**
 * An issue's date as readers see it on /volumes, the article page and its citations: "March 2026" when the
 * issue has a month, else its volume's year alone, "2026" (decision 0039).
 */
export function issueDate(year: number, month: number | null): string {
  return month ? `${MONTHS[month - 1]} ${year}` : String(year);
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
    country: a.country,
    ror: a.ror,
    primary_contact: a.primaryContact,
  };
}

/**
 * An article's other files (issue 26): a stored one downloads at its address beside the PDF's, under the same
 * rule; a remote one is its link.
 */
export function presentArticleFile(f: FileRow, baseUrl: string) {
  return {
    id: f.id,
    label: f.label,
    locale: f.locale,
    remote: f.url !== null,
    url: f.url ?? `${baseUrl}/api/articles/${f.articleId}/files/${f.id}`,
  };
}

export function presentArticle(
  a: ArticleRow,
  issue: IssueRow,
  volume: VolumeRow,
  authors: AuthorRow[],
  baseUrl: string,
  files: FileRow[] = [],
) {
  const date = publicationDate(a, issue, volume);
  const pdfUrl = a.pdfFileId ? `${baseUrl}/api/articles/${a.id}/download` : null;
  return {
    id: a.id,
    title: a.title,
    subtitle: a.subtitle,
    abstract: a.abstract,
    keywords: a.keywords,
    pages: pagesOf(a),
    doi: a.doi,
    article_type: a.articleType,
    section: a.section,
    language: a.language,
    license_url: a.licenseUrl,
    copyright_holder: a.copyrightHolder,
    copyright_year: a.copyrightYear,
    references: a.references,
    files: [...files].sort((x, y) => x.position - y.position).map((f) => presentArticleFile(f, baseUrl)),
    issue_id: a.issueId,
    status: a.status,
    authors: [...authors].sort((x, y) => x.position - y.position).map(presentAuthor),
    pdf_url: pdfUrl,
    public_pdf_url: pdfUrl,
    // The article is dated and cited by its issue (decision 0039): "March 2026", or "2026" without a month.
    monyr: issueDate(volume.year, issue.publicationMonth),
    year: volume.year,
    publication_date: date,
    /** The issue's month (1–12) in its volume's year, or null. */
    issue_month: issue.publicationMonth,
    /** The issue's year: its volume's. */
    issue_year: volume.year,
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
