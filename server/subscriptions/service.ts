import { and, asc, count, eq, gt, inArray, isNull, notExists, sql } from 'drizzle-orm';
import { users } from '../accounts/tables.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { PublicArticle } from '../catalog/present.ts';
import { issues, volumes } from '../catalog/tables.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { conflict, notFound } from '../http/errors.ts';
import type { Mail, Mailer } from '../mail/mailer.ts';
import { issueAlertDeliveries, issueAlerts, subscriptions } from './tables.ts';

interface Logger {
  info(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface AlertStatus {
  issueId: number;
  requestedAt: string;
  requestedBy: string;
  recipients: number;
  sent: number;
  failed: number;
  finishedAt: string | null;
}

/** How many alerts go out per database round trip. */
const BATCH = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * New-issue alerts: who subscribed, the one alert per issue an editor sends, and the unsubscribe links in
 * them. Alerts go to subscribers whose accounts are approved (an address the editorial board has vetted),
 * from the journal's own address, each with the issue's contents and a link that unsubscribes without
 * signing in.
 */
export class SubscriptionsService {
  /** Deliveries under way in this process, by issue (tests and shutdown can wait for them). */
  private readonly running = new Map<number, Promise<void>>();
  /** Set at shutdown: deliveries stop after the message in hand and resume at the next start. */
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly deps?: {
      mailer: Mailer;
      audit: AuditService;
      catalog: CatalogService;
      journalName: () => Promise<string>;
      publicUrl: string;
      log: Logger;
    },
  ) {}

  async isSubscribed(userId: number): Promise<boolean> {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    return Boolean(row);
  }

  async subscribe(userId: number): Promise<void> {
    await this.db.insert(subscriptions).values({ userId }).onConflictDoNothing();
  }

  async unsubscribe(userId: number): Promise<void> {
    await this.db.delete(subscriptions).where(eq(subscriptions.userId, userId));
  }

  /** The subscription behind an unsubscribe link, or null when the link is unknown (or already used). */
  async subscriptionByToken(token: string): Promise<{ email: string; username: string } | null> {
    if (!UUID.test(token)) return null;
    const [row] = await this.db
      .select({ email: users.email, username: users.username })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(eq(subscriptions.unsubscribeToken, token));
    return row ?? null;
  }

  /** Ends the subscription of an unsubscribe link; the e-mail address it was for, or null when unknown. */
  async unsubscribeByToken(token: string): Promise<string | null> {
    if (!UUID.test(token)) return null;
    const [row] = await this.db
      .delete(subscriptions)
      .where(eq(subscriptions.unsubscribeToken, token))
      .returning({ userId: subscriptions.userId });
    if (!row) return null;
    const [user] = await this.db.select({ email: users.email }).from(users).where(eq(users.id, row.userId));
    return user?.email ?? null;
  }

  /** Subscribers an alert goes to: approved accounts only. */
  private recipientsWhere() {
    return and(eq(users.status, 'approved'));
  }

  async recipientCount(): Promise<number> {
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(this.recipientsWhere());
    return Number(n);
  }

  /** The alert of each issue that has one, with its delivery counts. */
  async alertStatuses(issueIds?: number[]): Promise<Map<number, AlertStatus>> {
    const rows = await this.db
      .select({
        alert: issueAlerts,
        sent: sql<number>`(select count(*)::int from "issue_alert_deliveries" d where d."issue_id" = "issue_alerts"."issue_id" and d."status" = 'sent')`,
        failed: sql<number>`(select count(*)::int from "issue_alert_deliveries" d where d."issue_id" = "issue_alerts"."issue_id" and d."status" = 'failed')`,
      })
      .from(issueAlerts)
      .where(issueIds ? inArray(issueAlerts.issueId, issueIds.length ? issueIds : [-1]) : undefined);
    return new Map(
      rows.map((r) => [
        r.alert.issueId,
        {
          issueId: r.alert.issueId,
          requestedAt: r.alert.requestedAt.toISOString(),
          requestedBy: r.alert.requestedByUsername,
          recipients: r.alert.recipients,
          sent: Number(r.sent),
          failed: Number(r.failed),
          finishedAt: r.alert.finishedAt?.toISOString() ?? null,
        },
      ]),
    );
  }

  /**
   * Records the new-issue alert of an issue (once: a second request is refused with 409) and starts sending
   * it in the background; answers at once with the number of subscribers it goes to.
   */
  async sendIssueAlert(actor: Actor, issueId: number): Promise<{ recipients: number; label: string }> {
    const deps = this.required();
    const issue = await this.issueOf(issueId);
    const articles = await deps.catalog.issueArticles(issueId);
    if (!articles.length) {
      throw conflict(
        `Volume ${issue.volumeNumber}, issue ${issue.issueNumber} has no published articles yet: there is nothing to announce.`,
      );
    }
    const recipients = await this.recipientCount();
    const label = `Volume ${issue.volumeNumber}, issue ${issue.issueNumber}`;
    try {
      await this.db.transaction(async (tx) => {
        await tx.insert(issueAlerts).values({
          issueId,
          requestedBy: actor.id,
          requestedByUsername: actor.username,
          recipients,
        });
        await deps.audit.record(tx, actor, 'issue.alert', { type: 'issue', id: issueId }, { label, recipients });
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const [existing] = await this.db.select().from(issueAlerts).where(eq(issueAlerts.issueId, issueId));
      throw conflict(
        `The new-issue alert for ${label} was already sent on ${existing?.requestedAt.toISOString().slice(0, 10) ?? 'an earlier day'} by ${existing?.requestedByUsername ?? 'an editor'}.`,
      );
    }
    this.startDelivery(issueId);
    return { recipients, label };
  }

  /** Waits until the alerts this process is sending are done (tests; graceful shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
  }

  /** Lets the deliveries under way finish the message in hand, then stop (before the database closes). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }

  /** Picks up alerts a previous run left unfinished (call once at start-up). */
  async resumeAlerts(): Promise<void> {
    const open = await this.db.select({ issueId: issueAlerts.issueId }).from(issueAlerts).where(isNull(issueAlerts.finishedAt));
    for (const { issueId } of open) this.startDelivery(issueId);
  }

  private startDelivery(issueId: number): void {
    if (this.running.has(issueId) || this.stopping) return;
    const deps = this.required();
    const run = this.deliver(issueId)
      .catch((err) => deps.log.error({ err, issueId }, 'new-issue alert delivery stopped; it resumes on the next start'))
      .finally(() => this.running.delete(issueId));
    this.running.set(issueId, run);
  }

  /** Sends the alert to every recipient who has not had it, in batches; each recipient at most once. */
  private async deliver(issueId: number): Promise<void> {
    const deps = this.required();
    const issue = await this.issueOf(issueId);
    const articles = await deps.catalog.issueArticles(issueId);
    const journal = await deps.journalName();
    let lastUserId = 0;
    for (;;) {
      const batch = await this.db
        .select({
          userId: users.id,
          email: users.email,
          fullName: users.fullName,
          username: users.username,
          token: subscriptions.unsubscribeToken,
        })
        .from(subscriptions)
        .innerJoin(users, eq(users.id, subscriptions.userId))
        .where(
          and(
            this.recipientsWhere(),
            gt(subscriptions.userId, lastUserId),
            notExists(
              this.db
                .select({ one: sql`1` })
                .from(issueAlertDeliveries)
                .where(
                  and(eq(issueAlertDeliveries.issueId, issueId), eq(issueAlertDeliveries.userId, subscriptions.userId)),
                ),
            ),
          ),
        )
        .orderBy(asc(subscriptions.userId))
        .limit(BATCH);
      if (!batch.length) break;
      for (const r of batch) {
        if (this.stopping) return;
        lastUserId = r.userId;
        // Claim first: if this process dies after sending, the row says so and nobody gets a second copy.
        const claimed = await this.db
          .insert(issueAlertDeliveries)
          .values({ issueId, userId: r.userId, email: r.email, status: 'sending' })
          .onConflictDoNothing()
          .returning({ userId: issueAlertDeliveries.userId });
        if (!claimed.length) continue;
        const mail = alertMail({ journal, issue, articles, recipient: r, publicUrl: deps.publicUrl });
        let error: string | null = null;
        try {
          await deps.mailer.send(mail);
        } catch (err) {
          error = err instanceof Error ? err.message.slice(0, 500) : 'could not be sent';
          deps.log.error({ err, issueId, to: r.email }, 'new-issue alert could not be sent');
        }
        await this.db
          .update(issueAlertDeliveries)
          .set({ status: error ? 'failed' : 'sent', error, at: new Date() })
          .where(and(eq(issueAlertDeliveries.issueId, issueId), eq(issueAlertDeliveries.userId, r.userId)));
      }
    }
    await this.db.update(issueAlerts).set({ finishedAt: new Date() }).where(eq(issueAlerts.issueId, issueId));
    deps.log.info({ issueId }, 'new-issue alert delivered');
  }

  private async issueOf(issueId: number) {
    const [row] = await this.db
      .select({
        id: issues.id,
        issueNumber: issues.issueNumber,
        title: issues.title,
        description: issues.description,
        volumeNumber: volumes.volumeNumber,
        year: volumes.year,
      })
      .from(issues)
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .where(eq(issues.id, issueId));
    if (!row) throw notFound('No such issue.');
    return row;
  }

  private required() {
    if (!this.deps) throw new Error('SubscriptionsService needs its mailer, audit log and catalog to send alerts.');
    return this.deps;
  }
}

export interface AlertIssue {
  issueNumber: number;
  title: string;
  description: string;
  volumeNumber: number;
  year: number;
}

/** One subscriber's alert: the issue's table of contents with links, and an unsubscribe link. */
export function alertMail(opts: {
  journal: string;
  issue: AlertIssue;
  articles: PublicArticle[];
  recipient: { email: string; fullName: string; username: string; token: string };
  publicUrl: string;
}): Mail {
  const { journal, issue, articles, recipient, publicUrl } = opts;
  const label = `Volume ${issue.volumeNumber}, Issue ${issue.issueNumber} (${issue.year})`;
  const issueUrl = `${publicUrl}/volumes?volume=${issue.volumeNumber}&issue=${issue.issueNumber}`;
  const unsubscribeUrl = `${publicUrl}/unsubscribe?token=${recipient.token}`;
  const authorsOf = (a: PublicArticle) => a.authors.map((x) => x.name).join(', ');

  const toc = articles
    .map((a, i) =>
      [
        `${i + 1}. ${a.title}`,
        `   ${authorsOf(a)}`,
        `   Pages ${a.pages}${a.doi ? ` · https://doi.org/${a.doi}` : ''}`,
        `   ${a.url}`,
      ].join('\n'),
    )
    .join('\n\n');
  const text = `Dear ${recipient.fullName},

${label} of the ${journal} is published: ${issue.title}.

${issue.description}

Contents

${toc}

Read the issue online: ${issueUrl}

All articles are open access.

--
You receive this e-mail because the account ${recipient.username} subscribed to new-issue alerts of the ${journal}.
Unsubscribe: ${unsubscribeUrl}
`;

  const e = escapeHtml;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(label)}</title></head>
<body style="font-family: Georgia, serif; color: #1c2230; max-width: 40rem; margin: 0 auto; padding: 1rem;">
<p>Dear ${e(recipient.fullName)},</p>
<p><strong>${e(label)}</strong> of the ${e(journal)} is published: <a href="${e(issueUrl)}">${e(issue.title)}</a>.</p>
<p>${e(issue.description)}</p>
<h2 style="font-size: 1.2rem;">Contents</h2>
<ol>
${articles
  .map(
    (a) =>
      `<li style="margin-bottom: 0.75rem;"><a href="${e(a.url)}">${e(a.title)}</a><br>${e(authorsOf(a))}<br><small>Pages ${e(a.pages)}${a.doi ? ` · <a href="https://doi.org/${e(a.doi)}">https://doi.org/${e(a.doi)}</a>` : ''}</small></li>`,
  )
  .join('\n')}
</ol>
<p><a href="${e(issueUrl)}">Read the issue online</a>. All articles are open access.</p>
<hr>
<p style="font-size: 0.85rem; color: #4a5363;">You receive this e-mail because the account ${e(recipient.username)} subscribed to new-issue alerts of the ${e(journal)}. <a href="${e(unsubscribeUrl)}">Unsubscribe</a>.</p>
</body></html>
`;
  return {
    to: recipient.email,
    subject: `${journal}: ${label} is out`,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
