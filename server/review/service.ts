import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  type AssignmentState,
  CONFIRMATION_NEEDED,
  type DecisionConfirmation,
  type DeclineInput,
  type InviteInput,
  type Question,
  type ReminderKind,
  type ReviewDraft,
  type ReviewFormInput,
  type ReviewSettings,
  type ReviewerProfileInput,
  type ReviewFilter,
  DECLINE_REASON_LABELS,
  RECOMMENDATION_LABELS,
  answerProblems,
  revisionLabel,
} from '../../common/review.ts';
import { formatDay } from '../../common/dates.ts';
import { STATUS_LABELS } from '../../common/submissions.ts';
import { newLinkSecret } from '../accounts/links.ts';
import { hashPassword } from '../accounts/passwords.ts';
import type { SessionUser } from '../accounts/service.ts';
import { passwordResets, users } from '../accounts/tables.ts';
import type { Actor, AuditService } from '../audit/service.ts';
import { REVIEWS, articleTag, dependsOn } from '../cache/dependencies.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import { type Clock, DAY, MINUTE } from '../clock.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Db, Tx } from '../db/client.ts';
import { articles } from '../catalog/tables.ts';
import type { FileService } from '../files/service.ts';
import { storedFiles } from '../files/tables.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import { MEDIA_TYPES } from '../files/content-type.ts';
import { PROPERTIES_MESSAGES, describeProperty } from '../files/document-properties.ts';
import { HttpError, badRequest, conflict, notFound } from '../http/errors.ts';
import { tooManyAttempts } from '../http/rate-limit.ts';
import type { Mail } from '../mail/mailer.ts';
import type { SettingsService } from '../settings/service.ts';
import type { ReviewHooks } from '../submissions/service.ts';
import { submissionAuthors, submissionFiles, submissions } from '../submissions/tables.ts';
import {
  assignmentNoticeMail,
  dueLine,
  editorNoticeMail,
  invitationMail,
  newAccountMail,
  reminderMail,
  reviewsSharedMail,
  revisionReminderMail,
} from './mail.ts';
import {
  type AssignmentFacts,
  type RoundFacts,
  type SubmissionFacts,
  authorView,
  authorsSeeReviewers,
  publicReview,
  reviewerView,
} from './present.ts';
import {
  type AssignmentAction,
  REFUSED_MOVE,
  ReviewLinks,
  assignmentStatus,
  conflicts,
  dayIn,
  defaultDueDay,
  dueInstant,
  nextState,
} from './rules.ts';
import { reviewAssignments, reviewForms, reviewReminders, reviewRounds, reviewerProfiles } from './tables.ts';

/** Who opens a reviewer's assignment: the invitation link's token, or the reviewer's signed-in account. */
export type ReviewerAccess = { token: string } | { user: SessionUser };

/**
 * How every peer-review e-mail leaves: one function, given the submission it is about (its communication log)
 * and the token-bearing strings to keep out of stored copies. `tx`, when given, is the transaction the mail
 * belongs to (a durable queue enqueues in it; decision 0023).
 */
export type ReviewSend = (
  mail: Mail,
  meta: {
    submissionId: number;
    secrets: string[];
    tx?: Tx;
    /** Asked for now by an editor: refused (429) rather than held when the recipient is at the daily limit. */
    manual?: boolean;
  },
) => Promise<void>;

/** The recurring job of the reminder pass. */
export const REMINDER_PASS = 'review.reminders';

/** How long the set-password link of an account created on accepting works. */
const NEW_ACCOUNT_LINK_MS = 7 * DAY;

type AssignmentRow = typeof reviewAssignments.$inferSelect;
type RoundRow = typeof reviewRounds.$inferSelect;
type ProfileRow = typeof reviewerProfiles.$inferSelect;

const ACCESS_CLOSED =
  'This review link no longer opens anything: the assignment was declined, cancelled or closed.';
const NO_ASSIGNMENT = 'Review assignment not found.';
/** Said to a signed-in reviewer acting on an assignment whose round is decided (the link says 410 instead). */
const ROUND_DECIDED = {
  answer: 'The editors have already decided on this manuscript: the invitation can no longer be answered.',
  review:
    'The editors have already decided on this manuscript: the review can no longer be changed or submitted.',
};

