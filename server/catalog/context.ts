import type { AuditService } from '../audit/service.ts';
import type { Clock } from '../clock.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import { articleTag, CATALOG } from '../cache/dependencies.ts';
import type { Db, Tx } from '../db/client.ts';
import type { DoiService } from '../doi/service.ts';
import type { EventBus } from '../events/bus.ts';
import type { FileService } from '../files/service.ts';
import type { SimilarityService } from '../similarity/service.ts';

/** What the catalog's use cases (read.ts, volumes.ts, articles.ts) share. */
export interface CatalogDeps {
  files: FileService;
  audit: AuditService;
  /** The journal's address (decision 0053). */
  baseUrl: () => string;
  /** The similarity corpus: readers' checks follow an article's published state at once. */
  similarity?: Pick<SimilarityService, 'articleVisibility'>;
  /** The outbox: `article.changed` in the change's transaction, for its followers (decision 0031). */
  events?: Pick<EventBus, 'emit'>;
  /** Kept pages and answers, in every process: told in the change's transaction what changed (0018, 0031). */
  changes?: Pick<ChangeFeed, 'publish'>;
  /**
   * DOI registration (decision 0064): the journal's pattern gives an article placed into an issue without a
   * DOI its own, and a deposited DOI cannot be changed.
   */
  doi?: Pick<DoiService, 'assigner' | 'assertDoiEditable'>;
  /** The one source of "now": an article published without a date of its own is dated today. */
  clock?: Clock;
}

export interface CatalogContext {
  readonly db: Db;
  readonly deps: CatalogDeps;
}

/** In a change's transaction: the kept answers that show it go once it commits (every list of articles too). */
export async function catalogChanged(ctx: CatalogContext, tx: Tx, ...tags: string[]) {
  await ctx.deps.changes?.publish(tx, [CATALOG, ...tags]);
}

/** In the transaction of a change of one article: its kept answers, and the event its followers take. */
export async function articleChanged(ctx: CatalogContext, tx: Tx, articleId: number, ...tags: string[]) {
  await catalogChanged(ctx, tx, articleTag(articleId), ...tags);
  await ctx.deps.events?.emit(tx, 'article.changed', { articleId });
}

/** In the transaction of a change of issues' own facts (their volume's too): the event its followers take. */
export async function issuesChanged(ctx: CatalogContext, tx: Tx, issueIds: number[]) {
  for (const issueId of issueIds) await ctx.deps.events?.emit(tx, 'issue.changed', { issueId });
}
