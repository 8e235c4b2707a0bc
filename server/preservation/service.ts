import { BlockList, isIPv4 } from 'node:net';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  PERMISSION_STATEMENTS,
  PRESERVATION_DEFAULTS,
  type PreservationOverview,
  type PreservationSettings,
  type PreservationSystem,
  manifestPath,
  preservationSettingsSchema,
} from '../../common/preservation.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { contentTag } from '../cache/dependencies.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import { articleAuthors, articles, issues, volumes } from '../catalog/tables.ts';
import type { Clock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { currentJournalId } from '../db/scope.ts';
import { invalid, notFound, parseInput, unprocessable } from '../errors.ts';
import type { FileService, StoredFile } from '../files/service.ts';
import { storedFiles } from '../files/tables.ts';
import type { FullTextService } from '../fulltext/service.ts';
import type { JobContext, JobQueue } from '../jobs/queue.ts';
import type { SettingsService } from '../settings/service.ts';
import { type Bag, makeBag, zipBag } from './bagit.ts';
import { preservationBags } from './tables.ts';

/** The settings row of a journal's preservation choices (decision 0065). */
export const PRESERVATION_KEY = 'preservation';
/** Makes one issue's bag (payload `{ issueId }`). */
export const BAG_JOB = 'preservation.bag';
/** Follows `article.changed` and `issue.changed`: queues the bags of the issues concerned. */
export const CHANGED_JOB = 'preservation.changed';
/**
 * Changes to an issue within this window make one bag, at its end: the job's key names the window, so a second
 * change in it finds the job already queued (decision 0065).
 */
export const BAG_DEBOUNCE_MS = 60_000;

export interface BagArticle {
  id: number;
  title: string;
  doi: string | null;
  pages: string | null;
  publicationDate: string | null;
  authors: string[];
  hasPdf: boolean;
}

export interface ManifestIssue {
  id: number;
  volume: number;
  number: number;
  year: number;
  title: string;
  articles: BagArticle[];
}

export type Manifest =
  | { kind: 'years'; system: PreservationSystem; statement: string; years: number[] }
  | { kind: 'year'; system: PreservationSystem; statement: string; year: number; issues: ManifestIssue[] };

interface Deps {
  settings: SettingsService;
  files: FileService;
  fulltext: Pick<FullTextService, 'jats' | 'readerDocument'>;
  audit: AuditService;
  jobs: JobQueue;
  clock: Clock;
  changes?: Pick<ChangeFeed, 'publish'>;
  /** The journal's address (decision 0053). */
  journalUrl: () => string;
}

/** A person's reading of where an issue is: "volume 2, issue 1 (2026)". */
const issueName = (i: { volume: number; number: number; year: number }) =>
  `volume ${i.volume}, issue ${i.number} (${i.year})`;

const slug = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'journal';

/**
 * Preservation (issue 25, decision 0065): the LOCKSS/CLOCKSS manifest pages and the crawlers' addresses (a
 * journal's settings), and each issue's archive package, a BagIt bag made by a job when the issue or one of
 * its articles changes, kept as a ZIP in the blob store for the editors and the `archive` command.
 */
export class PreservationService {
  constructor(
    private readonly db: Db,
    private readonly deps: Deps,
  ) {
    // One bag at a time in a process: each holds an issue's files in memory.
    deps.jobs.define<{ issueId: number }>(
      BAG_JOB,
      async ({ issueId }) => {
        await this.makeBag(issueId);
      },
      { concurrency: 1 },
    );
    deps.jobs.define<{ articleId?: number; issueId?: number }>(CHANGED_JOB, (p, ctx) => this.changed(p, ctx));
  }

  // ---- Settings ------------------------------------------------------------------------------------------

  async settings(): Promise<PreservationSettings> {
    const stored = await this.deps.settings.get<unknown>(PRESERVATION_KEY);
    const parsed = preservationSettingsSchema.safeParse(stored);
    return parsed.success ? parsed.data : PRESERVATION_DEFAULTS;
  }

  /** The admin's edit: all three choices at once; recorded in the audit log. */
  async editSettings(actor: Actor, input: unknown): Promise<PreservationSettings> {
    const next = parseInput(preservationSettingsSchema, input);
    await this.db.transaction(async (tx) => {
      await this.deps.settings.set(tx, PRESERVATION_KEY, next);
      await this.deps.audit.record(
        tx,
        actor,
        'settings.preservation.update',
        { type: 'content', id: PRESERVATION_KEY },
        {
          ...next,
        },
      );
      await this.deps.changes?.publish(tx, [contentTag(PRESERVATION_KEY)]);
    });
    return next;
  }

  /**
   * May a request from `ip` fetch the journal's PDFs without an account? Only while a manifest is on, and
   * only from an address or range the admin listed (the preservation network's boxes: decision 0065).
   */
  async crawlerMayDownload(ip: string | undefined): Promise<boolean> {
    if (!ip) return false;
    const s = await this.settings();
    if ((!s.lockss && !s.clockss) || !s.crawlerAddresses.length) return false;
    return addressAllowed(s.crawlerAddresses, ip);
  }

  // ---- Manifest pages --------------------------------------------------------------------------------------

  /** The manifest of `system` (404 while it is off): the years, or one year's issues and their articles. */
  async manifest(system: PreservationSystem, year: string | undefined): Promise<Manifest> {
    const s = await this.settings();
    if (!s[system]) throw notFound('Not found.');
    const statement = PERMISSION_STATEMENTS[system];
    if (year === undefined) return { kind: 'years', system, statement, years: await this.years() };
    if (!/^\d{4}$/.test(year)) throw invalid('Give the year as four digits, such as 2026.');
    const issuesOfYear = await this.publishedIssues({ year: Number(year) });
    if (!issuesOfYear.length) throw notFound(`No issue was published in ${year}.`);
    return { kind: 'year', system, statement, year: Number(year), issues: issuesOfYear };
  }

  /** The years of the volumes that have a published article, newest first. */
  async years(): Promise<number[]> {
    const rows = await this.db
      .selectDistinct({ year: volumes.year })
      .from(volumes)
      .innerJoin(issues, eq(issues.volumeId, volumes.id))
      .innerJoin(articles, and(eq(articles.issueId, issues.id), eq(articles.status, 'published')))
      .orderBy(desc(volumes.year));
    return rows.map((r) => r.year);
  }

  /** Issues (oldest first) with their published articles in the issue's order; only issues that have one. */
  private async publishedIssues(where: { year?: number; issueId?: number }): Promise<ManifestIssue[]> {
    const rows = await this.db
      .select({ issue: issues, volume: volumes, article: articles })
      .from(issues)
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .innerJoin(articles, and(eq(articles.issueId, issues.id), eq(articles.status, 'published')))
      .where(
        where.issueId !== undefined
          ? eq(issues.id, where.issueId)
          : where.year !== undefined
            ? eq(volumes.year, where.year)
            : undefined,
      )
      .orderBy(asc(volumes.volumeNumber), asc(issues.issueNumber), asc(articles.firstPage), asc(articles.id));
    const ids = rows.map((r) => r.article.id);
    const authors = ids.length
      ? await this.db
          .select({ articleId: articleAuthors.articleId, name: articleAuthors.name })
          .from(articleAuthors)
          .where(inArray(articleAuthors.articleId, ids))
          .orderBy(asc(articleAuthors.articleId), asc(articleAuthors.position))
      : [];
    const byIssue = new Map<number, ManifestIssue>();
    for (const { issue, volume, article } of rows) {
      let entry = byIssue.get(issue.id);
      if (!entry) {
        entry = {
          id: issue.id,
          volume: volume.volumeNumber,
          number: issue.issueNumber,
          year: volume.year,
          title: issue.title,
          articles: [],
        };
        byIssue.set(issue.id, entry);
      }
      const pages =
        article.firstPage === null
          ? null
          : article.lastPage === null || article.lastPage === article.firstPage
            ? String(article.firstPage)
            : `${article.firstPage}-${article.lastPage}`;
      entry.articles.push({
        id: article.id,
        title: article.title,
        doi: article.doi,
        pages,
        publicationDate: article.publicationDate,
        authors: authors.filter((a) => a.articleId === article.id).map((a) => a.name),
        hasPdf: article.pdfFileId !== null,
      });
    }
    return [...byIssue.values()];
  }

  // ---- Bags ----------------------------------------------------------------------------------------------

  /**
   * In the transaction of a change: the issue's bag is made after the debounce window this moment falls in
   * (one job per issue and window, whatever the number of changes in it).
   */
  async queueBag(tx: Tx, issueId: number): Promise<void> {
    const now = this.deps.clock.now();
    const window = Math.floor(now / BAG_DEBOUNCE_MS);
    await this.deps.jobs.enqueue(
      tx,
      BAG_JOB,
      { issueId },
      {
        key: `${BAG_JOB}:j${currentJournalId() ?? 0}:i${issueId}:w${window}`,
        runAt: (window + 1) * BAG_DEBOUNCE_MS,
      },
    );
  }

  /** An article or an issue changed: the bags of its issue, and of any issue whose bag holds the article. */
  private async changed(p: { articleId?: number; issueId?: number }, ctx: JobContext): Promise<void> {
    const concerned = new Set<number>();
    if (p.issueId !== undefined) concerned.add(p.issueId);
    if (p.articleId !== undefined) {
      const [article] = await this.db
        .select({ issueId: articles.issueId, status: articles.status })
        .from(articles)
        .where(eq(articles.id, p.articleId));
      if (article?.status === 'published') concerned.add(article.issueId);
      const holding = await this.db
        .select({ issueId: preservationBags.issueId })
        .from(preservationBags)
        .where(sql`${preservationBags.articleIds} @> ${JSON.stringify([p.articleId])}::jsonb`);
      for (const h of holding) concerned.add(h.issueId);
    }
    await ctx.complete(async (tx) => {
      for (const issueId of concerned) await this.queueBag(tx, issueId);
    });
  }

  /** The issue's bag, as files by path, with what the row keeps; null when it has no published article. */
  async buildBag(issueId: number): Promise<{ bag: Bag; root: string; issue: ManifestIssue } | null> {
    const [issue] = await this.publishedIssues({ issueId });
    if (!issue) return null;
    const journal = await this.deps.settings.journal();
    const base = this.deps.journalUrl();
    const payload: { path: string; data: Buffer }[] = [];
    const listed = [];
    for (const [i, a] of issue.articles.entries()) {
      const folder = `articles/${String(i + 1).padStart(2, '0')}-article-${a.id}`;
      const files: { jats: string; pdf: string | null; figures: string[] } = {
        jats: `${folder}/article.xml`,
        pdf: null,
        figures: [],
      };
      payload.push({ path: files.jats, data: Buffer.from(await this.deps.fulltext.jats(a.id), 'utf8') });
      const [row] = await this.db
        .select({ fileId: articles.pdfFileId })
        .from(articles)
        .where(eq(articles.id, a.id));
      if (row?.fileId) {
        files.pdf = `${folder}/article.pdf`;
        payload.push({
          path: files.pdf,
          data: await this.deps.files.bytes(await this.deps.files.get(row.fileId)),
        });
      }
      const doc = await this.deps.fulltext.readerDocument(a.id);
      for (const figure of doc?.figures ?? []) {
        if (!figure.fileId) continue;
        const name = `${folder}/figures/${figure.name}`;
        files.figures.push(name);
        payload.push({
          path: name,
          data: await this.deps.files.bytes(await this.deps.files.get(figure.fileId)),
        });
      }
      listed.push({
        position: i + 1,
        id: a.id,
        title: a.title,
        authors: a.authors,
        doi: a.doi,
        pages: a.pages,
        publication_date: a.publicationDate,
        url: `${base}/article/${a.id}`,
        files: { ...files, figures: files.figures },
      });
    }
    const issueUrl = `${base}/volumes?volume=${issue.volume}&issue=${issue.number}`;
    const metadata = {
      journal: {
        title: journal.name,
        abbreviation: journal.abbreviation,
        issn_online: journal.issnOnline || null,
        publisher: journal.publisher,
        url: base,
        license: journal.license,
      },
      issue: {
        id: issue.id,
        volume: issue.volume,
        number: issue.number,
        year: issue.year,
        title: issue.title,
        url: issueUrl,
      },
      articles: listed,
    };
    payload.unshift({
      path: 'issue.json',
      data: Buffer.from(`${JSON.stringify(metadata, null, 2)}\n`, 'utf8'),
    });
    const now = new Date(this.deps.clock.now());
    const bag = makeBag(
      payload,
      [
        ['Source-Organization', journal.publisher],
        ['Organization-Address', journal.publisherAddress],
        ['Contact-Email', journal.email],
        [
          'External-Description',
          `${journal.name}, ${issueName(issue)}: ${issue.title}. ${issue.articles.length} article(s), each with its JATS XML, PDF and figures; issue.json lists them in order.`,
        ],
        ['External-Identifier', issueUrl],
        ['Bag-Group-Identifier', base],
      ],
      now,
    );
    const root = `${slug(journal.abbreviation)}-v${issue.volume}-i${issue.number}`;
    return { bag, root, issue };
  }

  /**
   * Makes the issue's bag and keeps its ZIP in place of the one before; an issue with no published article
   * has none (a bag it had goes). Returns the bag and the ZIP, or null.
   */
  async makeBag(issueId: number): Promise<{ bag: Bag; root: string; zip: Buffer } | null> {
    const built = await this.buildBag(issueId);
    const [before] = await this.db
      .select()
      .from(preservationBags)
      .where(eq(preservationBags.issueId, issueId));
    if (!built) {
      if (before)
        await this.db.transaction(async (tx) => {
          await tx.delete(preservationBags).where(eq(preservationBags.issueId, issueId));
          await tx.delete(storedFiles).where(eq(storedFiles.id, before.fileId));
        });
      return null;
    }
    const { bag, root, issue } = built;
    const madeAt = new Date(this.deps.clock.now());
    const data = zipBag(bag, root, madeAt);
    const info = bag.get('bag-info.txt')!.toString('utf8');
    const payloadOxum = /^Payload-Oxum: (.+)$/m.exec(info)![1];
    const values = {
      madeAt,
      files: [...bag.keys()].filter((k) => k.startsWith('data/')).length,
      payloadOxum,
      articleIds: issue.articles.map((a) => a.id),
    };
    await this.deps.files.withStoredFiles(
      [{ field: 'bag', filename: `${root}.zip`, data, kind: 'zip', mediaType: 'application/zip' }],
      async (tx, [file]) => {
        // The row as it is now (another bag of the issue may have been made since `before` was read).
        const [current] = await tx
          .select({ fileId: preservationBags.fileId })
          .from(preservationBags)
          .where(eq(preservationBags.issueId, issueId))
          .for('update');
        await tx
          .insert(preservationBags)
          .values({ issueId, fileId: file.id, ...values })
          .onConflictDoUpdate({ target: preservationBags.issueId, set: { fileId: file.id, ...values } });
        // The bag before goes (its blob too, at the next start-up's sweep, unless the new one is the same).
        if (current && current.fileId !== file.id)
          await tx.delete(storedFiles).where(eq(storedFiles.id, current.fileId));
      },
    );
    return { bag, root, zip: data };
  }

  /** The editor's "Make again": the issue's bag is made by a job, now. */
  async remake(actor: Actor, issueId: number): Promise<void> {
    const [issue] = await this.db.select({ id: issues.id }).from(issues).where(eq(issues.id, issueId));
    if (!issue) throw notFound('No such issue.');
    const [published] = await this.publishedIssues({ issueId });
    if (!published)
      throw unprocessable('This issue has no published article yet: there is nothing to archive.');
    const now = this.deps.clock.now();
    await this.db.transaction(async (tx) => {
      await this.deps.jobs.enqueue(
        tx,
        BAG_JOB,
        { issueId },
        { key: `${BAG_JOB}:j${currentJournalId() ?? 0}:i${issueId}:now${now}` },
      );
      await this.deps.audit.record(tx, actor, 'preservation.bag.remake', { type: 'issue', id: issueId });
    });
  }

  /** The stored ZIP of the issue's latest bag, with the name it downloads under. */
  async bagFile(issueId: number): Promise<{ file: StoredFile; name: string }> {
    const [row] = await this.db.select().from(preservationBags).where(eq(preservationBags.issueId, issueId));
    if (!row) throw notFound('This issue has no archive package yet.');
    const file = await this.deps.files.get(row.fileId);
    return { file, name: file.originalName };
  }

  /** The editor's page: the settings, the manifests' addresses, every issue with its latest bag. */
  async overview(): Promise<PreservationOverview> {
    const settings = await this.settings();
    const rows = await this.db
      .select({
        issue: issues,
        volume: volumes,
        bag: preservationBags,
        size: storedFiles.size,
        sha256: storedFiles.sha256,
        published: sql<number>`(select count(*)::int from "articles" a where a."issue_id" = "issues"."id" and a."status" = 'published')`,
      })
      .from(issues)
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .leftJoin(preservationBags, eq(preservationBags.issueId, issues.id))
      .leftJoin(storedFiles, eq(storedFiles.id, preservationBags.fileId))
      .orderBy(desc(volumes.volumeNumber), desc(issues.issueNumber));
    const base = this.deps.journalUrl();
    return {
      settings,
      manifests: { lockss: `${base}${manifestPath('lockss')}`, clockss: `${base}${manifestPath('clockss')}` },
      issues: rows.map((r) => ({
        issue_id: r.issue.id,
        volume_number: r.volume.volumeNumber,
        issue_number: r.issue.issueNumber,
        year: r.volume.year,
        title: r.issue.title,
        published_articles: r.published,
        bag: r.bag
          ? {
              made_at: r.bag.madeAt.toISOString(),
              size: r.size ?? 0,
              files: r.bag.files,
              payload_oxum: r.bag.payloadOxum,
              sha256: r.sha256 ?? '',
              download: `/api/editor/preservation/issues/${r.issue.id}/bag`,
            }
          : null,
      })),
    };
  }

  /** Every issue with a published article, for the `archive journal` command (oldest first). */
  async archivableIssues(): Promise<ManifestIssue[]> {
    return this.publishedIssues({});
  }
}

/** Is `ip` one of `list`'s addresses or in one of its ranges? (IPv4-mapped IPv6 addresses count as IPv4.) */
export function addressAllowed(list: readonly string[], ip: string): boolean {
  const blocks = new BlockList();
  for (const item of list) {
    const [address, bits] = item.split('/');
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    try {
      if (bits === undefined) blocks.addAddress(address, type);
      else blocks.addSubnet(address, Number(bits), type);
    } catch {
      // A malformed entry (the settings are checked when written) allows nothing.
    }
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1] : ip;
  try {
    return blocks.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
  } catch {
    return false;
  }
}
