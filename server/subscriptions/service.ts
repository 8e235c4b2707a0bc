import { and, asc, count, eq, inArray, isNull, notExists, sql } from 'drizzle-orm';
import { approvedHere } from '../accounts/membership.ts';
import { users } from '../accounts/tables.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { PublicArticle } from '../catalog/present.ts';
import type { CatalogService } from '../catalog/service.ts';
import { issues, volumes } from '../catalog/tables.ts';
import { HOUR } from '../clock.ts';
import type { Db } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { conflict, notFound } from '../errors.ts';
import type { JobContext, JobQueue } from '../jobs/queue.ts';
import type { Mail } from '../mail/mailer.ts';
import type { MailService } from '../mail/service.ts';
import { mailLog } from '../mail/tables.ts';
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

/** How many alerts are queued per transaction. */
const BATCH = 50;

const ALERT_JOB = 'subscriptions.issue-alert';
const RESUME_JOB = 'subscriptions.resume-alerts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * New-issue alerts: who subscribed, the one alert per issue an editor sends, and the unsubscribe links in
 * them. Alerts go to subscribers whose accounts are approved (an address the editorial board has vetted),
 * from the journal's own address, each with the issue's contents and a link that unsubscribes without
 * signing in. The alert is a job on the queue (decision 0022): it queues one e-mail per subscriber, each
 * retried and logged as every e-mail is.
 */
export class SubscriptionsService {
  constructor(
    private readonly db: Db,
    private readonly deps?: {
      mail: MailService;
      jobs: JobQueue;
      audit: AuditService;
      catalog: CatalogService;
      journalName: () => Promise<string>;
      publicUrl: () => string;
      log: Logger;
    },
  ) {
    deps?.jobs.define<{ issueId: number }>(ALERT_JOB, (p, ctx) => this.deliver(p.issueId, ctx));
    // Once across processes for each journal, at the first start and every six hours (decisions 0031, 0058).
    deps?.jobs.recurring(RESUME_JOB, { every: 6 * HOUR, firstAfter: 0, perJournal: true }, () =>
      this.resumeAlerts(),
    );
  }

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

  /** Subscribers an alert goes to: accounts approved in this journal only (decision 0054). */
  private recipientsWhere() {
    return approvedHere;
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
        sent: sql<number>`(select count(*)::int from "issue_alert_deliveries" d left join ${mailLog} m on m."id" = d."mail_id" where d."issue_id" = "issue_alerts"."issue_id" and coalesce(m."status", d."status") = 'sent')`,
        failed: sql<number>`(select count(*)::int from "issue_alert_deliveries" d left join ${mailLog} m on m."id" = d."mail_id" where d."issue_id" = "issue_alerts"."issue_id" and coalesce(m."status", d."status") = 'failed')`,
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
   * Records the new-issue alert of an issue (once: a second request is refused with 409) and queues its
   * sending in the same transaction; answers at once with the number of subscribers it goes to.
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
        await deps.audit.record(
          tx,
          actor,
          'issue.alert',
          { type: 'issue', id: issueId },
          { label, recipients },
        );
        await deps.jobs.enqueue(tx, ALERT_JOB, { issueId }, { key: `issue-alert:${issueId}` });
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const [existing] = await this.db.select().from(issueAlerts).where(eq(issueAlerts.issueId, issueId));
      throw conflict(
        `The new-issue alert for ${label} was already sent on ${existing?.requestedAt.toISOString().slice(0, 10) ?? 'an earlier day'} by ${existing?.requestedByUsername ?? 'an editor'}.`,
      );
    }
    return { recipients, label };
  }

  /**
   * Queues the job of every alert left unfinished without one (alerts recorded before the job queue; the
   * key makes it a no-op for the others). A recurring pass (`subscriptions.resume-alerts`).
   */
  async resumeAlerts(): Promise<void> {
    const deps = this.required();
    const open = await this.db
      .select({ issueId: issueAlerts.issueId })
      .from(issueAlerts)
      .where(isNull(issueAlerts.finishedAt));
    for (const { issueId } of open) {
      await deps.jobs.enqueue(this.db, ALERT_JOB, { issueId }, { key: `issue-alert:${issueId}` });
    }
  }

  /**
   * The alert job: queues the e-mail of every recipient who has not had one, a batch per transaction (the
   * delivery rows and their e-mails commit together: each recipient at most once, whatever restarts or
   * takeovers happen), then marks the alert finished. Stops between batches when the server stops.
   */
  private async deliver(issueId: number, ctx: JobContext): Promise<void> {
    const deps = this.required();
    const issue = await this.issueOf(issueId);
    const articles = await deps.catalog.issueArticles(issueId);
    const journal = await deps.journalName();
    for (;;) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
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
            notExists(
              this.db
                .select({ one: sql`1` })
                .from(issueAlertDeliveries)
                .where(
                  and(
                    eq(issueAlertDeliveries.issueId, issueId),
                    eq(issueAlertDeliveries.userId, subscriptions.userId),
                  ),
                ),
            ),
          ),
        )
        .orderBy(asc(subscriptions.userId))
        .limit(BATCH);
      if (!batch.length) break;
      await this.db.transaction(async (tx) => {
        for (const r of batch) {
          const mail = alertMail({ journal, issue, articles, recipient: r, publicUrl: deps.publicUrl() });
          const { logId } = await deps.mail.queue(tx, mail, {
            secrets: [r.token],
            key: `issue-alert:${issueId}:${r.userId}`,
          });
          await tx
            .insert(issueAlertDeliveries)
            .values({ issueId, userId: r.userId, email: r.email, status: 'sending', mailId: logId });
        }
      });
    }
    await ctx.complete((tx) =>
      tx.update(issueAlerts).set({ finishedAt: new Date() }).where(eq(issueAlerts.issueId, issueId)),
    );
    deps.log.info({ issueId }, 'new-issue alert queued for every subscriber');
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
    if (!this.deps)
      throw new Error('SubscriptionsService needs its mailer, audit log and catalog to send alerts.');
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
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
