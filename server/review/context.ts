import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Question, ReviewSettings } from '../../common/review.ts';
import type { SessionUser } from '../accounts/service.ts';
import { users } from '../accounts/tables.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import { articleTag, REVIEWS } from '../cache/dependencies.ts';
import { articles } from '../catalog/tables.ts';
import type { Clock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { conflict, notFound } from '../errors.ts';
import type { OfficeAddress } from '../mail/office.ts';
import { MEDIA_TYPES } from '../files/content-type.ts';
import type { FileService } from '../files/service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { MailService } from '../mail/service.ts';
import type { SettingsService } from '../settings/service.ts';
import { submissionAuthors, submissions } from '../submissions/tables.ts';
import type { AssignmentFacts, RoundFacts, SubmissionFacts } from './present.ts';
import { type AssignmentAction, assignmentStatus, nextState, REFUSED_MOVE, ReviewLinks } from './rules.ts';
import { reviewAssignments, type reviewerProfiles, reviewForms, reviewRounds } from './tables.ts';

/**
 * What every use case of peer review shares (decision 0043): the database, the narrow services it calls, and
 * the readers several of them need. Each use case is a function of this context in its own file; the
 * `ReviewService` facade (service.ts) builds the context once and delegates to them.
 */
export interface ReviewDeps {
  clock: Clock;
  settings: SettingsService;
  audit: AuditService;
  files: FileService;
  secret: string;
  /** The journal's address (decision 0053). */
  publicUrl: () => string;
  /** Where the journal's office notices go (decision 0060). */
  officeEmail: OfficeAddress;
  /**
   * Every peer-review e-mail is queued in the transaction of the change it reports (decision 0022): a
   * reminder's claim and its mail commit together (exactly once), logged on the submission, the invitation
   * links' tokens sealed (`secrets`).
   */
  mail: Pick<MailService, 'queue'>;
  /**
   * The durable queue that runs the reminder pass every minute, on whichever process claims it: a reminder
   * goes out within a minute of its time, and within a minute of a start after downtime (decision 0023).
   */
  jobs?: JobQueue;
  /**
   * Cached pages (decision 0018): a published article's page shows its agreed open reviews, so a change
   * to one (a review submitted late, a reviewer's name) drops that article's page after commit; and a
   * signed-in reader's header counts their open reviews (decision 0025).
   */
  changes?: Pick<ChangeFeed, 'publish'>;
}

export interface ReviewContext extends ReviewDeps {
  db: Db;
  links: ReviewLinks;
}

export function reviewContext(db: Db, deps: ReviewDeps): ReviewContext {
  return { ...deps, db, links: new ReviewLinks(deps.secret) };
}

/** Who opens a reviewer's assignment: the invitation link's token, or the reviewer's signed-in account. */
export type ReviewerAccess = { token: string } | { user: SessionUser };

export type AssignmentRow = typeof reviewAssignments.$inferSelect;
export type RoundRow = typeof reviewRounds.$inferSelect;
export type ProfileRow = typeof reviewerProfiles.$inferSelect;

export const NO_ASSIGNMENT = 'Review assignment not found.';

export const journal = (ctx: ReviewContext) => ctx.settings.journal();

export async function reviewSettings(ctx: ReviewContext): Promise<ReviewSettings> {
  return (await journal(ctx)).review;
}

/** In a change of who reviews what: the header's count on kept pages goes stale when it commits. */
export async function assignmentsChanged(ctx: ReviewContext, tx: Tx) {
  await ctx.changes?.publish(tx, [REVIEWS]);
}

/**
 * In a change that may alter the open reviews shown on published articles (a review submitted, a reviewer's
 * name or ORCID iD): drops, at the commit, the cached pages of the articles of these submissions, or of
 * every article a profile reviewed.
 */
export async function reviewsChanged(
  ctx: ReviewContext,
  tx: Tx,
  o: { submissionId?: number; profileId?: number },
) {
  if (!ctx.changes) return;
  const rows = await tx
    .select({ id: articles.id })
    .from(articles)
    .where(
      o.submissionId !== undefined
        ? eq(articles.submissionId, o.submissionId)
        : sql`${articles.submissionId} in (select ${reviewAssignments.submissionId} from ${reviewAssignments}
            where ${reviewAssignments.profileId} = ${o.profileId ?? 0} and ${reviewAssignments.publishAgreed})`,
    );
  await ctx.changes.publish(
    tx,
    rows.map((r) => articleTag(r.id)),
  );
}

/** The invitation link of an assignment (its token is a secret: pass it in `secrets` when mailing). */
export function linkFor(
  ctx: ReviewContext,
  a: { id: number; linkNonce: string },
): { link: string; token: string } {
  const token = ctx.links.token(a.id, a.linkNonce);
  return { token, link: `${ctx.publicUrl()}/reviews/${a.id}?${new URLSearchParams({ token })}` };
}

// ---- Reading the pieces -----------------------------------------------------------------------------

export async function submissionFacts(ctx: ReviewContext, id: number, tx: Tx = ctx.db) {
  const [s] = await tx
    .select({
      s: submissions,
      submitterEmail: users.email,
      submitterName: users.fullName,
      submitterInstitution: users.institution,
    })
    .from(submissions)
    .innerJoin(users, eq(users.id, submissions.userId))
    .where(eq(submissions.id, id));
  if (!s) throw notFound('Submission not found.');
  const authors = await tx
    .select({
      name: submissionAuthors.name,
      email: submissionAuthors.email,
      affiliation: submissionAuthors.affiliation,
    })
    .from(submissionAuthors)
    .where(eq(submissionAuthors.submissionId, id))
    .orderBy(asc(submissionAuthors.position));
  const facts: SubmissionFacts = {
    id,
    reference: s.s.reference,
    title: s.s.title,
    abstract: s.s.abstract,
    articleType: s.s.articleType,
    keywords: s.s.keywords,
    authors,
  };
  return {
    facts,
    status: s.s.status,
    submitter: {
      id: s.s.userId,
      name: s.submitterName,
      email: s.submitterEmail,
      affiliation: s.submitterInstitution,
    },
  };
}

export async function questionsOf(
  ctx: ReviewContext,
  formId: number | null,
  tx: Tx = ctx.db,
): Promise<Question[]> {
  if (formId === null) return [];
  const [f] = await tx
    .select({ q: reviewForms.questions })
    .from(reviewForms)
    .where(eq(reviewForms.id, formId));
  return f?.q ?? [];
}

export async function roundFacts(ctx: ReviewContext, r: RoundRow, tx: Tx = ctx.db): Promise<RoundFacts> {
  return {
    id: r.id,
    number: r.number,
    version: r.version,
    mode: r.mode,
    authorResponse: r.authorResponse,
    decision: r.decision,
    decidedAt: r.decidedAt,
    revisionDue: r.revisionDue,
    questions: await questionsOf(ctx, r.formId, tx),
  };
}

export function assignmentFacts(
  ctx: ReviewContext,
  a: AssignmentRow,
  p: ProfileRow,
  zone: string,
): AssignmentFacts {
  return {
    ...a,
    status: assignmentStatus(a, ctx.clock.now(), zone),
    reviewer: { name: p.name, affiliation: p.affiliation, orcid: p.orcid },
  };
}

/** The current (latest) round of a submission, or undefined before review starts. */
export async function currentRound(
  ctx: ReviewContext,
  submissionId: number,
  tx: Tx = ctx.db,
): Promise<RoundRow | undefined> {
  const [r] = await tx
    .select()
    .from(reviewRounds)
    .where(eq(reviewRounds.submissionId, submissionId))
    .orderBy(desc(reviewRounds.number))
    .limit(1);
  return r;
}

/** Moves an assignment by the state machine, under a row lock; refuses (409) a move it does not allow. */
export async function move(tx: Tx, a: AssignmentRow, action: AssignmentAction, set: Partial<AssignmentRow>) {
  const [locked] = await tx
    .select()
    .from(reviewAssignments)
    .where(eq(reviewAssignments.id, a.id))
    .for('update');
  const to = nextState(locked.state, action, locked.cancelledFrom);
  if (!to) throw conflict(REFUSED_MOVE[action]);
  const [row] = await tx
    .update(reviewAssignments)
    .set({ ...set, state: to })
    .where(eq(reviewAssignments.id, a.id))
    .returning();
  return { before: locked, after: row };
}

/** Who acted, for the audit log: the signed-in reviewer, or nobody named (the invitation link). */
export function actorOf(access: ReviewerAccess): Actor | null {
  return 'user' in access ? access.user : null;
}

/** A file's extension from its stored (checked) media type, else from its name. */
export function extensionFor(mediaType: string, name: string): string {
  const kind = Object.entries(MEDIA_TYPES).find(([, m]) => m === mediaType)?.[0];
  return kind && ['pdf', 'docx', 'doc', 'zip', 'png', 'jpeg'].includes(kind)
    ? `.${kind === 'jpeg' ? 'jpg' : kind}`
    : extensionOf(name);
}

export function extensionOf(name: string): string {
  const m = /\.[A-Za-z0-9]{1,8}$/.exec(name);
  return m ? m[0].toLowerCase() : '';
}
