import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { sessions } from './tables.ts';

/** Ends every open session of an account (all but `except`, when given); returns how many ended. */
export async function revokeSessions(tx: Tx, userId: number, at: Date, except?: string): Promise<number> {
  const ended = await tx
    .update(sessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        except ? ne(sessions.id, except) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return ended.length;
}

/** An account's sessions that are open at `now`, newest first. */
export function openSessions(tx: Tx, userId: number, now: Date) {
  return tx
    .select({
      id: sessions.id,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      userAgent: sessions.userAgent,
      ip: sessions.ip,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.createdAt), desc(sessions.id));
}
