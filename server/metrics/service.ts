import { createHash } from 'node:crypto';
import { asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { isbot } from 'isbot';
import { articles } from '../catalog/tables.ts';
import { asSite } from '../db/scope.ts';
import { type Clock, systemClock } from '../clock.ts';
import { type Db, rowsOf } from '../db/client.ts';
import { outsideRequests } from '../request-context.ts';
import type { Logger } from '../services.ts';
import { articleUsage, usageClicks } from './tables.ts';

export type UsageKind = 'view' | 'download';

/** Who made a request: the session when signed in, else the address and the browser. */
export interface Visitor {
  sessionId?: string | null;
  ip: string;
  userAgent?: string | null;
}

export interface UsageTotals {
  views: number;
  downloads: number;
}

export interface ArticleMetrics {
  articleId: number;
  totals: UsageTotals;
  /** One row per month with any use, oldest first; `month` is `YYYY-MM` (UTC). */
  months: (UsageTotals & { month: string })[];
}

/** Two requests of the same visitor for the same article and kind closer than this are one (COUNTER). */
export const DOUBLE_CLICK_SECONDS = 30;

/** `YYYY-MM-01` of a moment, in UTC. */
export function monthOf(at: Date): string {
  return `${at.toISOString().slice(0, 7)}-01`;
}

/**
 * A stable, non-reversible key for a visitor: session ids and addresses are not stored as such. Null for
 * robots and for requests with no user agent at all (no reader's browser sends none).
 */
export function visitorKey(visitor: Visitor): string | null {
  const agent = visitor.userAgent?.trim() ?? '';
  if (!agent || isbot(agent)) return null;
  const identity = visitor.sessionId ? `session:${visitor.sessionId}` : `anonymous:${visitor.ip}\n${agent}`;
  return createHash('sha256').update(identity).digest('base64url');
}

/** Clicks are held in memory and written together this long after the first one of a batch. */
export const FLUSH_MS = 5_000;

/** Distinct (visitor, article, kind) held between two writes; more are dropped (and logged) until the next. */
const MAX_HELD = 50_000;

/** One visitor's requests for one article and kind since the last write. */
interface HeldClick {
  visitor: string;
  articleId: number;
  kind: UsageKind;
  /** The first request of this batch: whether it counts depends on the visitor's last request before it. */
  first: Date;
  /** The latest request of this batch (kept as the visitor's last request). */
  last: Date;
  /** Months (`YYYY-MM-01`) of the later requests of this batch that count: 30 s or more after the previous. */
  later: string[];
}

/**
 * Usage counts (issue 6): article page views and PDF downloads per article and month, without robots
 * (`isbot`'s user-agent list) and without double clicks. Counting is best-effort by design: `track` never
 * throws and never makes a request wait. Requests are held in memory and written every few seconds in one
 * statement per batch (decision 0019): a crash loses at most the last `FLUSH_MS`; a failed write is logged.
 */
export class MetricsService {
  private held = new Map<string, HeldClick>();
  private dropped = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly writing = new Set<Promise<void>>();
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: { log: Logger; clock?: Clock; flushMs?: number },
  ) {}

  private now(): Date {
    return (this.opts.clock ?? systemClock).date();
  }

  /**
   * Counts one request, unless it comes from a robot or repeats the same visitor's request for the same
   * article within 30 seconds. Resolves to whether it was counted. Written at once, with the statement a
   * batch uses (`write`): the double-click check and the monthly count change together, and two
   * simultaneous requests cannot both count.
   */
  async record(
    kind: UsageKind,
    articleId: number,
    visitor: Visitor,
    at: Date = this.now(),
  ): Promise<boolean> {
    const key = visitorKey(visitor);
    if (!key) return false;
    const counted = await this.write([{ visitor: key, articleId, kind, first: at, last: at, later: [] }]);
    await this.prune(at);
    return counted > 0;
  }

  /**
   * Counts a page view or a download in the background: held in memory (repeats within the batch folded
   * there), written with the rest of the batch within `FLUSH_MS`. Never throws; a failed write is logged.
   */
  track(kind: UsageKind, articleId: number, visitor: Visitor): void {
    const key = visitorKey(visitor);
    if (!key) return;
    const at = this.now();
    const id = `${kind} ${articleId} ${key}`;
    const seen = this.held.get(id);
    if (seen) {
      // Measured from the previous request, counted or not (COUNTER); the clock may step back a little.
      if (at.getTime() - seen.last.getTime() >= DOUBLE_CLICK_SECONDS * 1000) seen.later.push(monthOf(at));
      if (at > seen.last) seen.last = at;
    } else if (this.held.size >= MAX_HELD) {
      this.dropped++;
    } else {
      this.held.set(id, { visitor: key, articleId, kind, first: at, last: at, later: [] });
    }
    if (!this.timer) {
      // The timer never keeps the process alive: shutdown writes what is held (`settled`).
      // Outside the request at hand: the batch is everyone's.
      this.timer = outsideRequests(() => setTimeout(() => void this.flush(), this.opts.flushMs ?? FLUSH_MS));
      this.timer.unref();
    }
  }

  /** Writes what `track` holds now, in one statement; resolves when written (or the failure logged). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.dropped) {
      this.opts.log.warn({ dropped: this.dropped }, 'Usage counting fell behind: requests left uncounted');
      this.dropped = 0;
    }
    if (!this.held.size) return Promise.resolve();
    const batch = [...this.held.values()];
    this.held = new Map();
    const job = this.write(batch)
      .then(() => this.prune(this.now()))
      .catch((err: unknown) => {
        this.opts.log.warn({ err, requests: batch.length }, 'Usage could not be counted');
      });
    this.writing.add(job);
    void job.finally(() => this.writing.delete(job));
    return job;
  }

  /** Resolves once everything `track` was given so far is written (tests; shutdown, from the app's onClose). */
  async settled(): Promise<void> {
    await this.flush();
    while (this.writing.size) await Promise.allSettled([...this.writing]);
  }

  /**
   * One statement for a batch: each visitor's first request of the batch counts if their last request
   * before it (the `usage_clicks` row, from earlier batches) is 30 seconds older or more, and their later
   * requests in the batch as `track` decided; the visitor's last request is kept, and each month's count
   * grows by what counted. Requests for articles deleted meanwhile are left out. Resolves to the number of
   * (article, month) counts that grew.
   *
   * In the site's scope (decision 0058): a batch holds the requests of every journal, and the check that an
   * article still exists must see each one's (the usage tables have no journal: keyed by article).
   */
  private async write(batch: readonly HeldClick[]): Promise<number> {
    const rows = JSON.stringify(
      batch.map((c) => ({
        visitor: c.visitor,
        article_id: c.articleId,
        kind: c.kind,
        first_at: c.first.toISOString(),
        first_month: monthOf(c.first),
        last_at: c.last.toISOString(),
        later: c.later,
      })),
    );
    const result = await asSite(() =>
      this.db.execute(sql`
      with batch as (
        select b.* from jsonb_to_recordset(${rows}::jsonb) as b(
          visitor text, article_id integer, kind text, first_at timestamptz, first_month date,
          last_at timestamptz, later jsonb)
        where exists (select 1 from ${articles} a where a.id = b.article_id)
      ),
      click as (
        insert into ${usageClicks} (visitor, article_id, kind, at, counted)
        select visitor, article_id, kind, last_at, true from batch
        on conflict (visitor, article_id, kind) do update
          set counted = ${usageClicks}.at <= (
                select b.first_at from batch b
                where b.visitor = excluded.visitor and b.article_id = excluded.article_id and b.kind = excluded.kind
              ) - make_interval(secs => ${DOUBLE_CLICK_SECONDS}),
              at = greatest(${usageClicks}.at, excluded.at)
        returning visitor, article_id, kind, counted
      ),
      used as (
        select b.article_id, b.first_month as month, b.kind
          from batch b join click c using (visitor, article_id, kind) where c.counted
        union all
        select b.article_id, l.month::date, b.kind
          from batch b cross join lateral jsonb_array_elements_text(b.later) as l(month)
      )
      insert into ${articleUsage} (article_id, month, views, downloads)
      select article_id, month, count(*) filter (where kind = 'view'), count(*) filter (where kind = 'download')
        from used group by article_id, month
      on conflict (article_id, month) do update
        set views = ${articleUsage}.views + excluded.views,
            downloads = ${articleUsage}.downloads + excluded.downloads
      returning 1 as counted`),
    );
    return rowsOf(result).length;
  }

  /** Forgets double-click rows that can no longer matter, at most once a minute. */
  private async prune(at: Date) {
    if (at.getTime() - this.lastPrune < 60_000) return;
    this.lastPrune = at.getTime();
    const before = new Date(at.getTime() - 2 * DOUBLE_CLICK_SECONDS * 1000);
    await this.db.delete(usageClicks).where(lt(usageClicks.at, before));
  }

  /** An article's counts per month and in all. */
  async articleMetrics(articleId: number): Promise<ArticleMetrics> {
    const rows = await this.db
      .select()
      .from(articleUsage)
      .where(eq(articleUsage.articleId, articleId))
      .orderBy(asc(articleUsage.month));
    const months = rows.map((r) => ({ month: r.month.slice(0, 7), views: r.views, downloads: r.downloads }));
    const totals = months.reduce(
      (sum, m) => ({ views: sum.views + m.views, downloads: sum.downloads + m.downloads }),
      { views: 0, downloads: 0 },
    );
    return { articleId, totals, months };
  }

  /** Totals for several articles at once (the dashboard's list); articles never used get zeros. */
  async totals(articleIds: readonly number[]): Promise<Map<number, UsageTotals>> {
    const found = new Map<number, UsageTotals>(articleIds.map((id) => [id, { views: 0, downloads: 0 }]));
    if (!articleIds.length) return found;
    const rows = await this.db
      .select({
        articleId: articleUsage.articleId,
        views: sql<number>`sum(${articleUsage.views})::int`,
        downloads: sql<number>`sum(${articleUsage.downloads})::int`,
      })
      .from(articleUsage)
      .where(inArray(articleUsage.articleId, [...articleIds]))
      .groupBy(articleUsage.articleId);
    for (const r of rows) found.set(r.articleId, { views: Number(r.views), downloads: Number(r.downloads) });
    return found;
  }
}
