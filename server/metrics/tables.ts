import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { articles } from '../catalog/tables.ts';

/** Usage of each article per calendar month (UTC): page views and PDF downloads, robots and double clicks left out. */
export const articleUsage = pgTable(
  'article_usage',
  {
    articleId: integer('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    /** The first day of the month. */
    month: date('month').notNull(),
    views: integer('views').notNull().default(0),
    downloads: integer('downloads').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.month] })],
);

/**
 * The last request of each visitor (a hash of the session id, or of the address and user agent) for each
 * article and kind: a second one within 30 seconds is a double click and is not counted (COUNTER). Rows
 * older than that are pruned as counting goes on.
 */
export const usageClicks = pgTable(
  'usage_clicks',
  {
    visitor: text('visitor').notNull(),
    articleId: integer('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['view', 'download'] }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Whether the request that last wrote this row was counted. */
    counted: boolean('counted').notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.visitor, t.articleId, t.kind] }), index('usage_clicks_at_idx').on(t.at)],
);
