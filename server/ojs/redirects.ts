import { and, eq } from 'drizzle-orm';
import { articles, issues, volumes } from '../catalog/tables.ts';
import type { Db } from '../db/client.ts';
import { DISCOVERY_PATHS } from '../discovery/links.ts';
import { issueListingPath } from '../discovery/sitemap.ts';
import type { LegacyAddress } from '../journals/directory.ts';
import { oaiQuery } from './addresses.ts';
import { PDF_GALLEY, importedRecords } from './tables.ts';

/**
 * Where an old OJS address of a journal leads now (issue 26, decision 0067): the path and query on the
 * journal's address, or null when the old id is none the journal imported (the request then reaches its
 * not-found page). Runs in the journal's scope, before the request is routed: the journal directory has read
 * the address (server/journals/directory.ts), this reads the journal's imported records.
 *
 * An OJS galley id is recorded with its article's id and whether it became the article's PDF: the PDF galley's
 * old addresses lead to the PDF's download; any other galley's (HTML, data, a link elsewhere) to the article's
 * page, which lists the article's other files (and says how to download them when signed out). An old file id
 * (`/article/download/{id}/{galley}/{file}`) goes where its galley goes.
 */
export async function legacyLocation(
  db: Db,
  journalId: number,
  legacy: LegacyAddress,
  /** The namespace of the site's OAI-PMH identifiers (its host name). */
  oaiHost: string,
): Promise<string | null> {
  const { target, search } = legacy;
  switch (target.kind) {
    case 'home':
      return '/';
    case 'archive':
    case 'current-issue':
      // The volumes page lists every volume and shows the newest issue.
      return '/volumes';
    case 'about':
      return '/about';
    case 'search':
      return target.query.trim() ? `/search?${new URLSearchParams({ q: target.query.trim() })}` : '/search';
    case 'issue': {
      const local = await localId(db, journalId, 'issue', target.id);
      if (local === null) return null;
      const [row] = await db
        .select({ volume: volumes.volumeNumber, issue: issues.issueNumber })
        .from(issues)
        .innerJoin(volumes, eq(volumes.id, issues.volumeId))
        .where(and(eq(issues.id, local), eq(issues.journalId, journalId)));
      return row ? issueListingPath(row.volume, row.issue) : null;
    }
    case 'article': {
      const article = await publishedArticle(db, journalId, target.id);
      if (!article) return null;
      if (!target.galley) return `/article/${article.id}`;
      // A galley of this article (OJS's ids are the journal's, so one of another article is no address of it).
      const galley = await importedRecord(db, journalId, 'galley', target.galley);
      if (galley?.localId !== article.id || galley.fingerprint !== PDF_GALLEY || !article.pdfFileId)
        return `/article/${article.id}`;
      return `/download/${article.id}`;
    }
    case 'oai': {
      const ids = new Map<string, number | null>();
      const id = search.get('identifier');
      const m = id ? /^oai:[^:]+:article\/([A-Za-z0-9._-]+)$/.exec(id) : null;
      if (m) ids.set(m[1], (await publishedArticle(db, journalId, m[1]))?.id ?? null);
      const query = oaiQuery(
        search,
        (ojsId) => ids.get(ojsId) ?? null,
        (articleId) => `oai:${oaiHost}:article/${articleId}`,
      ).toString();
      return query ? `${DISCOVERY_PATHS.oai}?${query}` : DISCOVERY_PATHS.oai;
    }
  }
}

/** What an OJS id of the journal's became here, or null. */
async function localId(
  db: Db,
  journalId: number,
  kind: 'issue' | 'article' | 'galley',
  sourceId: string,
): Promise<number | null> {
  return (await importedRecord(db, journalId, kind, sourceId))?.localId ?? null;
}

/** The record of an OJS id of the journal's: what it became here, and its fingerprint. */
async function importedRecord(
  db: Db,
  journalId: number,
  kind: 'issue' | 'article' | 'galley',
  sourceId: string,
): Promise<{ localId: number; fingerprint: string } | null> {
  const [row] = await db
    .select({ localId: importedRecords.localId, fingerprint: importedRecords.fingerprint })
    .from(importedRecords)
    .where(
      and(
        eq(importedRecords.journalId, journalId),
        eq(importedRecords.source, 'ojs'),
        eq(importedRecords.kind, kind),
        eq(importedRecords.sourceId, sourceId),
      ),
    );
  return row ?? null;
}

/** The published article an OJS submission id became, or null. */
async function publishedArticle(
  db: Db,
  journalId: number,
  sourceId: string,
): Promise<{ id: number; pdfFileId: number | null } | null> {
  const local = await localId(db, journalId, 'article', sourceId);
  if (local === null) return null;
  const [row] = await db
    .select({ id: articles.id, pdfFileId: articles.pdfFileId })
    .from(articles)
    .where(and(eq(articles.id, local), eq(articles.journalId, journalId), eq(articles.status, 'published')));
  return row ?? null;
}
