import type { ContactInput } from '../../common/schemas.ts';
import type { Db } from '../db/client.ts';
import type { RateLimiter } from '../http/rate-limit.ts';
import type { Mailer } from '../mail/mailer.ts';
import { contactMessages } from './tables.ts';

export class ContactService {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      mailer: Mailer;
      editorialEmail: string;
      limiter: RateLimiter;
      journalName: () => Promise<string>;
    },
  ) {}

  /** Keeps the message (the dashboard lists it) and forwards it to the editorial address. */
  async send(input: ContactInput, meta: { ip: string }): Promise<void> {
    this.deps.limiter.hit(meta.ip);
    const [row] = await this.db
      .insert(contactMessages)
      .values({ name: input.name, email: input.email, message: input.message, ip: meta.ip })
      .returning({ id: contactMessages.id });
    const journal = await this.deps.journalName();
    await this.deps.mailer.sendQuietly({
      to: this.deps.editorialEmail,
      replyTo: `"${input.name.replace(/["\\\r\n]/g, '')}" <${input.email}>`,
      subject: `[${journal} contact #${row.id}] Message from ${input.name}`,
      text: `${input.name} <${input.email}> wrote through the contact form:\n\n${input.message}\n`,
    });
  }
}
