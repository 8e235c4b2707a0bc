import { count, desc } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { auditLog } from './tables.ts';

export interface Actor {
  id: number;
  username: string;
}

export class AuditService {
  constructor(private readonly db: Db) {}

  /** Records a privileged action; pass the transaction so the record stands or falls with the change. */
  async record(
    tx: Tx,
    actor: Actor | null,
    action: string,
    target: { type: string; id?: string | number | null },
    details: Record<string, unknown> = {},
  ): Promise<void> {
    await tx.insert(auditLog).values({
      actorId: actor?.id ?? null,
      actorUsername: actor?.username ?? 'system',
      action,
      targetType: target.type,
      targetId: target.id == null ? null : String(target.id),
      details,
    });
  }

  async page(limit: number, offset: number) {
    const [rows, [{ total }]] = await Promise.all([
      this.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit).offset(offset),
      this.db.select({ total: count() }).from(auditLog),
    ]);
    return {
      total,
      entries: rows.map((r) => ({
        id: r.id,
        actorUsername: r.actorUsername,
        action: r.action,
        targetType: r.targetType,
        targetId: r.targetId,
        details: r.details,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  }
}
