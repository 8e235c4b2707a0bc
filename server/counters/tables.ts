import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Attempt counters shared by every server process on one database (decision 0030): rate limits, the sign-in
 * throttle, reset and address-change allowances. One row per counter (`name`, e.g. `login-pair`, and its
 * `key`), a fixed window that opens with the first attempt (`window_start` to `reset_at`); an attempt after
 * `reset_at` opens the next window. Closed windows are deleted by the recurring `counters.prune` job.
 */
export const counters = pgTable(
  'counters',
  {
    name: text('name').notNull(),
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
    n: integer('n').notNull(),
    /** When the last attempt was counted (the sign-in throttle's doubling waits start from it). */
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
    /** The distinct tags (client addresses) the window's attempts carried, at most `MAX_TAGS`. */
    tags: text('tags').array().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.name, t.key] }), index('counters_reset_at_idx').on(t.resetAt)],
);
