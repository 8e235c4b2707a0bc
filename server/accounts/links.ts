import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { LINK_PROBLEMS, type LinkProblem } from '../../common/account.ts';
import type { Tx } from '../db/client.ts';
import { invalid } from '../errors.ts';
import { type emailChanges, type passwordResets, users } from './tables.ts';

/**
 * The one-time secrets of e-mailed links (a forgotten password, a new e-mail address). The database keeps
 * only their SHA-256: the secret has 256 random bits, so a plain hash is enough (no salt or slow hash needed
 * against guessing), and a copy of the database opens nothing.
 */
export function newLinkSecret(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkSecret(token) };
}

export function hashLinkSecret(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The tables of e-mailed links: a link's hash, its account, until when it works and when it was used. */
export type LinkTable = typeof passwordResets | typeof emailChanges;

export type LinkState<T extends LinkTable> =
  | { ok: true; link: T['$inferSelect']; username: string }
  | { ok: false; problem: LinkProblem };

/** Why a stored link can no longer be used (never issued, used, expired), or null while it can. */
function linkProblem(
  row: { usedAt: Date | null; expiresAt: Date } | undefined,
  now: number,
): LinkProblem | null {
  if (!row) return 'unknown';
  if (row.usedAt) return 'used';
  if (row.expiresAt.getTime() <= now) return 'expired';
  return null;
}

/**
 * The one check of an e-mailed link (a forgotten password, a new address): its row and its account's
 * username while it can be used, or why it cannot.
 */
export async function checkLink<T extends LinkTable>(
  db: Tx,
  table: T,
  token: string,
  now: number,
): Promise<LinkState<T>> {
  // One of two tables of the same shape: drizzle types a query on either.
  const t = table as typeof passwordResets;
  const [row] = await db
    .select({ link: t, username: users.username })
    .from(t)
    .innerJoin(users, eq(users.id, t.userId))
    .where(eq(t.tokenHash, hashLinkSecret(token)));
  const problem = linkProblem(row?.link, now);
  if (problem || !row) return { ok: false, problem: problem ?? 'unknown' };
  return { ok: true, link: row.link as T['$inferSelect'], username: row.username };
}

/**
 * Spends a link in `tx`: one UPDATE claims it while unused and unexpired, so a link works once even when
 * opened twice at the same moment. Its row, or null when it could not be claimed (`refuseLink` says why).
 */
export async function claimLink<T extends LinkTable>(
  tx: Tx,
  table: T,
  token: string,
  now: Date,
): Promise<T['$inferSelect'] | null> {
  const t = table as typeof passwordResets;
  const [claimed] = await tx
    .update(t)
    .set({ usedAt: now })
    .where(and(eq(t.tokenHash, hashLinkSecret(token)), isNull(t.usedAt), gt(t.expiresAt, now)))
    .returning();
  return (claimed as T['$inferSelect'] | undefined) ?? null;
}

/**
 * The refusal (`invalid`, on the token) of a link `claimLink` could not spend, with the reason: unknown,
 * expired or used (a link that checks out now was spent by another request meanwhile).
 */
export async function refuseLink(db: Tx, table: LinkTable, token: string, now: number) {
  const state = await checkLink(db, table, token, now);
  const problem = state.ok ? 'used' : state.problem;
  return invalid(LINK_PROBLEMS[problem], { token: LINK_PROBLEMS[problem] });
}

/** `?token=…` values in an address, hidden: the request log must never hold a working link. */
export function redactLinkSecrets(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[hidden]');
}

/**
 * The request log's view of a request (Fastify's own fields), with link secrets hidden. Given to the
 * logger as its `req` serializer in server/main.ts.
 */
export function logRequest(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactLinkSecrets(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
