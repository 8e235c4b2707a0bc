import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { messageResponse } from '../../../common/api.ts';
import { attachmentDisposition } from '../../../common/filenames.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import { type DepositFile, DepositExports } from '../../discovery/exports.ts';
import { atomFeed, type FeedSpec, rssFeed } from '../../discovery/feeds.ts';
import { DISCOVERY_PATHS, FEED_PATHS, FEED_TYPES, SITE_DISCOVERY_PATHS } from '../../discovery/links.ts';
import { OaiRepository } from '../../discovery/oai.ts';
import {
  issueListingPath,
  PAGE_SETTINGS,
  PUBLIC_PAGES,
  robotsTxt,
  type SitemapEntry,
  sitemapIndexXml,
  sitemapXml,
} from '../../discovery/sitemap.ts';
import { type Work, WorkReader } from '../../discovery/works.ts';
import { asSite, currentJournalId, FIRST_JOURNAL, withJournal } from '../../db/scope.ts';
import { siteName } from '../../discovery/site.ts';
import type { Services } from '../../services.ts';
import { JOURNAL_KEY } from '../../settings/service.ts';
import type { Api } from '../api.ts';
import { destinationOf, journalOf } from '../journals.ts';

export interface DiscoveryOptions {
  /** Records per OAI-PMH ListRecords/ListIdentifiers response (default 100). */
  oaiPageSize?: number;
}

export const DEFAULT_OAI_PAGE_SIZE = 100;
/** How many articles the journal-wide feeds carry. */
export const FEED_SIZE = 20;

const XML = 'text/xml; charset=utf-8';

/** The newest of some dates (or `fallback` when there are none). */
function newest(dates: (Date | null | undefined)[], fallback: Date): Date {
  let best: Date | null = null;
  for (const d of dates) if (d && (!best || d > best)) best = d;
  return best ?? fallback;
}

/**
 * Sends a crawler document with an ETag (its bytes' hash) and Last-Modified, answering 304 when the
 * client's copy is current (If-None-Match first, else If-Modified-Since, as RFC 9110 orders them).
 */
