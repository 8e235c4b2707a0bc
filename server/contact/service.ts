import { and, count, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { ContactInput } from '../../common/schemas.ts';
import type { SessionUser } from '../accounts/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { RateLimiter } from '../counters/attempts.ts';
import type { Db } from '../db/client.ts';
import { notFound } from '../errors.ts';
import type { OfficeAddress } from '../mail/office.ts';
import type { MailService } from '../mail/service.ts';
import { contactMessages } from './tables.ts';

export class ContactService {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      mail: MailService;
      /** Where the journal's office notices go (decision 0060). */
      officeEmail: OfficeAddress;
      limiter: RateLimiter;
      journalName: () => Promise<string>;
      audit: AuditService;
    },
  ) {}

  /** Keeps the message (the dashboard lists it) and forwards it to the journal's office (decision 0060). */
  async send(input: ContactInput, meta: { ip: string }): Promise<void> {
    await this.deps.limiter.hit(meta.ip);
    const journal = await this.deps.journalName();
    await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(contactMessages)
        .values({ name: input.name, email: input.email, message: input.message, ip: meta.ip })
        .returning({ id: contactMessages.id });
      const to = await this.deps.officeEmail(tx);
      if (!to) return;
      await this.deps.mail.queue(
        tx,
        {
          to,
          replyTo: `"${input.name.replace(/["\\\r\n]/g, '')}" <${input.email}>`,
          subject: `[${journal} contact #${row.id}] Message from ${input.name}`,
          text: `${input.name} <${input.email}> wrote through the contact form:\n\n${input.message}\n`,
        },
        { office: true },
      );
    });
  }

  /** Messages for the editorial office, newest first; `handled` filters by whether they were dealt with. */
  async list(filter: { handled?: boolean; limit: number; offset: number }) {
    const where =
      filter.handled === undefined
        ? undefined
        : filter.handled
          ? isNotNull(contactMessages.handledAt)
          : isNull(contactMessages.handledAt);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(contactMessages)
        .where(where)
        .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
        .limit(filter.limit)
        .offset(filter.offset),
      this.db.select({ total: count() }).from(contactMessages).where(where),
    ]);
    return {
      total,
      messages: rows.map((r) => ({
        id: r.id,
        name: r.name,
        email: r.email,
        message: r.message,
        createdAt: r.createdAt.toISOString(),
        handledAt: r.handledAt?.toISOString() ?? null,
      })),
    };
  }

  /** Marks a message as dealt with (or not), recording who did it. */
  async setHandled(actor: SessionUser, id: number, handled: boolean) {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(contactMessages)
        .set({ handledAt: handled ? new Date() : null })
        .where(and(eq(contactMessages.id, id)))
        .returning();
      if (!row) throw notFound('No such message.');
      await this.deps.audit.record(tx, actor, handled ? 'message.handled' : 'message.reopened', {
        type: 'contact_message',
        id,
      });
      return { id: row.id, handledAt: row.handledAt?.toISOString() ?? null };
    });
  }
}
