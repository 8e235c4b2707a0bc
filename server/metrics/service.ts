import { createHash } from 'node:crypto';
import { asc, eq, inArray, lt, sql } from 'drizzle-orm';
import { isbot } from 'isbot';
import { type Clock, systemClock } from '../clock.ts';
import type { Db } from '../db/client.ts';
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

/**
 * Usage counts (issue 6): article page views and PDF downloads per article and month, without robots
 * (`isbot`'s user-agent list) and without double clicks. Counting is best-effort by design: `track` never
 * throws and never makes a page wait; a failure is logged and the request goes on.
 */
export class MetricsService {
  private readonly pending = new Set<Promise<unknown>>();
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: { log: Logger; clock?: Clock },
  ) {}

  private now(): Date {
    return (this.opts.clock ?? systemClock).date();
  }

  /**
   * Counts one request, unless it comes from a robot or repeats the same visitor's request for the same
   * article within 30 seconds. Resolves to whether it was counted. One statement: the double-click check
   * and the monthly count change together, and two simultaneous requests cannot both count.
   */
  async record(
    kind: UsageKind,
    articleId: number,
    visitor: Visitor,
    at: Date = this.now(),
  ): Promise<boolean> {
    const key = visitorKey(visitor);
    if (!key) return false;
    const views = kind === 'view' ? 1 : 0;
    const downloads = kind === 'download' ? 1 : 0;
    const result = await this.db.execute(sql`
      with click as (
        insert into ${usageClicks} (visitor, article_id, kind, at, counted)
        values (${key}, ${articleId}, ${kind}, ${at.toISOString()}, true)
        on conflict (visitor, article_id, kind) do update
          set counted = ${usageClicks}.at <= excluded.at - make_interval(secs => ${DOUBLE_CLICK_SECONDS}),
              at = greatest(${usageClicks}.at, excluded.at)
        returning counted
      )
      insert into ${articleUsage} (article_id, month, views, downloads)
      select ${articleId}, ${monthOf(at)}::date, ${views}, ${downloads} from click where click.counted
      on conflict (article_id, month) do update
        set views = ${articleUsage}.views + excluded.views,
            downloads = ${articleUsage}.downloads + excluded.downloads
      returning 1 as counted`);
    await this.prune(at);
    return rowsOf(result).length > 0;
  }

  /** `record` for pages and downloads: runs in the background, logs a failure, never throws. */
  track(kind: UsageKind, articleId: number, visitor: Visitor): void {
    let job: Promise<unknown>;
    try {
      job = this.record(kind, articleId, visitor).catch((err: unknown) => {
        this.opts.log.warn({ err, kind, articleId }, 'Usage could not be counted');
      });
    } catch (err) {
      this.opts.log.warn({ err, kind, articleId }, 'Usage could not be counted');
      return;
    }
    this.pending.add(job);
    void job.finally(() => this.pending.delete(job));
  }

  /** Resolves once every `track` begun so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
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

/** node-postgres answers `{ rows }`, PGlite too; be lenient about the shape. */
function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result;
  const rows = (result as { rows?: unknown[] } | null)?.rows;
  return Array.isArray(rows) ? rows : [];
}