function sendCacheable(
  request: FastifyRequest,
  reply: FastifyReply,
  doc: { body: string; type: string; lastModified?: Date },
) {
  const etag = `"${createHash('sha256').update(doc.body).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag).header('cache-control', 'public, max-age=300');
  const lastModified = doc.lastModified
    ? new Date(Math.floor(doc.lastModified.getTime() / 1000) * 1000)
    : null;
  if (lastModified) reply.header('last-modified', lastModified.toUTCString());
  const ifNoneMatch = request.headers['if-none-match'];
  const ifModifiedSince = request.headers['if-modified-since'];
  let fresh = false;
  if (ifNoneMatch) {
    fresh = ifNoneMatch
      .split(',')
      .map((t) => t.trim().replace(/^W\//, ''))
      .some((t) => t === etag || t === '*');
  } else if (ifModifiedSince && lastModified) {
    const since = Date.parse(ifModifiedSince);
    fresh = !Number.isNaN(since) && lastModified.getTime() <= since;
  }
  if (fresh) return reply.code(304).send();
  return reply.type(doc.type).send(doc.body);
}

/**
 * Whether a request came to the site's own host at its root: not to a journal's domain, nor under a
 * journal's path. The site's own documents (its OAI-PMH repository) answer there only.
 */
function atSiteAddress(request: FastifyRequest): boolean {
  const destination = destinationOf(request);
  if (!destination) return true;
  if (destination.kind === 'site') return true;
  return destination.kind === 'journal' && destination.prefix === '' && !destination.journal.domain;
}

const notFoundText = (reply: FastifyReply, message: string) =>
  reply.code(404).type('text/plain; charset=utf-8').send(message);

/**
 * What indexers, harvesters and feed readers fetch: OAI-PMH at /oai, the sitemap, robots.txt and the
 * feeds. Plain routes (not the JSON API), registered before the pages so that they never reach them.
 *
 * Each journal answers at its own address with its own documents (decision 0057): its OAI-PMH repository,
 * its sitemap and feeds list only its articles, at its address; the site answers `/site/oai` (and `/oai`,
 * `/sitemap.xml` when no journal is at its root) over every journal, and robots.txt on its host for every
 * journal it serves by path.
 */
export async function crawlerRoutes(app: FastifyInstance, services: Services, opts: DiscoveryOptions = {}) {
  const { settings, journals } = services;
  // An article's addresses are its journal's, in a journal's scope as in the site's.
  const works = new WorkReader(services.db, (journalId) => journals.baseUrl(journalId));
  const journalSettings = (journalId: number) => withJournal(journalId, () => settings.journal());
  const oaiDeps = {
    works,
    journal: journalSettings,
    // Identifiers are in the site's host's namespace, for every journal (decision 0057).
    host: new URL(services.baseUrl).hostname,
    pageSize: opts.oaiPageSize ?? DEFAULT_OAI_PAGE_SIZE,
    fullTexts: (ids: number[]) => services.fulltext.jatsBodies(ids),
  };
  const secret = services.config.sessionSecret;

  /** One journal's repository, at its address: its name and e-mail, its records only (row-level security). */
  const journalRepository = (journalId: number) =>
    new OaiRepository({
      ...oaiDeps,
      identity: async () => {
        const journal = await journalSettings(journalId);
        return { repositoryName: journal.name, adminEmail: journal.email, startYear: journal.startYear };
      },
      address: journals.baseUrl(journalId) + DISCOVERY_PATHS.oai,
      // The first journal's tokens are those it always gave; every other repository signs with its own key.
      secret: journalId === FIRST_JOURNAL ? secret : `${secret}:oai:j${journalId}`,
    });

  /** The site's repository (run in the site's scope): every journal's records, each journal a set. */
  const siteRepository = (path: string) =>
    new OaiRepository({
      ...oaiDeps,
      identity: async () => {
        const all = journals.list();
        const first = await journalSettings(all[0]?.id ?? FIRST_JOURNAL);
        let startYear = first.startYear;
        for (const journal of all.slice(1))
          startYear = Math.min(startYear, (await journalSettings(journal.id)).startYear);
        return { repositoryName: siteName(first), adminEmail: services.config.ADMIN_EMAIL, startYear };
      },
      address: services.baseUrl + path,
      journals: () => journals.list().map((j) => ({ id: j.id, title: j.title })),
      secret: `${secret}:oai:site`,
    });

  // OAI-PMH: GET with a query string, or POST with a form-encoded body, as the protocol allows.
  await app.register(async (scope) => {
    // The protocol asks for form-encoded POSTs; any other body type is read the same way, so that a
    // harvester always gets an OAI-PMH answer (an error in XML at worst), never the JSON API's 415.
    for (const type of ['application/x-www-form-urlencoded', '*']) {
      scope.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) =>
        done(null, body),
      );
    }
    const argsOf = (request: FastifyRequest) => {
      if (request.method === 'POST')
        return new URLSearchParams(typeof request.body === 'string' ? request.body : '');
      const q = request.url.indexOf('?');
      return new URLSearchParams(q < 0 ? '' : request.url.slice(q + 1));
    };
    const send = (reply: FastifyReply, xml: string) =>
      reply.type(XML).header('cache-control', 'no-store').send(xml);
    // A journal's repository at its address; the site's at /oai when no journal is at the site's root.
    const journalOai = async (request: FastifyRequest, reply: FastifyReply) => {
      const destination = destinationOf(request);
      const xml =
        destination?.kind === 'site'
          ? await asSite(() => siteRepository(DISCOVERY_PATHS.oai).respond(argsOf(request)))
          : await journalRepository(currentJournalId() ?? FIRST_JOURNAL).respond(argsOf(request));
      return send(reply, xml);
    };
    // The site's repository, always at /site/oai on the site's host.
    const siteOai = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!atSiteAddress(request))
        return notFoundText(reply, 'The site’s OAI-PMH repository is at its own address.');
      const xml = await asSite(() => siteRepository(SITE_DISCOVERY_PATHS.oai).respond(argsOf(request)));
      return send(reply, xml);
    };
    scope.get(DISCOVERY_PATHS.oai, journalOai);
    scope.post(DISCOVERY_PATHS.oai, journalOai);
    scope.get(SITE_DISCOVERY_PATHS.oai, siteOai);
    scope.post(SITE_DISCOVERY_PATHS.oai, siteOai);
  });

  /** The journals served by path on the site's host, with their addresses. */
  const byPath = () =>
    journals
      .list()
      .filter((j) => j.path && !j.domain)
      .map((j) => ({ id: j.id, path: j.path as string, baseUrl: journals.baseUrl(j) }));

  app.get(DISCOVERY_PATHS.robots, (request, reply) => {
    // Crawlers read it at a host's root: the site's host speaks for every journal it serves by path.
    const journal = journalOf(request);
    const body = journal?.domain
      ? robotsTxt(journals.baseUrl(journal))
      : robotsTxt(services.baseUrl, byPath());
    return sendCacheable(request, reply, { body, type: 'text/plain; charset=utf-8' });
  });

  app.get(DISCOVERY_PATHS.sitemap, async (request, reply) => {
    if (destinationOf(request)?.kind === 'site') {
      // No journal at the site's root: the sitemaps of those served by path.
      const list = byPath();
      const changed = await asSite(() => works.lastChangeByJournal());
      return sendCacheable(request, reply, {
        body: sitemapIndexXml(
          list.map((j) => ({ url: j.baseUrl + DISCOVERY_PATHS.sitemap, lastmod: changed.get(j.id) })),
        ),
        type: 'application/xml; charset=utf-8',
        ...(changed.size ? { lastModified: newest([...changed.values()], new Date(0)) } : {}),
      });
    }
    const baseUrl = services.journalUrl();
    const [stamps, tree] = await Promise.all([works.publishedStamps(), works.volumesWithIssues()]);
    const epoch = new Date(Date.UTC((await settings.journal()).startYear, 0, 1));
    const latestByIssue = new Map<number, Date>();
    for (const s of stamps)
      latestByIssue.set(s.issueId, newest([latestByIssue.get(s.issueId), s.updatedAt], epoch));
    const siteChanged = stamps.length
      ? newest(
          stamps.map((s) => s.updatedAt),
          epoch,
        )
      : null;
    const keys = [JOURNAL_KEY, ...new Set(Object.values(PAGE_SETTINGS).flat())];
    const written = await settings.changedAt(keys);
    const entries: SitemapEntry[] = PUBLIC_PAGES.map((path) => {
      const shown = [JOURNAL_KEY, ...(PAGE_SETTINGS[path] ?? [])].map((k) => written.get(k));
      if (path === '/' || path === '/volumes') shown.push(siteChanged ?? undefined);
      return { path, lastmod: newest(shown, epoch) };
    });
    // Volumes newest first, as the Volumes page lists them; only issues with published articles.
    for (const { volume, issues } of [...tree].reverse()) {
      for (const issue of issues) {
        const changed = latestByIssue.get(issue.id);
        if (changed)
          entries.push({ path: issueListingPath(volume.volumeNumber, issue.issueNumber), lastmod: changed });
      }
    }
    for (const s of stamps) entries.push({ path: `/article/${s.id}`, lastmod: s.updatedAt });
    return sendCacheable(request, reply, {
      body: sitemapXml(baseUrl, entries),
      type: 'application/xml; charset=utf-8',
      lastModified: newest(
        entries.map((e) => e.lastmod),
        epoch,
      ),
    });
  });

  const feedSpec = async (
    baseUrl: string,
    selfUrl: string,
    issue?: { volume: number; issue: number },
  ): Promise<FeedSpec | null> => {
    const journal = await settings.journal();
    const epoch = new Date(Date.UTC(journal.startYear, 0, 1));
    if (!issue) {
      const list = await works.latest(FEED_SIZE);
      return {
        title: journal.name,
        description: `The latest articles of ${journal.name}.`,
        pageUrl: `${baseUrl}/`,
        selfUrl,
        works: list,
        updated: newest(
          list.map((w) => w.updatedAt),
          epoch,
        ),
      };
    }
    const found = await works.issue(issue);
    if (!found) return null;
    const list: Work[] = await works.issueWorks(found.issue.id);
    return {
      title: `${journal.name}: Volume ${issue.volume}, Issue ${issue.issue}`,
      description: `${found.issue.title}. ${found.issue.description}`.trim(),
      pageUrl: `${baseUrl}${issueListingPath(issue.volume, issue.issue)}`,
      selfUrl,
      works: list,
      updated: newest([found.issue.updatedAt, ...list.map((w) => w.updatedAt)], epoch),
    };
  };

  const feed = (kind: 'rss' | 'atom') => async (request: FastifyRequest, reply: FastifyReply) => {
    const params = request.params as { volume?: string; issue?: string };
    let place: { volume: number; issue: number } | undefined;
    if (params.volume !== undefined) {
      const number = /^[1-9]\d{0,8}$/;
      if (!number.test(params.volume) || !number.test(params.issue ?? '')) {
        return notFoundText(reply, 'No such issue.');
      }
      place = { volume: Number(params.volume), issue: Number(params.issue) };
    }
    // The site's own address (no journal at its root) has no feed: each journal has its own.
    if (destinationOf(request)?.kind === 'site')
      return notFoundText(reply, 'Each journal has its own feeds.');
    const baseUrl = services.journalUrl();
    const issuePath = kind === 'rss' ? FEED_PATHS.issueRss : FEED_PATHS.issueAtom;
    const selfUrl = baseUrl + (place ? issuePath(place.volume, place.issue) : FEED_PATHS[kind]);
    const spec = await feedSpec(baseUrl, selfUrl, place);
    if (!spec) return notFoundText(reply, 'No such issue.');
    const journal = await settings.journal();
    return sendCacheable(request, reply, {
      body: kind === 'rss' ? rssFeed(journal, spec) : atomFeed(journal, spec),
      type: `${FEED_TYPES[kind]}; charset=utf-8`,
      lastModified: spec.updated,
    });
  };

  app.get(FEED_PATHS.rss, feed('rss'));
  app.get(FEED_PATHS.atom, feed('atom'));
  app.get('/volumes/:volume/issues/:issue/feed.rss', feed('rss'));
  app.get('/volumes/:volume/issues/:issue/feed.atom', feed('atom'));
}

const exportErrors = {
  401: { description: 'Not signed in, or the session has ended', schema: messageResponse },
  403: { description: 'Not allowed for this account', schema: messageResponse },
  404: { description: 'No such issue or article', schema: messageResponse },
  409: {
    description: 'Nothing in it can be exported (no published article with a DOI or a PDF)',
    schema: messageResponse,
  },
};

/** Every export answers so: the XML as an attachment, with the articles it left out in a header. */
function sendDeposit(reply: FastifyReply, file: DepositFile) {
  if (file.skipped.length) reply.header('x-skipped-articles', file.skipped.join(','));
  return reply
    .header('content-type', 'application/xml; charset=utf-8')
    .header('content-disposition', attachmentDisposition(file.filename))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.xml);
}

/** The dashboard's downloads for Crossref (DOI deposit) and DOAJ (article upload): JSON API routes. */
export function exportRoutes(api: Api, services: Services) {
  const deposits = new DepositExports(
    new WorkReader(services.db, (journalId) => services.journals.baseUrl(journalId)),
    services.settings,
  );

  api.route({
    method: 'GET',
    path: '/api/editor/export/crossref/issue/:id',
    tag: 'Editorial',
    summary: "Crossref deposit XML (schema 5.3.1) for an issue's published articles",
    description:
      'One `doi_batch` with the journal, the issue and every published article of it that has a DOI (articles without one are left out; the `X-Skipped-Articles` header lists their ids). Upload it to Crossref to register or update the DOIs.',
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      200: { description: 'The deposit XML, as an attachment', binary: 'application/xml' },
      ...exportErrors,
    },
    handler: async ({ params, reply }) => sendDeposit(reply, await deposits.crossrefIssue(params.id)),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/export/crossref/article/:id',
    tag: 'Editorial',
    summary: 'Crossref deposit XML (schema 5.3.1) for one published article',
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      200: { description: 'The deposit XML, as an attachment', binary: 'application/xml' },
      ...exportErrors,
    },
    handler: async ({ params, reply }) => sendDeposit(reply, await deposits.crossrefArticle(params.id)),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/export/doaj/issue/:id',
    tag: 'Editorial',
    summary: "DOAJ article XML for an issue's published articles",
    description:
      'One `record` per published article with a PDF; `fullTextUrl` is the PDF download. Articles without a PDF are left out (the `X-Skipped-Articles` header lists them). Upload it in the DOAJ publisher area.',
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      200: { description: 'The DOAJ XML, as an attachment', binary: 'application/xml' },
      ...exportErrors,
    },
    handler: async ({ params, reply }) => sendDeposit(reply, await deposits.doajIssue(params.id)),
  });
}
