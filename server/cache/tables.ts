import { bigint, pgTable, smallint } from 'drizzle-orm/pg-core';

/**
 * How many changes have been published to the processes' caches (server/cache/changes.ts): one row, bumped
 * in the transaction of each change (which so waits for the previous one's commit: versions commit in order).
 * A process that has not yet heard of the latest version (its notification still on its way) drops its copies.
 */
export const cacheVersion = pgTable('cache_version', {
  id: smallint('id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});