export class ReviewService {
  private readonly links: ReviewLinks;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      clock: Clock;
      settings: SettingsService;
      audit: AuditService;
      files: FileService;
      secret: string;
      publicUrl: string;
      editorialEmail: string;
      send: ReviewSend;
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
    },
  ) {
    this.links = new ReviewLinks(deps.secret);
    deps.jobs?.recurring(REMINDER_PASS, { every: MINUTE, firstAfter: 0 }, async () => {
      await this.reminderPass();
    });
  }

  /** In a change of who reviews what: the header's count on kept pages goes stale when it commits. */
  private async assignmentsChanged(tx: Tx) {
    await this.deps.changes?.publish(tx, [REVIEWS]);
  }

  private async journal() {
    return this.deps.settings.journal();
  }

  private async reviewSettings(): Promise<ReviewSettings> {
    return (await this.journal()).review;
  }

  /** The invitation link of an assignment (its token is a secret: pass it in `secrets` when mailing). */
  linkFor(a: { id: number; linkNonce: string }): { link: string; token: string } {
    const token = this.links.token(a.id, a.linkNonce);
    return { token, link: `${this.deps.publicUrl}/reviews/${a.id}?${new URLSearchParams({ token })}` };
  }

  // ---- Reading the pieces -----------------------------------------------------------------------------

  private async submissionFacts(id: number, tx: Tx = this.db) {
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

  private async questionsOf(formId: number | null, tx: Tx = this.db): Promise<Question[]> {
    if (formId === null) return [];
    const [f] = await tx
      .select({ q: reviewForms.questions })
      .from(reviewForms)
      .where(eq(reviewForms.id, formId));
    return f?.q ?? [];
  }

  private async roundFacts(r: RoundRow, tx: Tx = this.db): Promise<RoundFacts> {
    return {
      id: r.id,
      number: r.number,
      version: r.version,
      mode: r.mode,
      authorResponse: r.authorResponse,
      decision: r.decision,
      decidedAt: r.decidedAt,
      revisionDue: r.revisionDue,
      questions: await this.questionsOf(r.formId, tx),
    };
  }

  private assignmentFacts(a: AssignmentRow, p: ProfileRow, zone: string): AssignmentFacts {
    return {
      ...a,
      status: assignmentStatus(a, this.deps.clock.now(), zone),
      reviewer: { name: p.name, affiliation: p.affiliation, orcid: p.orcid },
    };
  }

  /** The current (latest) round of a submission, or undefined before review starts. */
  private async currentRound(submissionId: number, tx: Tx = this.db): Promise<RoundRow | undefined> {
    const [r] = await tx
      .select()
      .from(reviewRounds)
      .where(eq(reviewRounds.submissionId, submissionId))
      .orderBy(desc(reviewRounds.number))
      .limit(1);
    return r;
  }

  // ---- Rounds ------------------------------------------------------------------------------------------

  /**
   * Opens the next round on the submission's latest manuscript version (round 1 on the original), in the
   * transaction of the desk's move to "under review". The round takes the journal's default mode and review
   * form, and the author's response written with the revision.
   */
  async openRound(tx: Tx, submissionId: number): Promise<RoundRow> {
    const settings = await this.reviewSettings();
    const previous = await this.currentRound(submissionId, tx);
    const files = await tx
      .select({
        fileId: submissionFiles.fileId,
        version: submissionFiles.version,
        kind: submissionFiles.kind,
      })
      .from(submissionFiles)
      .where(eq(submissionFiles.submissionId, submissionId))
      // The manuscript first, then its additional files ('additional' sorts before 'manuscript' as text).
      .orderBy(
        desc(submissionFiles.version),
        sql`${submissionFiles.kind} = 'manuscript' desc`,
        asc(submissionFiles.id),
      );
    const version = files[0]?.version ?? 1;
    const [form] = await tx
      .select({ id: reviewForms.id })
      .from(reviewForms)
      .where(eq(reviewForms.retired, false))
      .orderBy(desc(reviewForms.id))
      .limit(1);
    const [round] = await tx
      .insert(reviewRounds)
      .values({
        submissionId,
        number: (previous?.number ?? 0) + 1,
        version,
        // A later round keeps the mode its predecessor used (the editor may change it before inviting).
        mode: previous?.mode ?? settings.defaultMode,
        formId: form?.id ?? null,
        reviewerFileIds: files.filter((f) => f.version === version).map((f) => f.fileId),
        authorResponse: previous?.authorResponse && previous.revisedAt ? previous.authorResponse : '',
        createdAt: this.deps.clock.date(),
      })
      .returning();
    return round;
  }

  /** The editor changes a round's review mode while nobody has been invited in it yet. */
  async setMode(actor: Actor, submissionId: number, mode: RoundRow['mode']) {
    return this.roundAction(actor, submissionId, 'review.round.mode', { mode }, async (tx, round) => {
      const [any] = await tx
        .select({ id: reviewAssignments.id })
        .from(reviewAssignments)
        .where(eq(reviewAssignments.roundId, round.id))
        .limit(1);
      if (any) throw conflict('The review mode can be changed only before the first reviewer is invited.');
      await tx.update(reviewRounds).set({ mode }).where(eq(reviewRounds.id, round.id));
    });
  }

  /**
   * The seam for scrubbed copies (decision 0023): the files reviewers of the current round may download,
   * as stored file ids (the version's own files, or a copy stored without its document properties); the
   * author's original stays as it was.
   */
  async setReviewerFiles(actor: Actor, submissionId: number, fileIds: number[]) {
    return this.roundAction(actor, submissionId, 'review.round.files', { fileIds }, async (tx, round) => {
      const known = fileIds.length
        ? await tx.select({ id: storedFiles.id }).from(storedFiles).where(inArray(storedFiles.id, fileIds))
        : [];
      if (known.length !== new Set(fileIds).size)
        throw badRequest('Some of these files do not exist.', { fileIds: 'Choose stored files.' });
      await tx.update(reviewRounds).set({ reviewerFileIds: fileIds }).where(eq(reviewRounds.id, round.id));
    });
  }

  /**
   * Double-anonymous review and the files' own properties (decision 0024): each file reviewers of the
   * current round will download, checked for properties that name a person (a Word file's Author, a PDF's
   * Author, the authors of comments and tracked changes). `warn` is true in a double-anonymous round when a
   * file names someone or could not be checked; `removable` files can be replaced for reviewers by a copy
   * without them (`withoutNamesForReviewers`). Files that are neither Word nor PDF (a ZIP) are not checked.
   * Reads the files, so it is asked for on its own, not with every view of the round.
   */
  async fileProperties(submissionId: number) {
    const round = await this.currentRound(submissionId);
    if (!round) {
      await this.submissionFacts(submissionId); // 404 for an unknown submission
      return { round: null, mode: null, warn: false, files: [] };
    }
    const files = await this.scanReviewerFiles(round);
    const checked = files.filter((f) => f.problem?.code !== 'unsupported');
    return {
      round: round.number,
      mode: round.mode,
      warn:
        round.mode === 'double-anonymous' &&
        round.decidedAt === null &&
        checked.some((f) => f.properties.length > 0 || f.problem !== null),
      files,
    };
  }

  private async scanReviewerFiles(round: RoundRow) {
    const originals = await this.db
      .select({ fileId: submissionFiles.fileId, kind: submissionFiles.kind })
      .from(submissionFiles)
      .where(eq(submissionFiles.submissionId, round.submissionId));
    const rows = round.reviewerFileIds.length
      ? await this.db.select().from(storedFiles).where(inArray(storedFiles.id, round.reviewerFileIds))
      : [];
    const result = [];
    for (const id of round.reviewerFileIds) {
      const f = rows.find((x) => x.id === id);
      if (!f) continue;
      const scan = await this.deps.files.personalProperties(f);
      const original = originals.find((o) => o.fileId === id);
      result.push({
        fileId: f.id,
        name: f.originalName,
        mediaType: f.mediaType,
        /** The author's own upload, or a copy made for reviewers. */
        copy: !original,
        properties: scan.properties.map(describeProperty),
        removable: scan.removable && scan.properties.length > 0,
        problem: scan.problem,
      });
    }
    return result;
  }

  /**
   * The editor sends reviewers copies without the properties that name people: each removable file of the
   * current round's reviewer files is copied without them (`withoutPersonalProperties`), stored as a new
   * file, and put in the original's place among the round's reviewer files. The author's original stays as
   * it was (and in the submission's files). Refused when the round is decided or nothing can be removed.
   */
  async withoutNamesForReviewers(actor: Actor, submissionId: number) {
    const round = await this.db.transaction((tx) => this.openRoundOf(submissionId, tx));
    const scanned = await this.scanReviewerFiles(round);
    const removable = scanned.filter((f) => f.removable);
    if (!removable.length) {
      throw conflict('No file of this round has properties naming a person that can be removed.');
    }
    const copies: CheckedUpload[] = [];
    const replaced: number[] = [];
    for (const f of removable) {
      const copy = await this.deps.files.copyWithoutPersonalProperties(
        await this.deps.files.get(f.fileId),
        'for-reviewers',
      );
      if (!copy.ok) continue;
      copies.push(copy.upload);
      replaced.push(f.fileId);
    }
    if (!copies.length) throw conflict(PROPERTIES_MESSAGES.not_removable);
    await this.deps.files.withStoredFiles(copies, async (tx, stored) => {
      const current = await this.openRoundOf(submissionId, tx);
      const [locked] = await tx
        .select({ ids: reviewRounds.reviewerFileIds })
        .from(reviewRounds)
        .where(eq(reviewRounds.id, current.id))
        .for('update');
      const ids = locked.ids.map((id) => {
        const i = replaced.indexOf(id);
        return i < 0 ? id : stored[i].id;
      });
      await tx.update(reviewRounds).set({ reviewerFileIds: ids }).where(eq(reviewRounds.id, current.id));
      await this.deps.audit.record(
        tx,
        actor,
        'review.round.files',
        { type: 'submission', id: submissionId },
        { fileIds: ids, withoutPropertiesOf: replaced },
      );
    });
    return this.fileProperties(submissionId);
  }

  /** A change to the open round, audited, in one transaction; answers the editor's view. */
  private async roundAction(
    actor: Actor,
    submissionId: number,
    action: string,
    details: Record<string, unknown>,
    work: (tx: Tx, round: RoundRow) => Promise<void>,
  ) {
    await this.db.transaction(async (tx) => {
      await work(tx, await this.openRoundOf(submissionId, tx));
      await this.deps.audit.record(tx, actor, action, { type: 'submission', id: submissionId }, details);
    });
    return this.editorView(submissionId);
  }

  private async openRoundOf(submissionId: number, tx: Tx) {
    const round = await this.currentRound(submissionId, tx);
    if (!round) {
      // A submission put under review before peer review existed gets its first round when first needed.
      const [s] = await tx
        .select({ status: submissions.status })
        .from(submissions)
        .where(eq(submissions.id, submissionId));
      if (s?.status === 'under_review') return this.openRound(tx, submissionId);
    }
    if (!round || round.decidedAt) {
      throw conflict('This submission has no open review round: move it to "Under review" first.');
    }
    return round;
  }

  // ---- Invitations ---------------------------------------------------------------------------------------

  /**
   * Invites a reviewer to the current round: an account, a profile of the pool, or a name and e-mail (a
   * profile is kept; an account is created only when they accept). Authors of the submission are refused;
   * a shared institution is a warning returned with the invitation.
   */
  async invite(actor: Actor, submissionId: number, input: InviteInput) {
    const settings = await this.reviewSettings();
    const now = this.deps.clock.now();
    const journal = await this.journal();
    const result = await this.db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: submissions.id })
        .from(submissions)
        .where(eq(submissions.id, submissionId))
        .for('update');
      if (!locked) throw notFound('Submission not found.');
      const round = await this.openRoundOf(submissionId, tx);
      const profile = await this.profileFor(tx, input);
      const { facts, submitter } = await this.submissionFacts(submissionId, tx);
      const check = conflicts(profile, facts.authors, submitter);
      if (check.refusal) throw new HttpError(422, check.refusal, { reviewer: check.refusal });
      const today = dayIn(now, settings.timeZone);
      const away =
        profile.unavailableUntil && profile.unavailableUntil >= today
          ? `The reviewer said they are unavailable until ${formatDay(profile.unavailableUntil)}.`
          : null;
      const warning = [check.warning, away].filter(Boolean).join(' ') || null;
      const [open] = await tx
        .select({ id: reviewAssignments.id })
        .from(reviewAssignments)
        .where(
          and(
            eq(reviewAssignments.roundId, round.id),
            eq(reviewAssignments.profileId, profile.id),
            inArray(reviewAssignments.state, ['invited', 'accepted', 'submitted', 'cancelled']),
          ),
        );
      if (open) {
        throw conflict(
          'This reviewer already has an assignment in this round (reinstate it if it was cancelled; invite again only after a decline).',
        );
      }
      const responseDue = input.responseDue ?? defaultDueDay(now, settings.respondDays, settings.timeZone);
      const reviewDue =
        input.reviewDue ?? defaultDueDay(now, settings.respondDays + settings.reviewDays, settings.timeZone);
      if (reviewDue < responseDue) {
        throw badRequest('The review cannot be due before the answer to the invitation.', {
          reviewDue: 'The review cannot be due before the answer to the invitation.',
        });
      }
      const [a] = await tx
        .insert(reviewAssignments)
        .values({
          roundId: round.id,
          submissionId,
          profileId: profile.id,
          responseDue,
          reviewDue,
          linkNonce: randomBytes(16).toString('base64url'),
          warning,
          invitedAt: new Date(now),
        })
        .returning();
      await this.deps.audit.record(
        tx,
        actor,
        'review.invite',
        { type: 'review_assignment', id: a.id },
        {
          submissionId,
          round: round.number,
          profileId: profile.id,
        },
      );
      const { link, token } = this.linkFor(a);
      await this.deps.send(
        invitationMail({
          to: profile.email,
          name: profile.name,
          link,
          responseDue,
          reviewDue,
          zone: settings.timeZone,
          mode: round.mode,
          round: round.number,
          message: input.message,
          reference: facts.reference,
          title: facts.title,
          abstract: facts.abstract,
          articleType: facts.articleType,
          keywords: facts.keywords,
          // Never in an anonymous mode: the authors are on the assignment's page when the mode allows.
          authors:
            round.mode === 'open'
              ? facts.authors.map((x) => ({ name: x.name, affiliation: x.affiliation }))
              : null,
          journal: journal.name,
        }),
        { submissionId, secrets: [token], tx },
      );
      await this.assignmentsChanged(tx);
      return { id: a.id, warning };
    });
    return { assignmentId: result.id, warning: result.warning, review: await this.editorView(submissionId) };
  }

  /** The profile an invitation names: found or made (an account's details, or the name and e-mail typed). */
  private async profileFor(tx: Tx, input: InviteInput): Promise<ProfileRow> {
    if (input.profileId !== undefined) {
      const [p] = await tx.select().from(reviewerProfiles).where(eq(reviewerProfiles.id, input.profileId));
      if (!p) throw notFound('No such reviewer in the pool.');
      return p;
    }
    let account: typeof users.$inferSelect | undefined;
    if (input.userId !== undefined) {
      [account] = await tx.select().from(users).where(eq(users.id, input.userId));
      if (!account) throw notFound('No such account.');
    } else {
      [account] = await tx.select().from(users).where(sql`lower(${users.email}) = lower(${input.email!})`);
    }
    const email = account?.email ?? input.email!;
    const [existing] = await tx
      .select()
      .from(reviewerProfiles)
      .where(
        account
          ? sql`${reviewerProfiles.userId} = ${account.id} or lower(${reviewerProfiles.email}) = lower(${email})`
          : sql`lower(${reviewerProfiles.email}) = lower(${email})`,
      )
      .limit(1);
    if (existing) {
      if (account && existing.userId === null) {
        const [linked] = await tx
          .update(reviewerProfiles)
          .set({ userId: account.id })
          .where(eq(reviewerProfiles.id, existing.id))
          .returning();
        return linked;
      }
      return existing;
    }
    const [created] = await tx
      .insert(reviewerProfiles)
      .values({
        userId: account?.id ?? null,
        name: account?.fullName ?? input.name!,
        email,
        affiliation: input.affiliation ?? account?.institution ?? '',
        orcid: account?.orcid ?? null,
        createdAt: this.deps.clock.date(),
      })
      .returning();
    return created;
  }

  // ---- The reviewer's side -------------------------------------------------------------------------------

  /**
   * The assignment a reviewer opens: by the link's token (verified by recomputing; it opens this assignment
   * only, and nothing once it is declined, cancelled or its round decided), or by the signed-in reviewer's
   * own account. Anything else is "not found".
   */
  private async reach(access: ReviewerAccess, id: number, tx: Tx = this.db) {
    const [row] = await tx
      .select({ a: reviewAssignments, p: reviewerProfiles, r: reviewRounds })
      .from(reviewAssignments)
      .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
      .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
      .where(eq(reviewAssignments.id, id));
    if ('token' in access) {
      if (
        !row ||
        ReviewLinks.idOf(access.token) !== id ||
        !this.links.verify(access.token, id, row.a.linkNonce)
      ) {
        throw notFound(NO_ASSIGNMENT);
      }
      if (row.a.state === 'declined' || row.a.state === 'cancelled' || row.r.decidedAt) {
        throw new HttpError(410, ACCESS_CLOSED);
      }
    } else if (!row || row.p.userId === null || row.p.userId !== access.user.id) {
      throw notFound(NO_ASSIGNMENT);
    }
    return row!;
  }

  /**
   * The assignment a reviewer is about to change (answer, draft, attachment, submit): only while its round is
   * undecided. The link no longer opens a decided round at all (410); a signed-in reviewer still reads it,
   * and is refused here with a sentence (409) whatever the way in.
   */
  private async reachOpen(access: ReviewerAccess, id: number, tx: Tx, what: keyof typeof ROUND_DECIDED) {
    const row = await this.reach(access, id, tx);
    if (row.r.decidedAt) throw conflict(ROUND_DECIDED[what]);
    return row;
  }

  /** The reviewer's view (see present.ts): the invitation, then files and the review once accepted. */
  async view(access: ReviewerAccess, id: number) {
    const { a, p, r } = await this.reach(access, id);
    const settings = await this.reviewSettings();
    const { facts } = await this.submissionFacts(a.submissionId);
    const files = await this.reviewerFiles(r);
    return reviewerView(
      facts,
      await this.roundFacts(r),
      this.assignmentFacts(a, p, settings.timeZone),
      files,
      settings.timeZone,
    );
  }

  /**
   * The round's files as a reviewer sees them, under generic names (an original's name may name its author)
   * made from each file's own role and type: `manuscript-round-1.docx`, `supplementary-round-1.zip`. The
   * role is the submission's record of the file (manuscript or additional); a file that is not one of the
   * author's uploads (a copy made for reviewers without its document properties, or one the editor chose) is
   * named by its type, as the upload rules allow (a manuscript is Word or PDF, an additional file a ZIP).
   */
  private async reviewerFiles(r: RoundRow) {
    if (!r.reviewerFileIds.length) return [];
    const [rows, roles] = await Promise.all([
      this.db.select().from(storedFiles).where(inArray(storedFiles.id, r.reviewerFileIds)),
      this.db
        .select({ fileId: submissionFiles.fileId, kind: submissionFiles.kind })
        .from(submissionFiles)
        .where(
          and(
            eq(submissionFiles.submissionId, r.submissionId),
            inArray(submissionFiles.fileId, r.reviewerFileIds),
          ),
        ),
    ]);
    const files = r.reviewerFileIds
      .map((id) => rows.find((f) => f.id === id))
      .filter((f) => f !== undefined)
      .map((f) => {
        const ext = extensionFor(f.mediaType, f.originalName);
        const kind = roles.find((x) => x.fileId === f.id)?.kind ?? (ext === '.zip' ? 'additional' : 'manuscript');
        return { f, ext, role: kind === 'manuscript' ? 'manuscript' : 'supplementary' };
      });
    const seen = new Map<string, number>();
    return files.map(({ f, ext, role }) => {
      const n = (seen.get(role) ?? 0) + 1;
      seen.set(role, n);
      return {
        id: f.id,
        name: `${role}${n > 1 ? `-${n}` : ''}-round-${r.number}${ext}`,
        size: f.size,
        mediaType: f.mediaType,
      };
    });
  }

  /** A round file, for a reviewer who accepted (404 for anything else). */
  async file(access: ReviewerAccess, id: number, fileId: number) {
    const { a, r } = await this.reach(access, id);
    if (a.state !== 'accepted' && a.state !== 'submitted') {
      throw new HttpError(
        403,
        'The files of the manuscript can be downloaded once you accept the invitation.',
      );
    }
    const files = await this.reviewerFiles(r);
    const shown = files.find((f) => f.id === fileId);
    if (!shown) throw notFound('File not found.');
    const file = await this.deps.files.get(fileId);
    return { name: shown.name, file };
  }

  /** Every assignment of the signed-in account, newest first, with its status and due dates. */
  async mine(user: SessionUser) {
    const settings = await this.reviewSettings();
    const rows = await this.db
      .select({
        a: reviewAssignments,
        r: reviewRounds,
        title: submissions.title,
        reference: submissions.reference,
      })
      .from(reviewAssignments)
      .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
      .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
      .innerJoin(submissions, eq(submissions.id, reviewAssignments.submissionId))
      .where(eq(reviewerProfiles.userId, user.id))
      .orderBy(desc(reviewAssignments.invitedAt), desc(reviewAssignments.id));
    return rows.map(({ a, r, title, reference }) => ({
      id: a.id,
      reference,
      title,
      round: r.number,
      mode: r.mode,
      state: a.state,
      status: assignmentStatus(a, this.deps.clock.now(), settings.timeZone),
      responseDue: a.responseDue,
      reviewDue: a.reviewDue,
      submittedAt: a.submittedAt?.toISOString() ?? null,
      roundDecided: r.decidedAt !== null,
    }));
  }

  /**
   * The header's "Reviews" link: shown to every reviewer, that is every account with a reviewer profile (made
   * when they are first invited, or when they fill it in), with a count of the assignments that wait for them
   * (invited or accepted, in a round not yet decided). One query: the root layout asks on every page.
   */
  async reviewing(userId: number): Promise<{ reviewer: boolean; open: number }> {
    const [row] = await this.db
      .select({
        profiles: sql<number>`count(distinct ${reviewerProfiles.id})::int`,
        open: sql<number>`count(${reviewAssignments.id}) filter (where ${reviewAssignments.state} in ('invited', 'accepted') and ${reviewRounds.decidedAt} is null)::int`,
      })
      .from(reviewerProfiles)
      .leftJoin(reviewAssignments, eq(reviewAssignments.profileId, reviewerProfiles.id))
      .leftJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
      .where(eq(reviewerProfiles.userId, userId));
    return { reviewer: row.profiles > 0, open: row.open };
  }

  /** Moves an assignment by the state machine, under a row lock; refuses (409) a move it does not allow. */
  private async move(tx: Tx, a: AssignmentRow, action: AssignmentAction, set: Partial<AssignmentRow>) {
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

  /**
   * The reviewer accepts. A person invited by name and e-mail gets an account then (approved, researcher)
   * with a link to choose a password; an account with their address made since is linked instead.
   */
  async accept(access: ReviewerAccess, id: number) {
    const now = this.deps.clock.date();
    const journal = await this.journal();
    await this.db.transaction(async (tx) => {
      const { a, p } = await this.reachOpen(access, id, tx, 'answer');
      await this.move(tx, a, 'accept', { respondedAt: now });
      if (p.userId === null) await this.createReviewerAccount(tx, p, journal.name, a.submissionId);
      await this.deps.audit.record(
        tx,
        actorOf(access),
        'review.accept',
        { type: 'review_assignment', id },
        {},
      );
      await this.tellEditors(tx, a, p, 'accepted');
      await this.assignmentsChanged(tx);
    });
    return this.view(access, id);
  }

  /** Tells the editorial office that a reviewer answered or submitted (editors see reviewer names). */
  private async tellEditors(
    tx: Tx,
    a: AssignmentRow,
    p: ProfileRow,
    what: 'accepted' | 'declined' | 'submitted',
    extra: { detail?: string; recommendation?: AssignmentRow['recommendation'] } = {},
  ) {
    const { facts } = await this.submissionFacts(a.submissionId, tx);
    await this.deps.send(
      editorNoticeMail({
        to: this.deps.editorialEmail,
        reviewer: `${p.name} <${p.email}>`,
        what,
        ...extra,
        reference: facts.reference,
        title: facts.title,
        journal: (await this.journal()).name,
        publicUrl: this.deps.publicUrl,
        submissionId: a.submissionId,
      }),
      { submissionId: a.submissionId, secrets: [], tx },
    );
  }

  private async createReviewerAccount(tx: Tx, p: ProfileRow, journal: string, submissionId: number) {
    const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = lower(${p.email})`);
    if (existing) {
      await tx.update(reviewerProfiles).set({ userId: existing.id }).where(eq(reviewerProfiles.id, p.id));
      return;
    }
    const base =
      p.email
        .split('@')[0]
        .toLowerCase()
        .replace(/[^a-z0-9_.-]+/g, '')
        .slice(0, 24) || 'reviewer';
    const taken = await tx
      .select({ u: users.username })
      .from(users)
      .where(sql`lower(${users.username}) like ${`${base.replace(/[%_\\]/g, '\\$&')}%`}`);
    const names = new Set(taken.map((t) => t.u.toLowerCase()));
    let username = base.length >= 3 ? base : `${base}-reviewer`;
    for (let n = 2; names.has(username); n++) username = `${base}${n}`;
    const now = this.deps.clock.now();
    const [user] = await tx
      .insert(users)
      .values({
        username,
        // Nobody knows this password: the reviewer chooses theirs from the link.
        passwordHash: await hashPassword(randomBytes(32).toString('base64url')),
        email: p.email,
        fullName: p.name,
        contactNumber: '',
        institution: p.affiliation,
        orcid: p.orcid,
        role: 'researcher',
        status: 'approved',
        createdAt: new Date(now),
        updatedAt: new Date(now),
      })
      .returning();
    await tx.update(reviewerProfiles).set({ userId: user.id }).where(eq(reviewerProfiles.id, p.id));
    const { token, hash } = newLinkSecret();
    await tx.insert(passwordResets).values({
      userId: user.id,
      tokenHash: hash,
      createdAt: new Date(now),
      expiresAt: new Date(now + NEW_ACCOUNT_LINK_MS),
    });
    await this.deps.audit.record(
      tx,
      null,
      'review.account.create',
      { type: 'user', id: user.id },
      { username },
    );
    await this.deps.send(
      newAccountMail({
        to: p.email,
        name: p.name,
        username,
        journal,
        link: `${this.deps.publicUrl}/reset-password?${new URLSearchParams({ token })}`,
      }),
      { submissionId, secrets: [token], tx },
    );
  }

  /** The reviewer declines with a reason, and may suggest someone else (the editor sees both). */
  async decline(access: ReviewerAccess, id: number, input: DeclineInput) {
    await this.db.transaction(async (tx) => {
      const { a, p } = await this.reachOpen(access, id, tx, 'answer');
      await this.move(tx, a, 'decline', {
        respondedAt: this.deps.clock.date(),
        declineReason: input.reason,
        declineComment: input.comment,
        suggestedReviewer: input.suggestion,
      });
      await this.deps.audit.record(
        tx,
        actorOf(access),
        'review.decline',
        { type: 'review_assignment', id },
        { reason: input.reason },
      );
      await this.tellEditors(tx, a, p, 'declined', {
        detail: [
          `Reason: ${DECLINE_REASON_LABELS[input.reason]}`,
          input.comment ? `Comment: ${input.comment}` : '',
          input.suggestion ? `Suggested reviewer: ${input.suggestion}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      });
      await this.assignmentsChanged(tx);
    });
    return { message: 'Thank you for letting us know. The editors have been told.' };
  }

  /** Saves the review as a draft (any part, any number of times, the same result for the same input). */
  async saveDraft(access: ReviewerAccess, id: number, draft: ReviewDraft, attachment?: CheckedUpload) {
    const write = async (tx: Tx, fileId?: number) => {
      const { a, r } = await this.reachOpen(access, id, tx, 'review');
      assertWritable(a);
      if (draft.answers) {
        const problems = answerProblems(await this.questionsOf(r.formId, tx), draft.answers, {
          complete: false,
        });
        if (Object.keys(problems).length) throw badRequest(Object.values(problems)[0], problems);
      }
      if (draft.publishAgreed && r.mode !== 'open') {
        throw badRequest('Reviews can be published only in open review.', {
          publishAgreed: 'Only in open review.',
        });
      }
      await tx
        .update(reviewAssignments)
        .set({
          ...(draft.recommendation !== undefined ? { recommendation: draft.recommendation } : {}),
          ...(draft.commentsForAuthor !== undefined ? { commentsForAuthor: draft.commentsForAuthor } : {}),
          ...(draft.confidentialComments !== undefined
            ? { confidentialComments: draft.confidentialComments }
            : {}),
          ...(draft.answers !== undefined ? { answers: draft.answers } : {}),
          ...(draft.publishAgreed !== undefined ? { publishAgreed: draft.publishAgreed } : {}),
          ...(fileId !== undefined ? { attachmentFileId: fileId } : {}),
          draftSavedAt: this.deps.clock.date(),
        })
        .where(and(eq(reviewAssignments.id, id), eq(reviewAssignments.state, 'accepted')));
    };
    if (attachment) await this.deps.files.withStoredFiles([attachment], (tx, [f]) => write(tx, f.id));
    else await this.db.transaction((tx) => write(tx));
    return this.view(access, id);
  }

  /** Submits the review once (with any last changes): complete by the form's rules, then read-only. */
  async submit(access: ReviewerAccess, id: number, draft: ReviewDraft) {
    await this.saveDraft(access, id, draft);
    await this.db.transaction(async (tx) => {
      const { a, p, r } = await this.reachOpen(access, id, tx, 'review');
      const problems: Record<string, string> = answerProblems(
        await this.questionsOf(r.formId, tx),
        a.answers,
        {
          complete: true,
        },
      );
      if (!a.recommendation) problems.recommendation = 'Choose a recommendation.';
      if (!a.commentsForAuthor.trim()) problems.commentsForAuthor = 'Write your comments for the author.';
      if (Object.keys(problems).length) throw badRequest(Object.values(problems)[0], problems);
      await this.move(tx, a, 'submit', { submittedAt: this.deps.clock.date() });
      await this.deps.audit.record(
        tx,
        actorOf(access),
        'review.submit',
        { type: 'review_assignment', id },
        {},
      );
      await this.tellEditors(tx, a, p, 'submitted', {
        recommendation: a.recommendation,
      });
      await this.assignmentsChanged(tx);
      await this.reviewsChanged(tx, { submissionId: a.submissionId });
      return a.submissionId;
    });
    return this.view(access, id);
  }

  /**
   * Removes the draft's attached file (the reviewer chose the wrong one, or no longer wants to send one). Its
   * stored file is left as a replaced attachment's is: nothing names it any more, nobody can download it.
   */
  async removeAttachment(access: ReviewerAccess, id: number) {
    await this.db.transaction(async (tx) => {
      const { a } = await this.reachOpen(access, id, tx, 'review');
      assertWritable(a);
      if (!a.attachmentFileId) throw notFound('This review has no attached file.');
      await tx
        .update(reviewAssignments)
        .set({ attachmentFileId: null, draftSavedAt: this.deps.clock.date() })
        .where(and(eq(reviewAssignments.id, id), eq(reviewAssignments.state, 'accepted')));
    });
    return this.view(access, id);
  }

  /** The review's attached file, for its reviewer. */
  async attachment(access: ReviewerAccess, id: number) {
    const { a } = await this.reach(access, id);
    if (!a.attachmentFileId) throw notFound('This review has no attached file.');
    const file = await this.deps.files.get(a.attachmentFileId);
    return { name: `review-${id}${extensionOf(file.originalName)}`, file };
  }

  // ---- Reviewer profiles ---------------------------------------------------------------------------------

  /** The signed-in account's reviewer profile (made from the account the first time). */
  async profile(user: SessionUser) {
    const [p] = await this.db.select().from(reviewerProfiles).where(eq(reviewerProfiles.userId, user.id));
    if (p) return presentProfile(p);
    const [u] = await this.db.select().from(users).where(eq(users.id, user.id));
    return {
      name: u.fullName,
      email: u.email,
      affiliation: u.institution,
      interests: [] as string[],
      orcid: u.orcid,
      unavailableUntil: null,
    };
  }

  /**
   * Saves the signed-in account's reviewer profile. Interests are the journal's areas; "unavailable until"
   * is today or later in the journal's time zone (a past day would change nothing), unless it is the day
   * already saved (a profile saved again after its day has passed is not refused for it).
   */
  async saveProfile(user: SessionUser, input: ReviewerProfileInput) {
    const journal = await this.journal();
    const unknown = input.interests.filter((i) => !journal.areas.includes(i));
    if (unknown.length) {
      throw badRequest(`Choose areas of interest from the journal's areas (not "${unknown[0]}").`, {
        interests: "Choose areas of interest from the journal's list.",
      });
    }
    const today = dayIn(this.deps.clock.now(), journal.review.timeZone);
    if (input.unavailableUntil && input.unavailableUntil < today) {
      const saved = await this.profile(user);
      if (saved.unavailableUntil !== input.unavailableUntil) {
        const past =
          'Unavailable until: choose today or a later day, or leave it empty if you are available.';
        throw badRequest(past, { unavailableUntil: past });
      }
    }
    const values = {
      name: input.name,
      affiliation: input.affiliation,
      interests: input.interests,
      orcid: input.orcid ?? null,
      unavailableUntil: input.unavailableUntil ?? null,
    };
    await this.db.transaction(async (tx) => {
      const [p] = await tx
        .select()
        .from(reviewerProfiles)
        .where(
          sql`${reviewerProfiles.userId} = ${user.id} or lower(${reviewerProfiles.email}) = lower(${user.email})`,
        )
        .limit(1);
      if (p)
        await tx
          .update(reviewerProfiles)
          .set({ ...values, userId: user.id })
          .where(eq(reviewerProfiles.id, p.id));
      else
        await tx
          .insert(reviewerProfiles)
          .values({ ...values, userId: user.id, email: user.email, createdAt: this.deps.clock.date() });
      await this.assignmentsChanged(tx);
      if (p) await this.reviewsChanged(tx, { profileId: p.id });
    });
    return this.profile(user);
  }

  // ---- The editor's side ---------------------------------------------------------------------------------

  /** A submission's rounds (in order) and its assignments with their reviewers (oldest first). */
  private async roundsOf(submissionId: number) {
    const rounds = await this.db
      .select()
      .from(reviewRounds)
      .where(eq(reviewRounds.submissionId, submissionId))
      .orderBy(asc(reviewRounds.number));
    const rows = await this.db
      .select({ a: reviewAssignments, p: reviewerProfiles })
      .from(reviewAssignments)
      .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
      .where(eq(reviewAssignments.submissionId, submissionId))
      .orderBy(asc(reviewAssignments.id));
    return { rounds, rows };
  }

  /** Every round of a submission with its assignments and reviews side by side (editors see everything). */
  async editorView(submissionId: number) {
    const settings = await this.reviewSettings();
    const [exists] = await this.db
      .select({ id: submissions.id })
      .from(submissions)
      .where(eq(submissions.id, submissionId));
    if (!exists) throw notFound('Submission not found.');
    const { rounds, rows } = await this.roundsOf(submissionId);
    const now = this.deps.clock.now();
    const modes = new Map(rounds.map((r) => [r.id, r.mode]));
    const warnings = new Map(
      await Promise.all(
        rows
          .filter(({ a }) => a.submittedAt && a.attachmentFileId)
          .map(async ({ a }) => [a.id, await this.attachmentWarning(a, modes.get(a.roundId)!)] as const),
      ),
    );
    return {
      timeZone: settings.timeZone,
      rounds: await Promise.all(
        rounds.map(async (r) => ({
          id: r.id,
          number: r.number,
          version: r.version,
          mode: r.mode,
          questions: await this.questionsOf(r.formId),
          reviewerFileIds: r.reviewerFileIds,
          authorResponse: r.authorResponse,
          decision: r.decision,
          decidedAt: r.decidedAt?.toISOString() ?? null,
          revisionDue: r.revisionDue,
          assignments: rows
            .filter(({ a }) => a.roundId === r.id)
            .map(({ a, p }) => ({
              id: a.id,
              reviewer: {
                profileId: p.id,
                userId: p.userId,
                name: p.name,
                email: p.email,
                affiliation: p.affiliation,
                orcid: p.orcid,
              },
              state: a.state,
              status: assignmentStatus(a, now, settings.timeZone),
              warning: a.warning,
              responseDue: a.responseDue,
              reviewDue: a.reviewDue,
              invitedAt: a.invitedAt.toISOString(),
              respondedAt: a.respondedAt?.toISOString() ?? null,
              submittedAt: a.submittedAt?.toISOString() ?? null,
              declineReason: a.declineReason,
              declineComment: a.declineComment,
              suggestedReviewer: a.suggestedReviewer,
              recommendation: a.submittedAt ? a.recommendation : null,
              commentsForAuthor: a.submittedAt ? a.commentsForAuthor : null,
              confidentialComments: a.submittedAt ? a.confidentialComments : null,
              answers: a.submittedAt ? a.answers : null,
              hasAttachment: a.submittedAt !== null && a.attachmentFileId !== null,
              attachmentProperties: warnings.get(a.id) ?? null,
              publishAgreed: a.publishAgreed,
              readAt: a.readAt?.toISOString() ?? null,
              thankedAt: a.thankedAt?.toISOString() ?? null,
              sharedAt: a.sharedAt?.toISOString() ?? null,
              rating: a.rating,
            })),
        })),
      ),
    };
  }

  private async editorAssignment(tx: Tx, id: number) {
    const [row] = await tx
      .select({ a: reviewAssignments, p: reviewerProfiles, r: reviewRounds })
      .from(reviewAssignments)
      .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
      .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
      .where(eq(reviewAssignments.id, id));
    if (!row) throw notFound(NO_ASSIGNMENT);
    return row;
  }

  /** Sends a notice about an assignment to its reviewer, in the transaction. */
  private async notify(
    tx: Tx,
    row: { a: AssignmentRow; p: ProfileRow },
    what: Parameters<typeof assignmentNoticeMail>[0]['what'],
    extra: { decision?: string; withLink?: boolean; dates?: boolean } = {},
  ) {
    const settings = await this.reviewSettings();
    const { facts } = await this.submissionFacts(row.a.submissionId, tx);
    const { link, token } = this.linkFor(row.a);
    await this.deps.send(
      assignmentNoticeMail({
        to: row.p.email,
        name: row.p.name,
        what,
        reference: facts.reference,
        title: facts.title,
        journal: (await this.journal()).name,
        zone: settings.timeZone,
        ...(extra.dates
          ? {
              responseDue: row.a.state === 'invited' ? row.a.responseDue : undefined,
              reviewDue: row.a.reviewDue,
            }
          : {}),
        ...(extra.withLink ? { link } : {}),
        decision: extra.decision,
      }),
      { submissionId: row.a.submissionId, secrets: extra.withLink ? [token] : [], tx },
    );
  }

  /** Cancels an invitation or an accepted assignment (the reviewer is told; the link stops opening it). */
  async cancel(actor: Actor, id: number) {
    return this.editorAction(actor, id, 'review.cancel', async (tx, row) => {
      const { after } = await this.move(tx, row.a, 'cancel', {
        cancelledFrom: row.a.state,
        cancelledAt: this.deps.clock.date(),
      });
      await this.notify(tx, { a: after, p: row.p }, 'cancelled');
    });
  }

  /** Reinstates a cancelled assignment where it was, with a fresh link (the old one stays dead). */
  async reinstate(actor: Actor, id: number) {
    return this.editorAction(actor, id, 'review.reinstate', async (tx, row) => {
      if (row.r.decidedAt)
        throw conflict('The round is decided: invite the reviewer in the new round instead.');
      const { after } = await this.move(tx, row.a, 'reinstate', {
        cancelledFrom: null,
        cancelledAt: null,
        linkNonce: randomBytes(16).toString('base64url'),
      });
      await this.notify(tx, { a: after, p: row.p }, 'reinstated', { withLink: true });
    });
  }

  /** Sets or extends the due dates; the reviewer is told the new dates. */
  async setDueDates(actor: Actor, id: number, input: { responseDue?: string; reviewDue?: string }) {
    // A new date is never in the past (read outside the transaction: one connection on PGlite).
    const today = dayIn(this.deps.clock.now(), (await this.reviewSettings()).timeZone);
    const past = {
      ...(input.responseDue && input.responseDue < today
        ? { responseDue: 'The response cannot be due before today.' }
        : {}),
      ...(input.reviewDue && input.reviewDue < today
        ? { reviewDue: 'The review cannot be due before today.' }
        : {}),
    };
    if (Object.keys(past).length) throw badRequest(Object.values(past)[0], past);
    return this.editorAction(actor, id, 'review.dates', async (tx, row) => {
      if (row.a.state !== 'invited' && row.a.state !== 'accepted') {
        throw conflict('Due dates can be changed only while the reviewer has yet to answer or to submit.');
      }
      if (input.responseDue && row.a.state !== 'invited') {
        throw badRequest('The reviewer has already answered: only the review due date can change.', {
          responseDue: 'Already answered.',
        });
      }
      const responseDue = input.responseDue ?? row.a.responseDue;
      const reviewDue = input.reviewDue ?? row.a.reviewDue;
      if (reviewDue < responseDue) {
        throw badRequest('The review cannot be due before the answer to the invitation.', {
          reviewDue: 'The review cannot be due before the answer to the invitation.',
        });
      }
      const [after] = await tx
        .update(reviewAssignments)
        .set({ responseDue, reviewDue })
        .where(eq(reviewAssignments.id, id))
        .returning();
      await this.notify(tx, { a: after, p: row.p }, 'dates', { withLink: true, dates: true });
    });
  }

  /** "Remind now": a reminder of the answer or the review, recorded like the automatic ones. */
  async remindNow(actor: Actor, id: number) {
    return this.editorAction(actor, id, 'review.remind', async (tx, row) => {
      const kind: ReminderKind | null =
        row.a.state === 'invited' ? 'response' : row.a.state === 'accepted' ? 'review' : null;
      if (!kind || row.r.decidedAt)
        throw conflict('Only a reviewer who has yet to answer or to submit can be reminded.');
      const now = this.deps.clock.date();
      // At most one reminder a day for one assignment, manual or automatic (decision 0038). The assignment's
      // row is locked first, so two editors (or two processes) pressing at once send one.
      await tx.execute(sql`select 1 from ${reviewAssignments} where ${reviewAssignments.id} = ${id} for update`);
      const [last] = await tx
        .select({ sentAt: reviewReminders.sentAt })
        .from(reviewReminders)
        .where(
          and(
            inArray(reviewReminders.kind, ['response', 'review']),
            eq(reviewReminders.subjectId, id),
            eq(reviewReminders.mailed, true),
            gt(reviewReminders.sentAt, new Date(now.getTime() - DAY)),
          ),
        )
        .orderBy(desc(reviewReminders.sentAt))
        .limit(1);
      if (last) {
        const next = last.sentAt.getTime() + DAY;
        throw tooManyAttempts(
          `This reviewer was already reminded of this assignment at ${last.sentAt.toISOString().slice(0, 16).replace('T', ' ')} UTC: one reminder a day at most, the next from ${new Date(next).toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
          next - now.getTime(),
        );
      }
      await tx
        .insert(reviewReminders)
        .values({ kind, subjectId: id, offsetDays: null, dueAt: now, sentAt: now });
      const settings = await this.reviewSettings();
      await this.mailReminder(tx, {
        kind,
        a: row.a,
        p: row.p,
        overdue: now >= this.due(row.a, kind, settings.timeZone),
        manual: true,
      });
    });
  }

  private due(a: AssignmentRow, kind: 'response' | 'review', zone: string) {
    return dueInstant(kind === 'response' ? a.responseDue : a.reviewDue, zone);
  }

  private async mailReminder(
    tx: Tx,
    o: {
      kind: 'response' | 'review';
      a: Pick<AssignmentRow, 'id' | 'linkNonce' | 'submissionId' | 'responseDue' | 'reviewDue'>;
      p: Pick<ProfileRow, 'name' | 'email'>;
      overdue: boolean;
      /** An editor's "remind now" (see ReviewSend's `manual`). */
      manual?: boolean;
    },
  ) {
    const settings = await this.reviewSettings();
    const { facts } = await this.submissionFacts(o.a.submissionId, tx);
    const { link, token } = this.linkFor(o.a);
    await this.deps.send(
      reminderMail({
        to: o.p.email,
        name: o.p.name,
        kind: o.kind,
        due: o.kind === 'response' ? o.a.responseDue : o.a.reviewDue,
        zone: settings.timeZone,
        overdue: o.overdue,
        link,
        reference: facts.reference,
        title: facts.title,
        journal: (await this.journal()).name,
      }),
      { submissionId: o.a.submissionId, secrets: [token], tx, manual: o.manual },
    );
  }

  /** Marks a submitted review as read by the editors. */
  async markRead(actor: Actor, id: number) {
    return this.editorAction(actor, id, 'review.read', async (tx, row) => {
      if (row.a.state !== 'submitted') throw conflict('Only a submitted review can be marked as read.');
      await tx
        .update(reviewAssignments)
        .set({ readAt: this.deps.clock.date() })
        .where(eq(reviewAssignments.id, id));
    });
  }

  /** Thanks the reviewer for a submitted review (an e-mail). */
  async thank(actor: Actor, id: number) {
    return this.editorAction(actor, id, 'review.thank', async (tx, row) => {
      if (row.a.state !== 'submitted') throw conflict('A reviewer is thanked for a submitted review.');
      await tx
        .update(reviewAssignments)
        .set({ thankedAt: this.deps.clock.date() })
        .where(eq(reviewAssignments.id, id));
      await this.notify(tx, row, 'thanks');
    });
  }

  /** The editors' private rating of a submitted review (1-5); never shown to reviewers or authors. */
  async rate(actor: Actor, id: number, rating: number) {
    return this.editorAction(actor, id, 'review.rate', async (tx, row) => {
      if (row.a.state !== 'submitted') throw conflict('Only a submitted review can be rated.');
      await tx.update(reviewAssignments).set({ rating }).where(eq(reviewAssignments.id, id));
    });
  }

  private async editorAction(
    actor: Actor,
    id: number,
    action: string,
    work: (tx: Tx, row: Awaited<ReturnType<ReviewService['editorAssignment']>>) => Promise<void>,
  ) {
    const submissionId = await this.db.transaction(async (tx) => {
      const row = await this.editorAssignment(tx, id);
      await work(tx, row);
      await this.deps.audit.record(tx, actor, action, { type: 'review_assignment', id }, {});
      await this.assignmentsChanged(tx);
      return row.a.submissionId;
    });
    return this.editorView(submissionId);
  }

  /** A review's attached file, for editors (and the author once shared: see `authorAttachment`). */
  async editorAttachment(id: number) {
    const row = await this.editorAssignment(this.db, id);
    if (!row.a.attachmentFileId || !row.a.submittedAt) throw notFound('This review has no attached file.');
    const file = await this.deps.files.get(row.a.attachmentFileId);
    return { name: `review-${id}${extensionOf(file.originalName)}`, file };
  }

  // ---- The reviewer pool ---------------------------------------------------------------------------------

  /**
   * Every reviewer with open assignments, completed reviews, median days from acceptance to review, decline
   * rate, last review, average rating, interests and "unavailable until" (while it lasts); searched by name,
   * e-mail, affiliation or interest. One aggregate query (bench/README.md has its time on 20,000 assignments).
   */
  async pool(q?: string) {
    const like = q ? `%${q.replace(/[%_\\]/g, '\\$&')}%` : null;
    // "Unavailable until" is shown while it lasts: up to and including that day, in the journal's time zone.
    const today = dayIn(this.deps.clock.now(), (await this.reviewSettings()).timeZone);
    type PoolRow = {
      id: number;
      user_id: number | null;
      name: string;
      email: string;
      affiliation: string;
      interests: string[];
      orcid: string | null;
      unavailable_until: string | null;
      open: number;
      completed: number;
      median_days: number | null;
      declined: number;
      answered: number;
      last_review: Date | string | null;
      rating: number | null;
    };
    const result = await this.db.execute(sql`
      select p.id, p.user_id, p.name, p.email, p.affiliation, p.interests, p.orcid,
             case when p.unavailable_until >= ${today}::date
               then to_char(p.unavailable_until, 'YYYY-MM-DD') end as unavailable_until,
             count(a.id) filter (where a.state in ('invited', 'accepted'))::int as open,
             count(a.id) filter (where a.state = 'submitted')::int as completed,
             percentile_cont(0.5) within group (
               order by extract(epoch from a.submitted_at - coalesce(a.responded_at, a.invited_at)) / 86400
             ) filter (where a.state = 'submitted') as median_days,
             count(a.id) filter (where a.state = 'declined')::int as declined,
             count(a.id) filter (where a.responded_at is not null)::int as answered,
             max(a.submitted_at) as last_review,
             avg(a.rating)::float as rating
      from reviewer_profiles p
      left join review_assignments a on a.profile_id = p.id
      where ${like} :: text is null
         or p.name ilike ${like} or p.email ilike ${like} or p.affiliation ilike ${like}
         or exists (select 1 from jsonb_array_elements_text(p.interests) i where i ilike ${like})
      group by p.id
      order by lower(p.name), p.id`);
    const rows = (result as unknown as { rows: PoolRow[] }).rows;
    return rows.map((r) => ({
      profileId: r.id,
      userId: r.user_id,
      name: r.name,
      email: r.email,
      affiliation: r.affiliation,
      interests: r.interests,
      orcid: r.orcid,
      unavailableUntil: r.unavailable_until,
      openAssignments: r.open,
      completedReviews: r.completed,
      medianDaysToComplete: r.median_days === null ? null : Math.round(Number(r.median_days) * 10) / 10,
      declineRate: r.answered ? Math.round((r.declined / r.answered) * 100) / 100 : null,
      lastReviewAt: r.last_review ? new Date(r.last_review).toISOString() : null,
      averageRating: r.rating === null ? null : Math.round(Number(r.rating) * 10) / 10,
    }));
  }

  // ---- Review forms --------------------------------------------------------------------------------------

  async forms() {
    const rows = await this.db
      .select()
      .from(reviewForms)
      .where(eq(reviewForms.retired, false))
      .orderBy(desc(reviewForms.id));
    return rows.map(presentForm);
  }

  async createForm(actor: Actor, input: ReviewFormInput) {
    const [row] = await this.db.transaction(async (tx) => {
      const created = await tx
        .insert(reviewForms)
        .values({ name: input.name, questions: input.questions, createdAt: this.deps.clock.date() })
        .returning();
      await this.deps.audit.record(
        tx,
        actor,
        'review.form.create',
        { type: 'review_form', id: created[0].id },
        {},
      );
      return created;
    });
    return presentForm(row);
  }

  /**
   * Edits a form. A form no round has used yet changes in place; one a round uses keeps its questions for
   * that round: the edit becomes a new version (the old one is retired, new rounds take the new one).
   */
  async updateForm(actor: Actor, id: number, input: ReviewFormInput) {
    const row = await this.db.transaction(async (tx) => {
      const [form] = await tx.select().from(reviewForms).where(eq(reviewForms.id, id)).for('update');
      if (!form) throw notFound('Review form not found.');
      if (form.retired)
        throw conflict('This version of the form has been replaced: edit its newest version.');
      const [used] = await tx
        .select({ id: reviewRounds.id })
        .from(reviewRounds)
        .where(eq(reviewRounds.formId, id))
        .limit(1);
      let result: typeof reviewForms.$inferSelect;
      if (used) {
        await tx.update(reviewForms).set({ retired: true }).where(eq(reviewForms.id, id));
        [result] = await tx
          .insert(reviewForms)
          .values({
            name: input.name,
            questions: input.questions,
            previousId: id,
            createdAt: this.deps.clock.date(),
          })
          .returning();
      } else {
        [result] = await tx
          .update(reviewForms)
          .set({ name: input.name, questions: input.questions })
          .where(eq(reviewForms.id, id))
          .returning();
      }
      await this.deps.audit.record(
        tx,
        actor,
        'review.form.update',
        { type: 'review_form', id: result.id },
        {
          newVersion: Boolean(used),
        },
      );
      return result;
    });
    return presentForm(row);
  }

  // ---- Authors and the public ----------------------------------------------------------------------------

  /** The author's view of their submission's review (present.ts): progress and the reviews shared. */
  async forAuthor(user: SessionUser, submissionId: number) {
    const [s] = await this.db
      .select({ userId: submissions.userId })
      .from(submissions)
      .where(eq(submissions.id, submissionId));
    if (!s || s.userId !== user.id) throw notFound('Submission not found.');
    const settings = await this.reviewSettings();
    const { rounds, rows } = await this.roundsOf(submissionId);
    return {
      timeZone: settings.timeZone,
      rounds: authorView(
        await Promise.all(
          rounds.map(async (r) => ({
            round: await this.roundFacts(r),
            assignments: await Promise.all(
              rows
                .filter(({ a }) => a.roundId === r.id)
                .map(async ({ a, p }) =>
                  this.assignmentFacts(
                    // A file whose names cannot be removed is not the author's to download (the editor is told).
                    a.sharedAt && (await this.attachmentForAuthor(a, r.mode)) === 'withheld'
                      ? { ...a, attachmentFileId: null }
                      : a,
                    p,
                    settings.timeZone,
                  ),
                ),
            ),
          })),
        ),
      ),
    };
  }

  /** A shared review's attached file, for the submission's author (named by its "Reviewer N" label). */
  async authorAttachment(user: SessionUser, submissionId: number, assignmentId: number) {
    const view = await this.forAuthor(user, submissionId);
    const shared = view.rounds
      .flatMap((r) => r.reviews.map((x) => ({ ...x, round: r.round })))
      .find((x) => x.assignmentId === assignmentId);
    if (!shared?.hasAttachment) throw notFound('File not found.');
    const [row] = await this.db
      .select({ a: reviewAssignments, mode: reviewRounds.mode })
      .from(reviewAssignments)
      .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
      .where(eq(reviewAssignments.id, assignmentId));
    const file = await this.attachmentCopyForAuthor(row.a, row.mode);
    const label = `round-${shared.round}-${shared.label.toLowerCase().replace(' ', '-')}`;
    return { name: `${label}${extensionOf(file.originalName)}`, file };
  }

  // ---- A reviewer's attached file and the names in its own properties (decision 0034) ---------------------

  /**
   * What the author may have of a review's attached file: where authors do not see reviewers, the file is
   * checked like a manuscript for reviewers (decision 0024) — as it is when it names no one, a copy without
   * the properties that name the reviewer when they can be removed, nothing when they cannot.
   */
  private async attachmentForAuthor(a: AssignmentRow, mode: RoundRow['mode']) {
    return (await this.attachmentCheck(a, mode)).forAuthor;
  }

  private async attachmentCheck(a: AssignmentRow, mode: RoundRow['mode']) {
    if (!a.attachmentFileId || authorsSeeReviewers(mode))
      return { forAuthor: 'original' as const, scan: null };
    const scan = await this.deps.files
      .personalProperties(await this.deps.files.get(a.attachmentFileId))
      .catch((err: unknown) => ({
        properties: [],
        removable: false,
        problem: { code: 'unreadable' as const, message: (err as Error).message },
      }));
    if (scan.properties.length === 0 && scan.problem === null)
      return { forAuthor: 'original' as const, scan };
    return { forAuthor: scan.removable ? ('copy' as const) : ('withheld' as const), scan };
  }

  /** The editor's warning about a review's attached file: what names the reviewer, and what the author gets. */
  private async attachmentWarning(a: AssignmentRow, mode: RoundRow['mode']) {
    const { forAuthor, scan } = await this.attachmentCheck(a, mode);
    if (forAuthor === 'original' || !scan) return null;
    return {
      properties: scan.properties.map(describeProperty),
      problem: scan.problem?.message ?? null,
      forAuthor,
    };
  }

  /**
   * The stored file the author downloads: the attachment itself, or its copy without the reviewer's names,
   * made the first time and kept (`attachmentAuthorFileId`). 404 when the names cannot be removed.
   */
  private async attachmentCopyForAuthor(a: AssignmentRow, mode: RoundRow['mode']) {
    const forAuthor = await this.attachmentForAuthor(a, mode);
    if (forAuthor === 'original') return this.deps.files.get(a.attachmentFileId!);
    if (forAuthor === 'withheld') throw notFound('File not found.');
    if (a.attachmentAuthorFileId) return this.deps.files.get(a.attachmentAuthorFileId);
    const copy = await this.deps.files.copyWithoutPersonalProperties(
      await this.deps.files.get(a.attachmentFileId!),
      'for-author',
    );
    if (!copy.ok) throw notFound('File not found.');
    return this.deps.files.withStoredFiles([copy.upload], async (tx, [stored]) => {
      const [kept] = await tx
        .update(reviewAssignments)
        .set({ attachmentAuthorFileId: stored.id })
        .where(and(eq(reviewAssignments.id, a.id), isNull(reviewAssignments.attachmentAuthorFileId)))
        .returning({ id: reviewAssignments.attachmentAuthorFileId });
      if (kept) return stored;
      // Made at the same moment by another download: that one is kept, this row stays unnamed.
      const [other] = await tx
        .select({ id: reviewAssignments.attachmentAuthorFileId })
        .from(reviewAssignments)
        .where(eq(reviewAssignments.id, a.id));
      return this.deps.files.get(other.id!);
    });
  }

  /** The agreed open reviews of a published article (404 when no article is published under this id). */
  async articleReviews(articleId: number) {
    const [article] = await this.db
      .select({ submissionId: articles.submissionId })
      .from(articles)
      .where(and(eq(articles.id, articleId), eq(articles.status, 'published')));
    if (!article) throw notFound('Article not found.');
    // A cached page showing them goes with the article's tag (dropped by the catalog when the article is
    // published, changed or withdrawn, and by this service when a review it shows changes).
    dependsOn(articleTag(articleId));
    return article.submissionId ? this.publishedReviews(article.submissionId) : [];
  }

  /**
   * After a committed change that may alter the open reviews shown on published articles (a review
   * submitted, a reviewer's name or ORCID iD): drops the cached pages of the articles of these submissions,
   * or of every article a profile reviewed.
   */
  private async reviewsChanged(tx: Tx, o: { submissionId?: number; profileId?: number }) {
    if (!this.deps.changes) return;
    const rows = await tx
      .select({ id: articles.id })
      .from(articles)
      .where(
        o.submissionId !== undefined
          ? eq(articles.submissionId, o.submissionId)
          : sql`${articles.submissionId} in (select ${reviewAssignments.submissionId} from ${reviewAssignments}
              where ${reviewAssignments.profileId} = ${o.profileId ?? 0} and ${reviewAssignments.publishAgreed})`,
      );
    await this.deps.changes.publish(
      tx,
      rows.map((r) => articleTag(r.id)),
    );
  }

  /** The open reviews whose reviewers agreed to publish them, for a published article's page. */
  async publishedReviews(submissionId: number) {
    const rows = await this.db
      .select({ a: reviewAssignments, p: reviewerProfiles, r: reviewRounds })
      .from(reviewAssignments)
      .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
      .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
      .innerJoin(submissions, eq(submissions.id, reviewAssignments.submissionId))
      .where(
        and(
          eq(reviewAssignments.submissionId, submissionId),
          eq(reviewAssignments.state, 'submitted'),
          eq(reviewAssignments.publishAgreed, true),
          eq(reviewRounds.mode, 'open'),
          eq(submissions.status, 'accepted'),
        ),
      )
      .orderBy(asc(reviewRounds.number), asc(reviewAssignments.id));
    return Promise.all(
      rows.map(async ({ a, p, r }) =>
        publicReview(this.assignmentFacts(a, p, 'UTC'), await this.roundFacts(r)),
      ),
    );
  }

  // ---- Decisions (called by the desk, in its transaction) ------------------------------------------------

  /**
   * The desk's decision, peer review's part, in the decision's transaction: moving to "under review" opens a
   * round; a decision closes the current one (recording minor or major revisions and the author's due day)
   * and shares the chosen reviews; reviewers of a final decision are told (journal setting). Returns the
   * decision's label and the text added to the author's e-mail (shared reviews, the revision's due day).
   */
  async onDecision(
    tx: Tx,
    o: Parameters<ReviewHooks['onDecision']>[1],
  ): Promise<{ mailAppendix: string; label: string; note: string }> {
    const nothing = { mailAppendix: '', label: STATUS_LABELS[o.to], note: '' };
    // A round opens or closes: the header's open-review counts on kept pages go stale at the commit (0025).
    await this.assignmentsChanged(tx);
    if (o.to === 'under_review') {
      await this.openRound(tx, o.submissionId);
      return nothing;
    }
    const confirmed = new Set(o.confirm ?? []);
    const notes: string[] = [];
    if (o.to === 'accepted') {
      // The journal accepts nothing without review: with no review submitted in any round, the editor confirms.
      const [reviewed] = await tx
        .select({ id: reviewAssignments.id })
        .from(reviewAssignments)
        .where(
          and(eq(reviewAssignments.submissionId, o.submissionId), eq(reviewAssignments.state, 'submitted')),
        )
        .limit(1);
      if (!reviewed) {
        needsConfirmation(confirmed, 'accept-without-review');
        notes.push('Accepted without peer review: no reviewer submitted a review in any round (confirmed).');
      }
    }
    const round = await this.currentRound(o.submissionId, tx);
    if (o.shareReviews?.length && (!round || round.decidedAt)) {
      throw conflict('There is no open review round whose reviews could be shared.');
    }
    if (!round || round.decidedAt) {
      const label = o.to === 'revisions_requested' ? revisionLabel(o.revisions) : STATUS_LABELS[o.to];
      return { ...nothing, label, note: notes.join(' ') };
    }
    const settings = await this.reviewSettings();
    const now = this.deps.clock.date();
    const decision =
      o.to === 'revisions_requested'
        ? o.revisions
          ? `${o.revisions}-revisions`
          : 'revisions'
        : o.to === 'accepted'
          ? 'accepted'
          : 'rejected';
    const revisionDue =
      o.to === 'revisions_requested'
        ? (o.authorDue ?? defaultDueDay(now.getTime(), settings.revisionDays, settings.timeZone))
        : null;
    if (revisionDue && revisionDue < dayIn(now.getTime(), settings.timeZone)) {
      throw badRequest('The revision cannot be due before today.', {
        authorDue: 'The revision cannot be due before today.',
      });
    }
    const rows = await tx
      .select({ a: reviewAssignments, p: reviewerProfiles })
      .from(reviewAssignments)
      .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
      .where(eq(reviewAssignments.roundId, round.id))
      .orderBy(asc(reviewAssignments.id));
    const submitted = rows.filter(({ a }) => a.state === 'submitted');
    // Every submitted review goes to the author unless the editor lists the ones to share (issue 22).
    const share = new Set(o.shareReviews ?? submitted.map(({ a }) => a.id));
    for (const id of share) {
      if (!submitted.some(({ a }) => a.id === id)) {
        throw badRequest('Only submitted reviews of the current round can be shared with the author.', {
          shareReviews: 'Choose submitted reviews of this round.',
        });
      }
    }
    const withheld = submitted.length - share.size;
    if (submitted.length && !share.size) needsConfirmation(confirmed, 'withhold-reviews');
    if (withheld) {
      notes.push(
        withheld === submitted.length
          ? `${submitted.length === 1 ? 'The submitted review was' : `All ${submitted.length} submitted reviews were`} withheld from the author (confirmed).`
          : `${withheld} of ${submitted.length} submitted reviews withheld from the author.`,
      );
    }
    await tx
      .update(reviewRounds)
      .set({ decision, decidedAt: now, revisionDue })
      .where(eq(reviewRounds.id, round.id));
    if (share.size) {
      await tx
        .update(reviewAssignments)
        .set({ sharedAt: now })
        .where(inArray(reviewAssignments.id, [...share]));
    }
    const shared = submitted.filter(({ a }) => share.has(a.id));
    const appendix = [
      revisionDue
        ? `Please upload your revised manuscript by ${dueLine(revisionDue, settings.timeZone)}${shared.length ? ', with a response to the reviewers' : ''}.`
        : '',
      shared.length
        ? `The reviewers' comments:\n\n${sharedReviewsText(shared, round.mode, 0)}`
        : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    const final = o.to === 'accepted' || o.to === 'rejected';
    // Everyone who reviewed the manuscript, in any of its rounds, is told once (their latest review's link).
    const told = final && settings.tellReviewersDecision ? await this.reviewersOf(tx, o.submissionId) : [];
    const label = o.to === 'revisions_requested' ? revisionLabel(o.revisions) : STATUS_LABELS[o.to];
    for (const row of told) await this.notify(tx, row, 'decision', { decision: label });
    return { mailAppendix: appendix, label, note: notes.join(' ') };
  }

  /**
   * Shares submitted reviews of a decided round with the author after the decision (issue 22): each review
   * named must be submitted, of a decided round of this submission, and not shared yet. The author is
   * e-mailed their comments, labelled after the ones shared before ("Reviewer 2" follows "Reviewer 1").
   */
  async shareLater(actor: Actor, submissionId: number, assignmentIds: number[]) {
    const journal = await this.journal();
    await this.db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: submissions.id, status: submissions.status })
        .from(submissions)
        .where(eq(submissions.id, submissionId))
        .for('update');
      if (!locked) throw notFound('Submission not found.');
      const rows = await tx
        .select({ a: reviewAssignments, p: reviewerProfiles, r: reviewRounds })
        .from(reviewAssignments)
        .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
        .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
        .where(eq(reviewAssignments.submissionId, submissionId))
        .orderBy(asc(reviewRounds.number), asc(reviewAssignments.id));
      const ids = new Set(assignmentIds);
      const chosen = rows.filter(({ a }) => ids.has(a.id));
      if (chosen.length !== ids.size || chosen.some(({ a }) => a.state !== 'submitted')) {
        throw badRequest('Only submitted reviews of this submission can be shared with the author.', {
          reviews: 'Choose submitted reviews of this submission.',
        });
      }
      if (chosen.some(({ r }) => !r.decidedAt)) {
        throw conflict(
          "The round is not decided yet: its reviews are shared with the author with the decision.",
        );
      }
      if (chosen.some(({ a }) => a.sharedAt)) {
        throw conflict('This review has already been shared with the author.');
      }
      const now = this.deps.clock.date();
      await tx
        .update(reviewAssignments)
        .set({ sharedAt: now })
        .where(inArray(reviewAssignments.id, [...ids]));
      const { facts, submitter } = await this.submissionFacts(submissionId, tx);
      const rounds = [...new Set(chosen.map(({ r }) => r.number))];
      const parts = rounds.map((n) => {
        const inRound = chosen.filter(({ r }) => r.number === n);
        const before = rows.filter(({ a, r }) => r.number === n && a.sharedAt !== null).length;
        const text = sharedReviewsText(inRound, inRound[0].r.mode, before);
        return rounds.length > 1 ? `Round ${n}:\n\n${text}` : text;
      });
      await this.deps.send(
        reviewsSharedMail({
          to: submitter.email,
          name: submitter.name,
          count: chosen.length,
          round: rounds.length === 1 ? rounds[0] : null,
          reviews: parts.join('\n\n---\n\n'),
          revising: locked.status === 'revisions_requested',
          link: `${this.deps.publicUrl}/my-submissions/${submissionId}`,
          reference: facts.reference,
          title: facts.title,
          journal: journal.name,
        }),
        { submissionId, secrets: [], tx },
      );
      await this.deps.audit.record(
        tx,
        actor,
        'review.share',
        { type: 'submission', id: submissionId },
        { sharedReviews: [...ids] },
      );
    });
    return this.editorView(submissionId);
  }

  /** Each reviewer who submitted a review of the submission, in any round, once: with their latest review. */
  private async reviewersOf(tx: Tx, submissionId: number) {
    const rows = await tx
      .select({ a: reviewAssignments, p: reviewerProfiles })
      .from(reviewAssignments)
      .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
      .where(and(eq(reviewAssignments.submissionId, submissionId), eq(reviewAssignments.state, 'submitted')))
      .orderBy(desc(reviewAssignments.id));
    const seen = new Set<number>();
    return rows.filter(({ p }) => !seen.has(p.id) && Boolean(seen.add(p.id))).reverse();
  }

  /** The author's revision arrived: its response to the reviewers goes with the round that follows. */
  async onRevision(tx: Tx, submissionId: number, responseToReviewers: string) {
    const round = await this.currentRound(submissionId, tx);
    if (!round) return;
    await tx
      .update(reviewRounds)
      .set({ authorResponse: responseToReviewers, revisedAt: this.deps.clock.date() })
      .where(eq(reviewRounds.id, round.id));
  }

  // ---- Reminders -----------------------------------------------------------------------------------------

  /**
   * One reminder pass at `now`: every reminder due by now — invitation answers and reviews still awaited,
   * revisions still expected, never for cancelled, declined or submitted assignments or decided rounds, never
   * one that fell due before its assignment began — is claimed by inserting its (kind, subject, offset) row,
   * and its mail queued in the same transaction. A claim that exists already (another process, an earlier
   * pass) is skipped by the unique constraint, so each goes out exactly once; after downtime only the latest
   * of a subject's missed reminders is mailed (the earlier are claimed as not mailed). One set-based
   * statement finds and claims them all.
   */
  async reminderPass(now: Date = this.deps.clock.date()): Promise<{ sent: number }> {
    const settings = await this.reviewSettings();
    const { reminders, timeZone } = settings;
    const journal = (await this.journal()).name;
    const list = (xs: number[]) => sql.raw(`array[${xs.map((x) => Math.trunc(x)).join(',')}]::int[]`);
    return this.db.transaction(async (tx) => {
      type Claim = {
        kind: 'response' | 'review' | 'revision';
        subject_id: number;
        offset_days: number;
        mailed: boolean;
      };
      const result = await tx.execute(sql`
        with due as (
          select 'response' as kind, a.id as subject_id, o.off,
                 ((a.response_due + 1 + o.off)::timestamp at time zone ${timeZone}) as due_at, a.invited_at as since
          from review_assignments a
          join review_rounds r on r.id = a.round_id and r.decided_at is null
          cross join unnest(${list(reminders.response)}) as o(off)
          where a.state = 'invited'
          union all
          select 'review', a.id, o.off,
                 ((a.review_due + 1 + o.off)::timestamp at time zone ${timeZone}), coalesce(a.responded_at, a.invited_at)
          from review_assignments a
          join review_rounds r on r.id = a.round_id and r.decided_at is null
          cross join unnest(${list(reminders.review)}) as o(off)
          where a.state = 'accepted'
          union all
          select 'revision', r.id, o.off,
                 ((r.revision_due + 1 + o.off)::timestamp at time zone ${timeZone}), r.decided_at
          from review_rounds r
          join submissions s on s.id = r.submission_id and s.status = 'revisions_requested'
          cross join unnest(${list(reminders.revision)}) as o(off)
          where r.revision_due is not null and r.revised_at is null
        ),
        ready as (
          select d.*, row_number() over (partition by d.kind, d.subject_id order by d.due_at desc) = 1 as latest
          from due d
          where d.due_at <= ${now.toISOString()}::timestamptz and d.due_at > d.since
            and not exists (
              select 1 from review_reminders x
              where x.kind = d.kind and x.subject_id = d.subject_id and x.offset_days = d.off
            )
        )
        insert into review_reminders (kind, subject_id, offset_days, due_at, mailed, sent_at)
        select kind, subject_id, off, due_at, latest, ${now.toISOString()}::timestamptz from ready
        on conflict do nothing
        returning kind, subject_id, offset_days, mailed`);
      const claimed = (result as unknown as { rows: Claim[] }).rows.filter((c) => c.mailed);
      if (!claimed.length) return { sent: 0 };
      const assignmentIds = claimed.filter((c) => c.kind !== 'revision').map((c) => c.subject_id);
      const roundIds = claimed.filter((c) => c.kind === 'revision').map((c) => c.subject_id);
      const assignments = assignmentIds.length
        ? await tx
            .select({
              a: reviewAssignments,
              p: reviewerProfiles,
              title: submissions.title,
              reference: submissions.reference,
            })
            .from(reviewAssignments)
            .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
            .innerJoin(submissions, eq(submissions.id, reviewAssignments.submissionId))
            .where(inArray(reviewAssignments.id, assignmentIds))
        : [];
      const rounds = roundIds.length
        ? await tx
            .select({
              r: reviewRounds,
              title: submissions.title,
              reference: submissions.reference,
              name: users.fullName,
              email: users.email,
              reviewsShared: sql<boolean>`exists (select 1 from ${reviewAssignments} x
                where x.round_id = ${reviewRounds.id} and x.shared_at is not null)`,
            })
            .from(reviewRounds)
            .innerJoin(submissions, eq(submissions.id, reviewRounds.submissionId))
            .innerJoin(users, eq(users.id, submissions.userId))
            .where(inArray(reviewRounds.id, roundIds))
        : [];
      for (const c of claimed) {
        // From the due day's end on (offset 0 and after), the reminder says it is overdue.
        const overdue = c.offset_days >= 0;
        if (c.kind === 'revision') {
          const row = rounds.find((x) => x.r.id === c.subject_id)!;
          await this.deps.send(
            revisionReminderMail({
              to: row.email,
              name: row.name,
              due: row.r.revisionDue!,
              zone: timeZone,
              overdue,
              publicUrl: this.deps.publicUrl,
              reviewsShared: row.reviewsShared,
              reference: row.reference,
              title: row.title,
              journal,
            }),
            { submissionId: row.r.submissionId, secrets: [], tx },
          );
        } else {
          const row = assignments.find((x) => x.a.id === c.subject_id)!;
          const { link, token } = this.linkFor(row.a);
          await this.deps.send(
            reminderMail({
              to: row.p.email,
              name: row.p.name,
              kind: c.kind,
              due: c.kind === 'response' ? row.a.responseDue : row.a.reviewDue,
              zone: timeZone,
              overdue,
              link,
              reference: row.reference,
              title: row.title,
              journal,
            }),
            { submissionId: row.a.submissionId, secrets: [token], tx },
          );
        }
      }
      return { sent: claimed.length };
    });
  }

  // ---- The desk list's filters ---------------------------------------------------------------------------

  /**
   * The desk list's peer-review filters as a condition on `submissions`: under review and its current round
   * has fewer than two reviewers invited or at work ("needs reviewers"), an open assignment overdue, or
   * every accepted assignment submitted with at least one review ("reviews complete").
   */
  async deskCondition(filter: ReviewFilter) {
    const zone = (await this.reviewSettings()).timeZone;
    const now = this.deps.clock.date();
    const current = sql`(select max(r2.number) from review_rounds r2 where r2.submission_id = ${submissions.id})`;
    const inCurrent = sql`a.round_id = (select r.id from review_rounds r where r.submission_id = ${submissions.id} and r.number = ${current} and r.decided_at is null)`;
    if (filter === 'needs-reviewers') {
      return sql`${submissions.status} in ('under_review') and (select count(*) from review_assignments a where ${inCurrent} and a.state in ('invited', 'accepted', 'submitted')) < 2`;
    }
    if (filter === 'reviews-overdue') {
      return sql`exists (select 1 from review_assignments a where ${inCurrent} and (
        (a.state = 'invited' and ((a.response_due + 1)::timestamp at time zone ${zone}) <= ${now.toISOString()}::timestamptz)
        or (a.state = 'accepted' and ((a.review_due + 1)::timestamp at time zone ${zone}) <= ${now.toISOString()}::timestamptz)))`;
    }
    return sql`exists (select 1 from review_assignments a where ${inCurrent} and a.state = 'submitted')
      and not exists (select 1 from review_assignments a where ${inCurrent} and a.state in ('invited', 'accepted'))`;
  }
}

