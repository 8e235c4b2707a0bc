/**
 * Full-text search over the published articles: PostgreSQL text search (English configuration), the same
 * SQL on PGlite and on PostgreSQL. The index (`search_documents`) is kept by database triggers (see
 * README.md beside this file); this service only reads it, and at start-up asks the similarity engine to
 * extract the text of any article PDF it has not read yet.
 */

import { type SQL, sql } from 'drizzle-orm';
import { SEARCH_LIMITS, SEARCH_MESSAGES } from '../../common/search.ts';
import { CATALOG, CATALOG_INDEX, JOURNALS, dependsOn } from '../cache/dependencies.ts';
import type { Db } from '../db/client.ts';
import { withJournal } from '../db/scope.ts';
import type {
  SearchQuery,
  SearchResponse,
  SearchResult,
  Segment,
  SiteSearchQuery,
  SiteSearchResponse,
} from './schemas.ts';

/** Marks around highlighted words in ts_headline's output: control characters removed from the text first. */
const START = '\u0002';
const STOP = '\u0003';
const MARKERS = sql`chr(2) || chr(3)`;
const HEADLINE_OPTIONS = sql`'StartSel=' || chr(2) || ', StopSel=' || chr(3) || ', MaxFragments=2, MaxWords=28, MinWords=12, ShortWord=3, FragmentDelimiter=" … "'`;
const TITLE_OPTIONS = sql`'StartSel=' || chr(2) || ', StopSel=' || chr(3) || ', HighlightAll=true'`;
/** The same cap as the body's index (migration `search`): the text the snippets are taken from. */
const BODY_CHARS = 300_000;

/** The publication date shown for an article: its own, else its issue's, else 1 January of its volume. */
const PUBLICATION_DATE = sql`coalesce(a.publication_date, i.publication_date, make_date(v.year, 1, 1))`;

/**
 * What may go to the database as a query: control characters (NUL cannot be sent at all) and lone
 * surrogates become spaces. Everything else, quotes and operators included, websearch_to_tsquery reads
 * without ever failing.
 */
export function cleanQuery(q: string): string {
  return q.replace(/[\p{Cc}\p{Cs}]+/gu, ' ').trim();
}

/** ts_headline's output (with the marker characters) as segments of plain text. */
export function toSegments(marked: string): Segment[] {
  const out: Segment[] = [];
  let match = false;
  let buf = '';
  const flush = () => {
    if (!buf) return;
    const last = out.at(-1);
    if (last && last.match === match) last.text += buf;
    else out.push({ text: buf, match });
    buf = '';
  };
  for (const ch of marked) {
    if (ch === START || ch === STOP) {
      flush();
      match = ch === START;
    } else {
      buf += ch;
    }
  }
  flush();
  return out;
}

/**
 * A snippet's segments, with "…" where it starts or ends inside its text (a full-text snippet always
 * does; an abstract's is compared with the abstract).
 */
export function snippetSegments(marked: string, whole: string | null): Segment[] {
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  const segments = toSegments(squash(marked));
  const plain = segments.map((s) => s.text).join('');
  const source = whole === null ? null : squash(whole.replaceAll(START, '').replaceAll(STOP, ''));
  if (!plain) return segments;
  if (source === null || !source.startsWith(plain.slice(0, 40)))
    segments.unshift({ text: '… ', match: false });
  if (source === null || !source.endsWith(plain.slice(-40))) segments.push({ text: ' …', match: false });
  return segments.reduce<Segment[]>((out, s) => {
    const last = out.at(-1);
    if (last && last.match === s.match) last.text += s.text;
    else out.push({ ...s });
    return out;
  }, []);
}

export interface SearchFilterOptions {
  volumes: { number: number; year: number | null }[];
  years: number[];
  types: string[];
}

type Row = Record<string, unknown>;

/** The site's journals as a site-wide search names them: each result links to its journal's address. */
export interface SearchJournals {
  list(): { id: number; title: string }[];
  baseUrl(journalId: number): string;
}

export class SearchService {
  constructor(
    private readonly db: Db,
    private readonly deps: { baseUrl: () => string },
  ) {}

