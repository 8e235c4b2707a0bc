import { createHash } from 'node:crypto';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  CROSSREF_ENDPOINTS,
  DEFAULT_DOI_PATTERN,
  DOAJ_ENDPOINT,
  type DoiRow,
  type DoiSettingsInput,
  type DoiSettingsView,
  type DoiStateName,
  doiFromPattern,
} from '../../common/doi.ts';
import type { JournalSettings } from '../../common/journal.ts';
import type { SessionUser } from '../accounts/service.ts';
import type { AuditService } from '../audit/service.ts';
import { articles, issues, volumes } from '../catalog/tables.ts';
import { HOUR, MINUTE, type Clock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { crossrefDeposit, crossrefTimestamp } from '../discovery/crossref.ts';
import { doajArticle } from '../discovery/doaj.ts';
import type { Work, WorkReader } from '../discovery/works.ts';
import { conflict, notFound } from '../errors.ts';
import type { JobContext, JobQueue } from '../jobs/queue.ts';
import {
  CrossrefClient,
  type CrossrefCredentials,
  type CrossrefOutcome,
  TransientCrossrefError,
} from './crossref-client.ts';
import { DoajClient, TransientDoajError } from './doaj-client.ts';
import { doiDeposits, doiSettings } from './tables.ts';

/**
 * DOIs that register themselves (decision 0064): a journal's pattern assigns an article's DOI when it is placed
 * into an issue without one; publication and every later change of the article's metadata (the catalog's
 * `article.changed`, followed as `doi.changed`) queue a Crossref deposit (`doi.deposit`), whose result is
 * fetched by later jobs (`doi.result`) until Crossref says it is final; DOAJ likewise (`doi.doaj`). Time is
 * the queue's: retries and polls are jobs due later, on `services.clock`.
 */

export const DOI_CHANGED_JOB = 'doi.changed';
export const DOI_ISSUE_CHANGED_JOB = 'doi.issue-changed';
export const DOI_DEPOSIT_JOB = 'doi.deposit';
export const DOI_RESULT_JOB = 'doi.result';
export const DOAJ_UPLOAD_JOB = 'doi.doaj';

export const MESSAGES = {
  noCredentials: 'No Crossref username and password are set for this journal: set them on the DOI page.',
  noIssn: "Set the journal's ISSN before depositing DOIs (Crossref needs it to know the journal).",
  noIssnDoaj: "Set the journal's ISSN before sending articles to DOAJ.",
  noPdf: 'This article has no PDF: DOAJ needs the full text.',
  doiFixed: (doi: string) =>
    `The DOI ${doi} is deposited with Crossref and can no longer be changed: a registered DOI is permanent.`,
} as const;

/** Retries of a deposit or a result that failed on the way (5xx, timeout, cut connection). */
const RETRY_BACKOFF = (attempt: number) =>
  [1 * MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR, 3 * HOUR][attempt - 1] ?? 6 * HOUR;
const MAX_ATTEMPTS = 6;
/** When to ask Crossref again for a batch it has not finished: the nth poll's wait. */
export const POLL_DELAY = (poll: number) => [MINUTE, 5 * MINUTE, 15 * MINUTE, HOUR][poll - 1] ?? 6 * HOUR;
/** Past this many polls (about two days) the deposit is failed and the editor asked to look at Crossref. */
const MAX_POLLS = 12;

type SettingsRow = typeof doiSettings.$inferSelect;
type DepositRow = typeof doiDeposits.$inferSelect;

const DEFAULTS: Omit<SettingsRow, 'journalId' | 'updatedAt'> = {
  // A journal that has not chosen yet gets the pattern its demo DOIs follow; an empty one (saved) makes none.
  pattern: DEFAULT_DOI_PATTERN,
  crossrefUsername: '',
  crossrefPassword: '',
  crossrefMode: 'test',
  crossrefEndpoint: '',
  autoDeposit: true,
  doajEnabled: false,
  doajApiKey: '',
  doajEndpoint: '',
};

/** What a deposit says of an article: a change of any of it makes a registered DOI stale. */
export function metadataDigest(w: Work): string {
  const facts = {
    doi: w.doi,
    title: w.title,
    abstract: w.abstract,
    authors: w.authors,
    pages: [w.firstPage, w.lastPage],
    place: [w.volume.number, w.volume.year, w.issue.number, w.issue.publicationDate],
    date: w.publicationDate,
    url: w.url,
    pdf: w.pdfUrl,
    keywords: w.keywords,
  };
  return createHash('sha256').update(JSON.stringify(facts)).digest('hex').slice(0, 32);
}

interface DepositPayload {
  articleId: number;
}
interface ResultPayload {
  articleId: number;
  batchId: string;
  poll: number;
}

export class DoiService {
  private readonly crossref: CrossrefClient;
  private readonly doaj: DoajClient;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      jobs: JobQueue;
      clock: Clock;
      settings: { journal(): Promise<JournalSettings> };
      works: WorkReader;
      /** Settings changed and deposits asked for by hand are privileged actions: in the audit log (never a secret). */
      audit: Pick<AuditService, 'record'>;
      log: { info(o: unknown, m?: string): void; warn(o: unknown, m?: string): void };
      /** How long a call to Crossref or DOAJ may take (ms). */
      timeoutMs?: number;
      /** Only addresses on 127.0.0.1/localhost are called (tests: never the internet). */
      loopbackOnly?: boolean;
    },
  ) {
    this.crossref = new CrossrefClient({ timeoutMs: deps.timeoutMs });
    this.doaj = new DoajClient({ timeoutMs: deps.timeoutMs });
    const retry = { backoff: RETRY_BACKOFF, maxAttempts: MAX_ATTEMPTS };
    deps.jobs.define<DepositPayload>(DOI_CHANGED_JOB, (p, ctx) => this.onArticleChanged(p.articleId, ctx));
    deps.jobs.define<{ issueId: number }>(DOI_ISSUE_CHANGED_JOB, (p, ctx) =>
      this.onIssueChanged(p.issueId, ctx),
    );
    deps.jobs.define<DepositPayload>(DOI_DEPOSIT_JOB, (p, ctx) => this.runDeposit(p.articleId, ctx), retry);
    deps.jobs.define<ResultPayload>(DOI_RESULT_JOB, (p, ctx) => this.runResult(p, ctx), retry);
    deps.jobs.define<DepositPayload>(DOAJ_UPLOAD_JOB, (p, ctx) => this.runDoaj(p.articleId, ctx), retry);
  }

  // ---- Settings ------------------------------------------------------------------------------------

  private async settingsRow(): Promise<SettingsRow> {
    const [row] = await this.db.select().from(doiSettings);
    return row ?? { ...DEFAULTS, journalId: 0, updatedAt: new Date(0) };
  }

  private depositUrl(s: SettingsRow): string {
    return s.crossrefEndpoint || CROSSREF_ENDPOINTS[s.crossrefMode];
  }

  /** The settings as editors see them: whether a password and a key are set, never what they are. */
  async settingsView(): Promise<DoiSettingsView> {
    const [s, journal] = [await this.settingsRow(), await this.deps.settings.journal()];
    return {
      prefix: journal.doiPrefix,
      pattern: s.pattern,
      crossrefUsername: s.crossrefUsername,
      hasPassword: s.crossrefPassword !== '',
      crossrefMode: s.crossrefMode,
      crossrefEndpoint: s.crossrefEndpoint,
      depositUrl: this.depositUrl(s),
      autoDeposit: s.autoDeposit,
      doajEnabled: s.doajEnabled,
      hasDoajKey: s.doajApiKey !== '',
      doajEndpoint: s.doajEndpoint,
      hasIssn: journal.issnOnline !== '',
    };
  }

  async saveSettings(actor: SessionUser, input: DoiSettingsInput): Promise<DoiSettingsView> {
    const before = await this.settingsRow();
    const password = input.clear_password ? '' : input.crossref_password || before.crossrefPassword;
    const key = input.clear_doaj_key ? '' : input.doaj_api_key || before.doajApiKey;
    const values = {
      pattern: input.pattern,
      crossrefUsername: input.crossref_username,
      crossrefPassword: password,
      crossrefMode: input.crossref_mode,
      crossrefEndpoint: input.crossref_endpoint ?? before.crossrefEndpoint,
      autoDeposit: input.auto_deposit,
      doajEnabled: input.doaj_enabled,
      doajApiKey: key,
      doajEndpoint: input.doaj_endpoint ?? before.doajEndpoint,
      updatedAt: new Date(this.deps.clock.now()),
    };
    await this.db.transaction(async (tx) => {
      await tx
        .insert(doiSettings)
        .values(values)
        .onConflictDoUpdate({ target: doiSettings.journalId, set: values });
      await this.deps.audit.record(
        tx,
        actor,
        'doi.settings',
        { type: 'journal' },
        {
          pattern: values.pattern,
          crossrefUsername: values.crossrefUsername,
          crossrefMode: values.crossrefMode,
          crossrefEndpoint: values.crossrefEndpoint,
          autoDeposit: values.autoDeposit,
          doajEnabled: values.doajEnabled,
          doajEndpoint: values.doajEndpoint,
          // Whether the secrets changed, never what they are.
          passwordChanged: password !== before.crossrefPassword,
          doajKeyChanged: key !== before.doajApiKey,
        },
      );
    });
    return this.settingsView();
  }

  // ---- The catalog's hooks -------------------------------------------------------------------------

  /**
   * Read before the catalog's transaction (PGlite has one connection): what assigns a DOI, inside it, to an
   * article placed into an issue without one. Null from it when the journal has no pattern.
   */
  async assigner(): Promise<(tx: Tx, articleId: number) => Promise<string | null>> {
    const [s, journal] = [await this.settingsRow(), await this.deps.settings.journal()];
    return async (tx, articleId) => {
      const [a] = await tx
        .select({ doi: articles.doi, issueId: articles.issueId })
        .from(articles)
        .where(eq(articles.id, articleId));
      if (!a) return null;
      if (a.doi) return a.doi;
      if (!s.pattern) return null;
      const [place] = await tx
        .select({ issue: issues.issueNumber, volume: volumes.volumeNumber, year: volumes.year })
        .from(issues)
        .innerJoin(volumes, eq(volumes.id, issues.volumeId))
        .where(eq(issues.id, a.issueId));
      const [{ before }] = await tx
        .select({ before: sql<number>`count(*)::int` })
        .from(articles)
        .where(and(eq(articles.issueId, a.issueId), sql`${articles.id} <= ${articleId}`));
      // Its number in the issue; a DOI already taken (an article since moved, one typed by hand) the next.
      for (let n = before; n < before + 1000; n++) {
        const doi = doiFromPattern(s.pattern, {
          prefix: journal.doiPrefix,
          // A journal without an abbreviation yet (decision 0062): its part is left out, not left empty.
          journal: journal.abbreviation,
          year: place.year,
          volume: place.volume,
          issue: place.issue,
          number: n,
          id: articleId,
        });
        if (!doi) return null;
        const [taken] = await tx
          .select({ id: articles.id })
          .from(articles)
          .where(sql`lower(${articles.doi}) = lower(${doi})`);
        if (taken) continue;
        await tx.update(articles).set({ doi }).where(eq(articles.id, articleId));
        return doi;
      }
      throw conflict('The DOI pattern gives no free DOI for this article: type its DOI by hand.');
    };
  }

  /** Refuses to change a DOI once it is deposited (read before the edit's transaction). */
  async assertDoiEditable(articleId: number, doi: string | null): Promise<void> {
    const [row] = await this.db
      .select({ deposited: doiDeposits.depositedDoi })
      .from(doiDeposits)
      .where(eq(doiDeposits.articleId, articleId));
    if (row?.deposited && (doi ?? '').toLowerCase() !== row.deposited.toLowerCase())
      throw conflict(MESSAGES.doiFixed(row.deposited), { doi: MESSAGES.doiFixed(row.deposited) });
  }

  // ---- Reading -------------------------------------------------------------------------------------

  /** Every article with its DOI's state, newest issue first; only those in `state` when asked. */
  async list(state?: DoiStateName): Promise<DoiRow[]> {
    return this.rows(state);
  }

  private async rows(state?: DoiStateName, articleId?: number): Promise<DoiRow[]> {
    const stateOf = sql<DoiStateName>`coalesce(${doiDeposits.state}, 'not_deposited')`;
    const rows = await this.db
      .select({
        articleId: articles.id,
        title: articles.title,
        doi: articles.doi,
        status: articles.status,
        volume: volumes.volumeNumber,
        issue: issues.issueNumber,
        state: stateOf,
        message: doiDeposits.message,
        batchId: doiDeposits.batchId,
        registeredAt: doiDeposits.registeredAt,
        doajState: sql<DoiStateName>`coalesce(${doiDeposits.doajState}, 'not_deposited')`,
        doajMessage: doiDeposits.doajMessage,
      })
      .from(articles)
      .innerJoin(issues, eq(issues.id, articles.issueId))
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .leftJoin(doiDeposits, eq(doiDeposits.articleId, articles.id))
      .where(
        and(
          state ? sql`${stateOf} = ${state}` : undefined,
          articleId === undefined ? undefined : eq(articles.id, articleId),
        ),
      )
      .orderBy(
        desc(volumes.volumeNumber),
        desc(issues.issueNumber),
        asc(articles.firstPage),
        asc(articles.id),
      )
      .limit(2000);
    return rows.map(({ status, registeredAt, ...r }) => ({
      ...r,
      published: status === 'published',
      registeredAt: registeredAt ? new Date(registeredAt).toISOString() : null,
    }));
  }

  /** One article's row (404 when there is no such article). */
  async ofArticle(articleId: number): Promise<DoiRow> {
    const [row] = await this.rows(undefined, articleId);
    if (!row) throw notFound('No such article.');
    return row;
  }

  // ---- Depositing ----------------------------------------------------------------------------------

  private async depositRow(db: Db | Tx, articleId: number): Promise<DepositRow | undefined> {
    const [row] = await db.select().from(doiDeposits).where(eq(doiDeposits.articleId, articleId));
    return row;
  }

  /** Writes an article's registration facts (its row made on first write). */
  private async write(
    db: Db | Tx,
    articleId: number,
    set: Partial<Omit<DepositRow, 'articleId' | 'journalId'>>,
  ) {
    const values = { ...set, updatedAt: new Date(this.deps.clock.now()) };
    await db
      .insert(doiDeposits)
      .values({ articleId, ...values })
      .onConflictDoUpdate({ target: doiDeposits.articleId, set: values });
  }

  /**
   * The editor's deposit (or redeposit) of the articles chosen on the DOI page: each published article with a
   * DOI is queued; the others are said, with why. Refused outright when nothing could be deposited.
   */
  async depositMany(
    actor: SessionUser,
    articleIds: number[],
  ): Promise<{ queued: number[]; skipped: { articleId: number; reason: string }[] }> {
    const [s, journal] = [await this.settingsRow(), await this.deps.settings.journal()];
    if (!journal.issnOnline) throw conflict(MESSAGES.noIssn);
    if (!s.crossrefUsername || !s.crossrefPassword) throw conflict(MESSAGES.noCredentials);
    const found = await this.db
      .select({ id: articles.id, doi: articles.doi, status: articles.status })
      .from(articles)
      .where(inArray(articles.id, articleIds));
    const byId = new Map(found.map((a) => [a.id, a]));
    const queued: number[] = [];
    const skipped: { articleId: number; reason: string }[] = [];
    for (const id of articleIds) {
      const a = byId.get(id);
      if (!a) skipped.push({ articleId: id, reason: 'No such article.' });
      else if (a.status !== 'published')
        skipped.push({ articleId: id, reason: 'This article is not published: it cannot be deposited.' });
      else if (!a.doi) skipped.push({ articleId: id, reason: 'This article has no DOI: give it one first.' });
      else queued.push(id);
    }
    if (!queued.length)
      throw conflict(
        `None of these articles can be deposited: ${skipped.map((x) => `${x.articleId}: ${x.reason}`).join(' ')}`,
      );
    await this.db.transaction(async (tx) => {
      await this.deps.audit.record(tx, actor, 'doi.deposit', { type: 'article' }, { articleIds: queued });
      for (const id of queued) {
        await this.write(tx, id, { state: 'queued', message: null });
        await this.deps.jobs.enqueue(tx, DOI_DEPOSIT_JOB, { articleId: id });
        if (s.doajEnabled && s.doajApiKey) {
          await this.write(tx, id, { doajState: 'queued', doajMessage: null });
          await this.deps.jobs.enqueue(tx, DOAJ_UPLOAD_JOB, { articleId: id });
        }
      }
    });
    return { queued, skipped };
  }

  /** `issue.changed`'s follower: each published article of the issue with a DOI is looked at as if it changed. */
  private async onIssueChanged(issueId: number, ctx: JobContext): Promise<void> {
    const rows = await this.db
      .select({ id: articles.id })
      .from(articles)
      .where(
        and(
          eq(articles.issueId, issueId),
          eq(articles.status, 'published'),
          sql`${articles.doi} is not null`,
        ),
      );
    await ctx.complete(async (tx) => {
      for (const { id } of rows) await this.deps.jobs.enqueue(tx, DOI_CHANGED_JOB, { articleId: id });
    });
  }

  /** `article.changed`'s follower: a published article with a DOI is (re)deposited when what it says changed. */
  private async onArticleChanged(articleId: number, ctx: JobContext): Promise<void> {
    const work = await this.deps.works.work(articleId);
    if (work?.status !== 'published' || !work.doi) return;
    const s = await this.settingsRow();
    const row = await this.depositRow(this.db, articleId);
    const digest = metadataDigest(work);
    await ctx.complete(async (tx) => {
      const state = row?.state ?? 'not_deposited';
      const sentBefore = state === 'registered' || state === 'submitted' || state === 'stale';
      if (sentBefore && row?.sentDigest === digest) {
        // Nothing Crossref holds changed (a PDF replaced, a republish).
      } else if (sentBefore) {
        await this.write(tx, articleId, {
          state: 'stale',
          message: s.autoDeposit
            ? 'Changed since it was registered: queued for redeposit.'
            : 'Changed since it was registered: deposit it again.',
        });
        if (s.autoDeposit) await this.deps.jobs.enqueue(tx, DOI_DEPOSIT_JOB, { articleId });
      } else if (state !== 'queued' && s.autoDeposit) {
        await this.write(tx, articleId, { state: 'queued', message: null });
        await this.deps.jobs.enqueue(tx, DOI_DEPOSIT_JOB, { articleId });
      }
      if (s.doajEnabled && s.doajApiKey && row?.doajDigest !== digest && row?.doajState !== 'queued') {
        await this.write(tx, articleId, {
          doajState: row?.doajState === 'registered' ? 'stale' : 'queued',
          doajMessage: null,
        });
        await this.deps.jobs.enqueue(tx, DOAJ_UPLOAD_JOB, { articleId });
      }
    });
  }

  /** Why this journal cannot deposit now (no network call is made then), or null. */
  private depositBlocker(s: SettingsRow, journal: JournalSettings): string | null {
    if (!s.crossrefUsername || !s.crossrefPassword) return MESSAGES.noCredentials;
    if (!journal.issnOnline) return MESSAGES.noIssn;
    return this.offLimits(this.depositUrl(s));
  }

  /** With `loopbackOnly` (the tests), any address but this machine's is refused before a call. */
  private offLimits(url: string): string | null {
    if (!this.deps.loopbackOnly) return null;
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]'
      ? null
      : `Deposits to ${host} are switched off on this server (DEPOSIT_LOOPBACK_ONLY).`;
  }

  private credentials(s: SettingsRow): CrossrefCredentials {
    return { username: s.crossrefUsername, password: s.crossrefPassword };
  }

  /** One deposit: the article's doi_batch sent to Crossref, its answer read. */
  private async runDeposit(articleId: number, ctx: JobContext): Promise<void> {
    const s = await this.settingsRow();
    const journal = await this.deps.settings.journal();
    const work = await this.deps.works.work(articleId);
    const row = await this.depositRow(this.db, articleId);
    if (work?.status !== 'published' || !work.doi) {
      await ctx.complete((tx) =>
        this.write(tx, articleId, {
          state: row?.depositedDoi ? row.state : 'not_deposited',
          message: 'Not published, or without a DOI: not deposited.',
        }),
      );
      return;
    }
    const blocker = this.depositBlocker(s, journal);
    if (blocker) {
      await ctx.complete((tx) => this.write(tx, articleId, { state: 'failed', message: blocker }));
      return;
    }
    const now = this.deps.clock.now();
    // yyyyMMddHHmmssSSS, as the exports write it, and always past the last deposit's (17 digits: a BigInt).
    const fromClock = BigInt(crossrefTimestamp(new Date(now)));
    const afterLast = (row?.batchTimestamp ?? 0n) + 1n;
    const timestamp = fromClock > afterLast ? fromClock : afterLast;
    const batchId = `${journal.abbreviation.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-a${articleId}-${timestamp}`;
    const xml = crossrefDeposit(journal, { volume: work.volume, issue: work.issue }, [work], {
      batchId,
      now: new Date(now),
      timestamp: String(timestamp),
    });
    const digest = metadataDigest(work);
    let outcome: CrossrefOutcome;
    try {
      outcome = await this.crossref.deposit(this.depositUrl(s), this.credentials(s), xml, `${batchId}.xml`);
    } catch (err) {
      return this.transient(err, articleId, ctx);
    }
    await ctx.complete(async (tx) => {
      await this.write(tx, articleId, {
        batchId: outcome.kind === 'refused' ? batchId : (outcome.batchId ?? batchId),
        batchTimestamp: timestamp,
        submissionId: outcome.kind === 'refused' ? null : outcome.submissionId,
        depositedAt: new Date(now),
      });
      await this.settle(tx, articleId, outcome, {
        digest,
        doi: work.doi!,
        batchId: outcome.kind !== 'refused' && outcome.batchId ? outcome.batchId : batchId,
        poll: 0,
      });
    });
  }

  /** A batch's result, asked for until Crossref has finished with it. */
  private async runResult(p: ResultPayload, ctx: JobContext): Promise<void> {
    const row = await this.depositRow(this.db, p.articleId);
    // A newer deposit of the article took over: its own result is followed.
    if (!row || row.batchId !== p.batchId || row.state !== 'submitted') return;
    const s = await this.settingsRow();
    const journal = await this.deps.settings.journal();
    const blocker = this.depositBlocker(s, journal);
    if (blocker) {
      await ctx.complete((tx) => this.write(tx, p.articleId, { state: 'failed', message: blocker }));
      return;
    }
    let outcome: CrossrefOutcome;
    try {
      outcome = await this.crossref.result(this.depositUrl(s), this.credentials(s), p.batchId);
    } catch (err) {
      return this.transient(err, p.articleId, ctx);
    }
    await ctx.complete((tx) =>
      this.settle(tx, p.articleId, outcome, {
        digest: row.sentDigest ?? '',
        doi: row.depositedDoi ?? '',
        batchId: p.batchId,
        poll: p.poll,
      }),
    );
  }

  /** Writes what Crossref's answer means for the article; a pending batch is asked about again later. */
  private async settle(
    tx: Tx,
    articleId: number,
    outcome: CrossrefOutcome,
    sent: { digest: string; doi: string; batchId: string; poll: number },
  ): Promise<void> {
    const now = this.deps.clock.now();
    if (outcome.kind === 'refused') {
      await this.write(tx, articleId, { state: 'failed', message: outcome.message });
    } else if (outcome.kind === 'completed' && !outcome.success) {
      await this.write(tx, articleId, { state: 'failed', message: outcome.message });
    } else if (outcome.kind === 'completed') {
      await this.write(tx, articleId, {
        state: 'registered',
        message: outcome.message,
        sentDigest: sent.digest,
        depositedDoi: sent.doi,
        registeredAt: new Date(now),
      });
    } else if (sent.poll >= MAX_POLLS) {
      await this.write(tx, articleId, {
        state: 'failed',
        message: `Crossref had not finished with batch ${sent.batchId} after ${MAX_POLLS} checks: look it up at Crossref, or deposit again.`,
      });
    } else {
      await this.write(tx, articleId, {
        state: 'submitted',
        message: outcome.message ?? 'Crossref is processing the deposit.',
        sentDigest: sent.digest,
        depositedDoi: sent.doi,
      });
      const poll = sent.poll + 1;
      await this.deps.jobs.enqueue(
        tx,
        DOI_RESULT_JOB,
        { articleId, batchId: sent.batchId, poll } satisfies ResultPayload,
        { runAt: now + POLL_DELAY(poll) },
      );
    }
  }

  /**
   * A failure on the way (5xx, timeout, cut connection): said on the article and retried by the queue with its
   * backoff; after the last attempt, the article's deposit is failed with the reason.
   */
  private async transient(err: unknown, articleId: number, ctx: JobContext, doaj = false): Promise<void> {
    if (!(err instanceof TransientCrossrefError) && !(err instanceof TransientDoajError)) throw err;
    const last = ctx.job.attempt >= ctx.job.maxAttempts;
    const message = last
      ? `${err.message.replace(/; trying again later$/, '')}; gave up after ${ctx.job.attempt} attempts.`
      : `${err.message.replace(/; trying again later$/, '')}; trying again later.`;
    this.deps.log.warn(
      { articleId, job: ctx.job.name, attempt: ctx.job.attempt },
      `DOI registration: ${message}`,
    );
    if (last) {
      await ctx.complete((tx) =>
        this.write(
          tx,
          articleId,
          doaj ? { doajState: 'failed', doajMessage: message } : { state: 'failed', message },
        ),
      );
      return;
    }
    await this.write(this.db, articleId, doaj ? { doajMessage: message } : { message });
    // A plain Error: the queue keeps only this message (never the request, never the password) and retries.
    throw new Error(message);
  }

  /** One article sent to DOAJ (made, or updated by its DOAJ id). */
  private async runDoaj(articleId: number, ctx: JobContext): Promise<void> {
    const s = await this.settingsRow();
    if (!s.doajEnabled || !s.doajApiKey) return;
    const journal = await this.deps.settings.journal();
    const work = await this.deps.works.work(articleId);
    const row = await this.depositRow(this.db, articleId);
    if (work?.status !== 'published') return;
    const refuse = !journal.issnOnline
      ? MESSAGES.noIssnDoaj
      : !work.pdfUrl
        ? MESSAGES.noPdf
        : this.offLimits(s.doajEndpoint || DOAJ_ENDPOINT);
    if (refuse) {
      await ctx.complete((tx) => this.write(tx, articleId, { doajState: 'failed', doajMessage: refuse }));
      return;
    }
    let outcome: Awaited<ReturnType<DoajClient['upload']>>;
    try {
      outcome = await this.doaj.upload(
        s.doajEndpoint || DOAJ_ENDPOINT,
        s.doajApiKey,
        doajArticle(journal, work),
        row?.doajId ?? null,
      );
    } catch (err) {
      return this.transient(err, articleId, ctx, true);
    }
    await ctx.complete((tx) =>
      this.write(
        tx,
        articleId,
        outcome.kind === 'done'
          ? {
              doajState: 'registered',
              doajMessage: null,
              doajId: outcome.id,
              doajDigest: metadataDigest(work),
            }
          : { doajState: 'failed', doajMessage: outcome.message },
      ),
    );
  }
}