/** Refuses (409, the sentence saying what to confirm) a decision the editor has not confirmed. */
function needsConfirmation(confirmed: Set<DecisionConfirmation>, what: DecisionConfirmation) {
  if (!confirmed.has(what)) throw conflict(CONFIRMATION_NEEDED[what], { confirm: CONFIRMATION_NEEDED[what] });
}

/**
 * Shared reviews in the author's e-mail: "Reviewer N" (the name only in open review), the recommendation and
 * the comments for the author, numbered after the `before` reviews of the round shared earlier; in the order
 * the author's page shows them (`authorView`).
 */
function sharedReviewsText(
  rows: { a: AssignmentRow; p: ProfileRow }[],
  mode: RoundRow['mode'],
  before: number,
): string {
  return rows
    .map(({ a, p }, i) => {
      const n = before + i + 1;
      const who = authorsSeeReviewers(mode) ? `Reviewer ${n} (${p.name})` : `Reviewer ${n}`;
      const recommendation = a.recommendation
        ? ` — recommendation: ${RECOMMENDATION_LABELS[a.recommendation]}`
        : '';
      const file = a.attachmentFileId
        ? '\n\n(This reviewer attached a file: download it from My submissions.)'
        : '';
      return `${who}${recommendation}\n\n${a.commentsForAuthor}${file}`;
    })
    .join('\n\n---\n\n');
}