  /**
   * Published articles matching the query, best first, one page of them with highlighted snippets. Run in
   * a journal's scope, it finds that journal's articles only: the index is read through `articles`, whose
   * row-level security shows no other journal's (decision 0053).
   */
  async search(input: SearchQuery): Promise<SearchResponse> {
    dependsOn(CATALOG);
    const found = await this.find(input);
    return { ...found, results: found.results.map(({ journal_id: _, ...r }) => r) };
  }

  /**
   * The same over every journal of the site (decision 0057), run in the site's scope (`asSite`): each
   * result names its journal and links to the article at the journal's address; `journal` narrows it to one.
   */
  async searchSite(input: SiteSearchQuery, journals: SearchJournals): Promise<SiteSearchResponse> {
    const list = journals.list();
    // A kept answer shows every journal's catalog, and their names and addresses.
    dependsOn(JOURNALS);
    for (const journal of list) withJournal(journal.id, () => dependsOn(CATALOG));
    const titles = new Map(list.map((j) => [j.id, j.title]));
    const found = await this.find(input, input.journal);
    return {
      ...found,
      results: found.results.map(({ journal_id, ...r }) => {
        const url = journals.baseUrl(journal_id);
        return {
          ...r,
          url: `${url}/article/${r.id}`,
          journal: { id: journal_id, title: titles.get(journal_id) ?? '', url },
        };
      }),
    };
  }

  private async find(
    input: SearchQuery,
    journal?: number,
  ): Promise<Omit<SearchResponse, 'results'> & { results: (SearchResult & { journal_id: number })[] }> {
    const q = cleanQuery(input.q);
    const size = input.size ?? SEARCH_LIMITS.defaultPageSize;
    const page = input.page ?? 1;
    const empty = (hint: string | null) => ({
      query: q,
      total: 0,
      page,
      size,
      pages: 0,
      results: [],
      hint,
    });
    if (!q) return empty(SEARCH_MESSAGES.onlyCommonWords);

    const tsquery = sql`websearch_to_tsquery('english', ${q})`;
    const [{ nodes }] = await this.rows<{ nodes: number }>(sql`select numnode(${tsquery})::int as nodes`);
    if (!nodes) return empty(SEARCH_MESSAGES.onlyCommonWords);

    const filters: SQL[] = [sql`a.status = 'published'`, sql`s.document @@ q.query`];
    if (journal !== undefined) filters.push(sql`a.journal_id = ${journal}`);
    if (input.volume !== undefined) filters.push(sql`v.volume_number = ${input.volume}`);
    if (input.year !== undefined)
      filters.push(sql`extract(year from ${PUBLICATION_DATE})::int = ${input.year}`);
    if (input.type !== undefined) filters.push(sql`lower(a.article_type) = lower(${input.type})`);
    const from = sql`
      from search_documents s
      join articles a on a.id = s.article_id
      join issues i on i.id = a.issue_id
      join volumes v on v.id = i.volume_id
      cross join (select ${tsquery} as query) q
      where ${sql.join(filters, sql` and `)}`;

    const [{ total }] = await this.rows<{ total: number }>(sql`select count(*)::int as total ${from}`);
    const pages = Math.ceil(total / size);
    const hint = total
      ? null
      : this.hasFilters(input) || journal !== undefined
        ? SEARCH_MESSAGES.noResultsWithFilters
        : SEARCH_MESSAGES.noResults;
    if (!total || page > pages) return { query: q, total, page, size, pages, results: [], hint };

    // Rank: a match in the metadata (title 1.0, keywords/authors 0.4, abstract 0.2 per cover) always
    // outranks a match found only in the full text, whose share is below 0.1 (normalised r / (r + 1)).
    const hits = await this.rows<{
      id: number;
      journal_id: number;
      rank: number;
      title: string;
      title_marked: string;
      snippet_source: 'abstract' | 'full_text';
      snippet_marked: string;
      abstract: string;
      article_type: string;
      doi: string | null;
      volume_number: number;
      issue_number: number;
      publication_date: string;
    }>(sql`
      with hits as (
        select a.id, s.body, q.query,
          (ts_rank_cd(s.metadata, q.query) + 0.1 * ts_rank_cd(s.document, q.query, 32))::float8 as rank,
          ${PUBLICATION_DATE} as published_on
        ${from}
        order by rank desc, published_on desc, a.id desc
        limit ${size} offset ${(page - 1) * size}
      )
      select h.id, a.journal_id, h.rank, a.title, a.abstract, a.article_type, a.doi, v.volume_number, i.issue_number,
        to_char(h.published_on, 'YYYY-MM-DD') as publication_date,
        ts_headline('english', translate(a.title, ${MARKERS}, ''), h.query, ${TITLE_OPTIONS}) as title_marked,
        case when to_tsvector('english', a.abstract) @@ h.query or not (h.body @@ h.query) then 'abstract' else 'full_text' end
          as snippet_source,
        case when to_tsvector('english', a.abstract) @@ h.query or not (h.body @@ h.query)
          then ts_headline('english', translate(a.abstract, ${MARKERS}, ''), h.query, ${HEADLINE_OPTIONS})
          else ts_headline('english', translate(left(d.text, ${BODY_CHARS}), ${MARKERS}, ''), h.query, ${HEADLINE_OPTIONS})
        end as snippet_marked
      from hits h
      join articles a on a.id = h.id
      join issues i on i.id = a.issue_id
      join volumes v on v.id = i.volume_id
      left join similarity_documents d on d.source_kind = 'article' and d.source_id = h.id
      order by h.rank desc, h.published_on desc, h.id desc`);

    const ids = hits.map((h) => h.id);
    const authors = await this.rows<{ article_id: number; name: string }>(sql`
      select article_id, name from article_authors
      where article_id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})
      order by article_id, position`);
    const byArticle = new Map<number, string[]>();
    for (const a of authors) byArticle.set(a.article_id, [...(byArticle.get(a.article_id) ?? []), a.name]);

    const results = hits.map((h) => ({
      id: h.id,
      journal_id: h.journal_id,
      title: h.title,
      title_highlighted: toSegments(h.title_marked),
      authors: byArticle.get(h.id) ?? [],
      article_type: h.article_type,
      volume_number: h.volume_number,
      issue_number: h.issue_number,
      year: Number(h.publication_date.slice(0, 4)),
      publication_date: h.publication_date,
      doi: h.doi,
      url: `${this.deps.baseUrl()}/article/${h.id}`,
      snippet: snippetSegments(h.snippet_marked, h.snippet_source === 'abstract' ? h.abstract : null),
      snippet_source: h.snippet_source,
      rank: Number(h.rank),
    }));
    return { query: q, total, page, size, pages, results, hint: null };
  }

  /** The volumes, years and article types that published articles have: the search page's filters. */
  async filterOptions(): Promise<SearchFilterOptions> {
    dependsOn(CATALOG_INDEX);
    const rows = await this.rows<{
      volume_number: number;
      volume_year: number;
      year: number;
      article_type: string;
    }>(sql`
      select distinct v.volume_number, v.year as volume_year, extract(year from ${PUBLICATION_DATE})::int as year, a.article_type
      from articles a join issues i on i.id = a.issue_id join volumes v on v.id = i.volume_id
      where a.status = 'published'`);
    const volumes = new Map<number, number>();
    for (const r of rows) volumes.set(r.volume_number, r.volume_year);
    return {
      volumes: [...volumes].map(([number, year]) => ({ number, year })).sort((a, b) => b.number - a.number),
      years: [...new Set(rows.map((r) => r.year))].sort((a, b) => b - a),
      types: [...new Set(rows.map((r) => r.article_type))].sort((a, b) => a.localeCompare(b)),
    };
  }

  private hasFilters(input: SearchQuery) {
    return input.volume !== undefined || input.year !== undefined || input.type !== undefined;
  }

  private async rows<T extends Row>(query: SQL): Promise<T[]> {
    // PGlite and node-postgres both answer raw SQL with { rows }.
    return ((await this.db.execute(query)) as unknown as { rows: T[] }).rows;
  }
}