/** A draft can change only while the reviewer has accepted and not yet submitted. */
function assertWritable(a: AssignmentRow) {
  if (a.state === 'submitted') throw conflict('This review has been submitted and can no longer be changed.');
  if (a.state !== 'accepted') throw conflict('Accept the invitation before writing the review.');
}

/** Who acted, for the audit log: the signed-in reviewer, or nobody named (the invitation link). */
function actorOf(access: ReviewerAccess): Actor | null {
  return 'user' in access ? access.user : null;
}

/** A file's extension from its stored (checked) media type, else from its name. */
function extensionFor(mediaType: string, name: string): string {
  const kind = Object.entries(MEDIA_TYPES).find(([, m]) => m === mediaType)?.[0];
  return kind && ['pdf', 'docx', 'doc', 'zip', 'png', 'jpeg'].includes(kind) ? `.${kind === 'jpeg' ? 'jpg' : kind}` : extensionOf(name);
}

function extensionOf(name: string): string {
  const m = /\.[A-Za-z0-9]{1,8}$/.exec(name);
  return m ? m[0].toLowerCase() : '';
}

function presentProfile(p: ProfileRow) {
  return {
    name: p.name,
    email: p.email,
    affiliation: p.affiliation,
    interests: p.interests,
    orcid: p.orcid,
    unavailableUntil: p.unavailableUntil,
  };
}

function presentForm(f: typeof reviewForms.$inferSelect) {
  return {
    id: f.id,
    name: f.name,
    questions: f.questions,
    previousId: f.previousId,
    createdAt: f.createdAt.toISOString(),
  };
}

export type { AssignmentState };
