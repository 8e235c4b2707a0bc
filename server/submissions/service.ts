import type { SQL } from 'drizzle-orm';
import { and, asc, count, desc, eq, exists, gte, ilike, inArray, lt, notExists, or, sql } from 'drizzle-orm';
import { MESSAGES } from '../../common/messages.ts';
import type { DecisionConfirmation, ReviewFilter, RevisionKind } from '../../common/review.ts';
import { can } from '../../common/roles.ts';
import type { SubmissionFields } from '../../common/schemas.ts';
import { PAGES_PATTERN } from '../../common/schemas.ts';
import {
  canMove,
  type DecisionInput,
  EDITOR_TRANSITIONS,
  STATUS_LABELS,
  type SubmissionStatus,
} from '../../common/submissions.ts';
import type { SessionUser } from '../accounts/service.ts';
import { escapeLike } from '../accounts/service.ts';
import { users } from '../accounts/tables.ts';
import type { AuditService } from '../audit/service.ts';
import type { CatalogService } from '../catalog/service.ts';
import { articles } from '../catalog/tables.ts';
import type { Db, Tx } from '../db/client.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import type { EventBus } from '../events/bus.ts';
import type { FileService } from '../files/service.ts';
import { storedFiles } from '../files/tables.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { MailService } from '../mail/service.ts';
import { submissionAuthors, submissionEvents, submissionFiles, submissions } from './tables.ts';

/** Peer review's part of the desk's moves (server/review), wired in server/services.ts. */
export interface ReviewHooks {
  onDecision(
    tx: Tx,
    o: {
      submissionId: number;
      from: SubmissionStatus;
      to: SubmissionStatus;
      revisions?: RevisionKind;
      shareReviews?: number[];
      authorDue?: string;
      confirm?: DecisionConfirmation[];
    },
  ): Promise<{ mailAppendix: string; label: string; note: string }>;
  onRevision(tx: Tx, submissionId: number, responseToReviewers: string): Promise<void>;
  deskCondition(filter: ReviewFilter): Promise<SQL>;
}

/** COL-2026-0007: the year of arrival and the submission's number. */
export function referenceFor(id: number, year: number): string {
  return `COL-${year}-${String(id).padStart(4, '0')}`;
}

export class SubmissionsService {
  /** Peer review's hooks (set once by server/services.ts). */
  reviewHooks?: ReviewHooks;

  constructor(
    private readonly db: Db,
    private readonly deps: {
      files: FileService;
      audit: AuditService;
      mail: MailService;
      editorialEmail: string;
      journalName: () => Promise<string>;
      /** The journal's setting: a submission must include the signed copyright form (issue 22). */
      copyrightFormRequired?: () => Promise<boolean>;
      publicUrl: string;
      /** The outbox: `manuscript.arrived` in the transaction that stores versions (decision 0031). */
      events?: Pick<EventBus, 'emit'>;
    },
  ) {}

  /**
   * Stores a submission with its authors and files in one go (all or nothing), then acknowledges it to
   * the submitting author and the editorial office.
   */
  async submit(
    user: SessionUser,
    fields: SubmissionFields,
    manuscript: CheckedUpload,
    additional?: CheckedUpload,
    copyrightForm?: CheckedUpload,
  ): Promise<{ id: number; reference: string }> {
    // Read before the transaction: on PGlite a query outside it would wait for it (one connection).
    if (!copyrightForm && (await this.deps.copyrightFormRequired?.())) {
      throw invalid(MESSAGES.copyrightFormMissing, { copyrightForm: MESSAGES.copyrightFormMissing });
    }
    const uploads = [
      manuscript,
      ...(additional ? [additional] : []),
      ...(copyrightForm ? [copyrightForm] : []),
    ];
    const journal = await this.deps.journalName();
    const created = await this.deps.files.withStoredFiles(uploads, async (tx, stored) => {
      const files = stored.slice(0, additional ? 2 : 1);
      const copyright = copyrightForm ? stored.at(-1) : undefined;
      const result = await tx.execute<{ id: string | number }>(
        sql`select nextval(pg_get_serial_sequence('submissions', 'id')) as id`,
      );
      const id = Number((result as unknown as { rows: { id: string | number }[] }).rows[0].id);
      const reference = referenceFor(id, new Date().getUTCFullYear());
      await tx.insert(submissions).values({
        id,
        reference,
        userId: user.id,
        title: fields.title,
        articleType: fields.articleType,
        keywords: fields.keywords,
        abstract: fields.abstract,
        conflictOfInterest: fields.conflictOfInterest,
        fundingStatement: fields.fundingStatement,
        dataAvailabilityStatement: fields.dataAvailabilityStatement,
        copyrightFileId: copyright?.id ?? null,
      });
      await tx
        .insert(submissionAuthors)
        .values(fields.authors.map((a, i) => ({ submissionId: id, position: i + 1, ...a })));
      await tx.insert(submissionFiles).values(
        files.map((f, i) => ({
          submissionId: id,
          fileId: f.id,
          kind: i === 0 ? ('manuscript' as const) : ('additional' as const),
          version: 1,
        })),
      );
      await tx.insert(submissionEvents).values({
        submissionId: id,
        actorId: user.id,
        actorUsername: user.username,
        fromStatus: null,
        toStatus: 'submitted',
      });
      await this.deps.audit.record(tx, user, 'submission.create', { type: 'submission', id }, { reference });
      await this.acknowledge(
        tx,
        journal,
        user,
        fields,
        { id, reference },
        manuscript,
        additional,
        copyrightForm,
      );
      await this.deps.events?.emit(tx, 'manuscript.arrived', { submissionId: id });
      return { id, reference };
    });
    return created;
  }

  /** The author's receipt and the editors' notice, queued in the submission's transaction. */
  private async acknowledge(
    tx: Tx,
    journal: string,
    user: SessionUser,
    fields: SubmissionFields,
    { id, reference }: { id: number; reference: string },
    manuscript: CheckedUpload,
    additional?: CheckedUpload,
    copyrightForm?: CheckedUpload,
  ) {
    const authors = fields.authors.map((a) => `  - ${a.name} (${a.affiliation})`).join('\n');
    const files = [manuscript, additional, copyrightForm]
      .filter(Boolean)
      .map((f) => `  - ${f!.filename} (${Math.ceil(f!.data.length / 1024)} KB)`)
      .join('\n');
    const about = { submissionId: id };
    await this.deps.mail.queue(
      tx,
      {
        to: user.email,
        subject: `[${reference}] Your submission to ${journal} has been received`,
        text: `Dear ${user.fullName},\n\nThank you for submitting your manuscript to ${journal}. It has been received and will be reviewed by the editorial board.\n\nReference: ${reference}\nTitle: ${fields.title}\nArticle type: ${fields.articleType}\nAuthors:\n${authors}\nFiles:\n${files}\n\nPlease quote the reference ${reference} in any message about this manuscript.\n\nWith best regards,\nThe editorial office\n${this.deps.publicUrl}\n`,
      },
      about,
    );
    await this.deps.mail.queue(
      tx,
      {
        to: this.deps.editorialEmail,
        replyTo: user.email,
        subject: `[${reference}] New submission: ${fields.title}`,
        text: `A new manuscript has arrived.\n\nReference: ${reference}\nTitle: ${fields.title}\nArticle type: ${fields.articleType}\nSubmitted by: ${user.fullName} <${user.email}> (${user.username})\nKeywords: ${fields.keywords}\nAuthors:\n${authors}\nFiles:\n${files}\n\nAbstract:\n${fields.abstract}\n\nOpen it on the editorial desk: ${this.deps.publicUrl}/editor-dashboard/submissions/${id}\n`,
      },
      about,
    );
  }

  // ---- Reading ------------------------------------------------------------------------------------

  /** The editors' desk: every submission, filtered and searched, newest first. */
  async list(filter: SubmissionFilter) {
    const conditions = [
      filter.review && this.reviewHooks ? await this.reviewHooks.deskCondition(filter.review) : undefined,
      filter.status ? eq(submissions.status, filter.status) : undefined,
      filter.articleType ? eq(submissions.articleType, filter.articleType) : undefined,
      filter.from ? gte(submissions.createdAt, new Date(`${filter.from}T00:00:00Z`)) : undefined,
      filter.to
        ? lt(submissions.createdAt, new Date(new Date(`${filter.to}T00:00:00Z`).getTime() + 86_400_000))
        : undefined,
      filter.q
        ? or(
            ilike(submissions.title, `%${escapeLike(filter.q)}%`),
            ilike(submissions.reference, `%${escapeLike(filter.q)}%`),
            exists(
              this.db
                .select({ one: sql`1` })
                .from(submissionAuthors)
                .where(
                  and(
                    eq(submissionAuthors.submissionId, submissions.id),
                    ilike(submissionAuthors.name, `%${escapeLike(filter.q)}%`),
                  ),
                ),
            ),
          )
        : undefined,
    ].filter(Boolean);
    const where = conditions.length ? and(...conditions) : undefined;
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select({
          id: submissions.id,
          reference: submissions.reference,
          title: submissions.title,
          articleType: submissions.articleType,
          status: submissions.status,
          createdAt: submissions.createdAt,
          updatedAt: submissions.updatedAt,
          submitter: users.username,
          submitterName: users.fullName,
          articleId: articles.id,
        })
        .from(submissions)
        .innerJoin(users, eq(users.id, submissions.userId))
        .leftJoin(articles, eq(articles.submissionId, submissions.id))
        .where(where)
        .orderBy(desc(submissions.createdAt), desc(submissions.id))
        .limit(filter.limit)
        .offset(filter.offset),
      this.db.select({ total: count() }).from(submissions).where(where),
    ]);
    const authors = rows.length
      ? await this.db
          .select({ submissionId: submissionAuthors.submissionId, name: submissionAuthors.name })
          .from(submissionAuthors)
          .where(
            inArray(
              submissionAuthors.submissionId,
              rows.map((r) => r.id),
            ),
          )
          .orderBy(asc(submissionAuthors.submissionId), asc(submissionAuthors.position))
      : [];
    return {
      total,
      submissions: rows.map((r) => ({
        ...r,
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
        authors: authors.filter((a) => a.submissionId === r.id).map((a) => a.name),
      })),
    };
  }

  /**
   * How many submissions wait for an editor's move (the dashboard's count beside "Submissions", decision
   * 0039): new ones, revised ones, those under review whose current round's reviews are all in, and accepted
   * ones not yet published.
   */
  async attentionCount(): Promise<number> {
    const reviewsIn = this.reviewHooks
      ? await this.reviewHooks.deskCondition('reviews-complete')
      : sql`false`;
    const [{ n }] = await this.db
      .select({ n: count() })
      .from(submissions)
      .where(
        or(
          inArray(submissions.status, ['submitted', 'revised']),
          and(eq(submissions.status, 'under_review'), reviewsIn),
          and(
            eq(submissions.status, 'accepted'),
            notExists(
              this.db.select({ one: sql`1` }).from(articles).where(eq(articles.submissionId, submissions.id)),
            ),
          ),
        ),
      );
    return n;
  }

  /** One submission with its authors, files (every version), history and article; for its author or editors. */
  async detail(id: number, viewer: SessionUser) {
    const [row] = await this.db
      .select({
        s: submissions,
        submitter: users.username,
        submitterName: users.fullName,
        submitterEmail: users.email,
      })
      .from(submissions)
      .innerJoin(users, eq(users.id, submissions.userId))
      .where(eq(submissions.id, id));
    if (!row || (row.s.userId !== viewer.id && !can('editorial', viewer)))
      throw notFound('Submission not found.');
    const s = row.s;
    const [authors, files, events, [article], copyrightForm, finalPdf] = await Promise.all([
      this.db
        .select()
        .from(submissionAuthors)
        .where(eq(submissionAuthors.submissionId, id))
        .orderBy(asc(submissionAuthors.position)),
      this.db
        .select({
          id: submissionFiles.id,
          kind: submissionFiles.kind,
          version: submissionFiles.version,
          name: storedFiles.originalName,
          size: storedFiles.size,
          mediaType: storedFiles.mediaType,
          createdAt: submissionFiles.createdAt,
        })
        .from(submissionFiles)
        .innerJoin(storedFiles, eq(storedFiles.id, submissionFiles.fileId))
        .where(eq(submissionFiles.submissionId, id))
        .orderBy(desc(submissionFiles.version), asc(submissionFiles.kind)),
      this.db
        .select()
        .from(submissionEvents)
        .where(eq(submissionEvents.submissionId, id))
        .orderBy(asc(submissionEvents.id)),
      this.db.select({ id: articles.id }).from(articles).where(eq(articles.submissionId, id)),
      this.fileSummary(s.copyrightFileId),
      this.fileSummary(s.finalPdfFileId),
    ]);
    return {
      id: s.id,
      reference: s.reference,
      title: s.title,
      articleType: s.articleType,
      keywords: s.keywords,
      abstract: s.abstract,
      conflictOfInterest: s.conflictOfInterest,
      fundingStatement: s.fundingStatement,
      dataAvailabilityStatement: s.dataAvailabilityStatement,
      status: s.status,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
      submitter: { username: row.submitter, fullName: row.submitterName, email: row.submitterEmail },
      authors: authors.map((a) => ({
        name: a.name,
        email: a.email,
        affiliation: a.affiliation,
        superscript: a.superscript,
        orcid: a.orcid,
      })),
      files: files.map((f) => ({ ...f, createdAt: f.createdAt.toISOString() })),
      history: events.map((e) => ({
        at: e.createdAt.toISOString(),
        by: e.actorUsername,
        from: e.fromStatus as SubmissionStatus | null,
        to: e.toStatus as SubmissionStatus,
        message: e.message,
        // What a decision did that needed the editor's confirmation: for editors only.
        ...(can('editorial', viewer) ? { note: e.note } : {}),
      })),
      articleId: article?.id ?? null,
      nextStatuses: can('editorial', viewer) ? [...EDITOR_TRANSITIONS[s.status]] : [],
      copyrightForm,
      finalPdf,
    };
  }

  private async fileSummary(fileId: number | null): Promise<{ name: string; size: number } | null> {
    if (fileId === null) return null;
    const [f] = await this.db
      .select({ name: storedFiles.originalName, size: storedFiles.size })
      .from(storedFiles)
      .where(eq(storedFiles.id, fileId));
    return f ?? null;
  }

  /** The signed copyright form of a submission (its author, or editors), or the final PDF (editors). */
  async ownFile(id: number, which: 'copyright' | 'final', viewer: SessionUser) {
    const detail = await this.detail(id, viewer);
    if (which === 'final' && !can('editorial', viewer)) throw notFound('File not found.');
    const [row] = await this.db
      .select({ copyright: submissions.copyrightFileId, final: submissions.finalPdfFileId })
      .from(submissions)
      .where(eq(submissions.id, id));
    const fileId = row?.[which === 'copyright' ? 'copyright' : 'final'];
    if (!fileId)
      throw notFound(
        which === 'copyright' ? 'No copyright form was sent with this submission.' : 'No final PDF yet.',
      );
    return { reference: detail.reference, file: await this.deps.files.get(fileId) };
  }

  /**
   * Before publishing (decision 0035): the editor gives the final PDF, kept with the accepted submission until
   * the article is published from the preview. Nothing is shown to readers.
   */
  async setFinalPdf(actor: SessionUser, id: number, pdf: CheckedUpload): Promise<void> {
    const detail = await this.detail(id, actor);
    this.assertPublishable(detail);
    await this.deps.files.withStoredFiles([pdf], async (tx, [file]) => {
      await tx.update(submissions).set({ finalPdfFileId: file.id }).where(eq(submissions.id, id));
      await this.deps.audit.record(
        tx,
        actor,
        'submission.final_pdf',
        { type: 'submission', id },
        { reference: detail.reference, file: { id: file.id, sha256: file.sha256, size: file.size } },
      );
    });
  }

  /** Only an accepted submission, not yet published, is prepared and published. */
  assertPublishable(detail: { status: SubmissionStatus; articleId: number | null }) {
    if (detail.status !== 'accepted') throw conflict('Only an accepted submission can be published.');
    if (detail.articleId)
      throw conflict(`This submission is already published as article ${detail.articleId}.`);
  }

  /** What publishing should warn about (it does not refuse): a submission without its signed copyright form. */
  publishWarnings(detail: { copyrightForm: unknown }): string[] {
    return detail.copyrightForm
      ? []
      : [
          'The author sent no signed copyright form with this submission. You can still publish; ask the author for it if the journal needs it on file.',
        ];
  }

  /** An author's own submissions, newest first, with the latest message from the editors. */
  async forUser(userId: number) {
    const rows = await this.db
      .select({
        id: submissions.id,
        reference: submissions.reference,
        title: submissions.title,
        articleType: submissions.articleType,
        status: submissions.status,
        createdAt: submissions.createdAt,
        updatedAt: submissions.updatedAt,
        articleId: articles.id,
      })
      .from(submissions)
      .leftJoin(articles, eq(articles.submissionId, submissions.id))
      .where(eq(submissions.userId, userId))
      .orderBy(desc(submissions.id));
    const events = rows.length
      ? await this.db
          .select()
          .from(submissionEvents)
          .where(
            and(
              inArray(
                submissionEvents.submissionId,
                rows.map((r) => r.id),
              ),
              sql`${submissionEvents.message} <> ''`,
            ),
          )
          .orderBy(desc(submissionEvents.id))
      : [];
    return rows.map((r) => {
      const last = events.find((e) => e.submissionId === r.id);
      return {
        ...r,
        createdAt: r.createdAt.toISOString(),
        updatedAt: r.updatedAt.toISOString(),
        lastMessage: last
          ? { at: last.createdAt.toISOString(), by: last.actorUsername, message: last.message }
          : null,
      };
    });
  }

  /** A stored file of a submission, for its author or editors. */
  async file(id: number, fileId: number, viewer: SessionUser) {
    const detail = await this.detail(id, viewer);
    const [row] = await this.db
      .select({ fileId: submissionFiles.fileId })
      .from(submissionFiles)
      .where(and(eq(submissionFiles.id, fileId), eq(submissionFiles.submissionId, id)));
    if (!row) throw notFound('File not found.');
    const file = await this.deps.files.get(row.fileId);
    return { reference: detail.reference, file };
  }

  // ---- The editorial road ---------------------------------------------------------------------------

  /** An editor moves a submission on, with a message the author sees and receives by e-mail. */
  async decide(actor: SessionUser, id: number, input: DecisionInput) {
    const journal = await this.deps.journalName();
    await this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(submissions).where(eq(submissions.id, id)).for('update');
      if (!current) throw notFound('Submission not found.');
      if (!canMove(current.status, input.status)) {
        throw conflict(
          `A submission that is ${STATUS_LABELS[current.status].toLowerCase()} cannot be moved to ${STATUS_LABELS[input.status].toLowerCase()}.`,
        );
      }
      const [row] = await tx
        .update(submissions)
        .set({ status: input.status, updatedAt: new Date() })
        .where(eq(submissions.id, id))
        .returning();
      // Peer review's part first: it may refuse (a decision to confirm) and it says what the history notes.
      const review = await this.reviewHooks?.onDecision(tx, {
        submissionId: id,
        from: current.status,
        to: input.status,
        revisions: input.revisions,
        shareReviews: input.shareReviews,
        authorDue: input.authorDue,
        confirm: input.confirm,
      });
      await tx.insert(submissionEvents).values({
        submissionId: id,
        actorId: actor.id,
        actorUsername: actor.username,
        fromStatus: current.status,
        toStatus: input.status,
        message: input.message,
        note: review?.note ?? '',
      });
      await this.deps.audit.record(
        tx,
        actor,
        'submission.decide',
        { type: 'submission', id },
        {
          reference: current.reference,
          from: current.status,
          to: input.status,
          ...(input.revisions ? { revisions: input.revisions } : {}),
          ...(input.shareReviews?.length ? { sharedReviews: input.shareReviews } : {}),
          ...(input.confirm?.length ? { confirmed: input.confirm } : {}),
          ...(review?.note ? { note: review.note } : {}),
        },
      );
      const updated = {
        ...row,
        label: review?.label ?? STATUS_LABELS[row.status],
        appendix: review?.mailAppendix ?? '',
      };
      const [owner] = await tx.select().from(users).where(eq(users.id, updated.userId));
      // The author's e-mail commits with the decision.
      await this.deps.mail.queue(
        tx,
        {
          to: owner.email,
          subject: `[${updated.reference}] ${updated.label}: ${updated.title}`,
          text: `Dear ${owner.fullName},

Your manuscript "${updated.title}" (${updated.reference}) submitted to ${journal} is now: ${updated.label}.

Message from the editorial office:

${input.message}

${
  updated.appendix
    ? `${updated.appendix}

`
    : ''
}${
  updated.status === 'revisions_requested'
    ? `Please upload your revised manuscript from My submissions: ${this.deps.publicUrl}/my-submissions

`
    : `You can follow your submissions at ${this.deps.publicUrl}/my-submissions

`
}With best regards,
The editorial office
`,
        },
        { submissionId: id },
      );
    });
    return this.detail(id, actor);
  }

  /**
   * The author uploads a revised manuscript while revisions are requested: a new version beside the
   * earlier ones (which are kept), and the submission becomes "revised".
   */
  async revise(
    user: SessionUser,
    id: number,
    note: string,
    manuscript: CheckedUpload,
    additional?: CheckedUpload,
    responseToReviewers = '',
  ) {
    const [current] = await this.db.select().from(submissions).where(eq(submissions.id, id));
    if (!current || current.userId !== user.id) throw notFound('Submission not found.');
    if (current.status !== 'revisions_requested') {
      throw conflict('A revised manuscript can be uploaded only when the editors have requested revisions.');
    }
    const uploads = additional ? [manuscript, additional] : [manuscript];
    await this.deps.files.withStoredFiles(uploads, async (tx, files) => {
      // Lock the row: two revision uploads at once must not both pass the status check.
      const [locked] = await tx.select().from(submissions).where(eq(submissions.id, id)).for('update');
      if (locked.status !== 'revisions_requested') {
        throw conflict(
          'A revised manuscript can be uploaded only when the editors have requested revisions.',
        );
      }
      const [{ max }] = await tx
        .select({ max: sql<number>`coalesce(max(${submissionFiles.version}), 0)::int` })
        .from(submissionFiles)
        .where(eq(submissionFiles.submissionId, id));
      const next = max + 1;
      await tx.insert(submissionFiles).values(
        files.map((f, i) => ({
          submissionId: id,
          fileId: f.id,
          kind: i === 0 ? ('manuscript' as const) : ('additional' as const),
          version: next,
        })),
      );
      await tx
        .update(submissions)
        .set({ status: 'revised', updatedAt: new Date() })
        .where(eq(submissions.id, id));
      await tx.insert(submissionEvents).values({
        submissionId: id,
        actorId: user.id,
        actorUsername: user.username,
        fromStatus: 'revisions_requested',
        toStatus: 'revised',
        message: note,
      });
      await this.reviewHooks?.onRevision(tx, id, responseToReviewers);
      await this.deps.audit.record(
        tx,
        user,
        'submission.revise',
        { type: 'submission', id },
        {
          reference: current.reference,
          version: next,
        },
      );
      // The editors' notice and the author's receipt commit with the new version.
      await this.deps.mail.queue(
        tx,
        {
          to: this.deps.editorialEmail,
          replyTo: user.email,
          subject: `[${current.reference}] Revised manuscript (version ${next}): ${current.title}`,
          text: `${user.fullName} (${user.username}) uploaded version ${next} of "${current.title}".

${
  note
    ? `Their note:

${note}

`
    : ''
}Open the submission: ${this.deps.publicUrl}/editor-dashboard/submissions/${id}
`,
        },
        { submissionId: id },
      );
      await this.deps.mail.queue(
        tx,
        {
          to: user.email,
          subject: `[${current.reference}] Your revised manuscript has been received`,
          text: `Dear ${user.fullName},

Thank you: version ${next} of "${current.title}" (${current.reference}) has been received and is with the editors again.

With best regards,
The editorial office
`,
        },
        { submissionId: id },
      );
      await this.deps.events?.emit(tx, 'manuscript.arrived', { submissionId: id });
      return next;
    });
    return this.detail(id, user);
  }

  /**
   * Publishes an accepted submission as an article of an issue in one step: its metadata and authors come
   * over, with the final PDF (uploaded here, or the latest manuscript version when that is a PDF).
   */
  async publish(
    actor: SessionUser,
    id: number,
    input: { issue_id: number; pages: string; doi: string },
    finalPdf: CheckedUpload | undefined,
    catalog: CatalogService,
    fullText?: { attach: (tx: Tx, submissionId: number, articleId: number) => Promise<void> },
  ): Promise<number> {
    const detail = await this.detail(id, actor);
    this.assertPublishable(detail);
    let pdf = finalPdf;
    if (!pdf && detail.finalPdf) {
      // The final PDF given when the publication was prepared (the preview's).
      const { file } = await this.ownFile(id, 'final', actor);
      pdf = {
        field: 'pdf',
        filename: file.originalName,
        data: await this.deps.files.bytes(file),
        kind: 'pdf',
        mediaType: 'application/pdf',
      };
    }
    if (!pdf) {
      const latest = detail.files.find((f) => f.kind === 'manuscript');
      if (latest?.mediaType !== 'application/pdf') {
        throw invalid('Upload the final PDF: the latest manuscript is not a PDF.', {
          pdf: 'Upload the final PDF.',
        });
      }
      const { file } = await this.file(id, latest!.id, actor);
      pdf = {
        field: 'pdf',
        filename: file.originalName,
        data: await this.deps.files.bytes(file),
        kind: 'pdf',
        mediaType: 'application/pdf',
      };
    }
    const [, first, last] = PAGES_PATTERN.exec(input.pages)!;
    const articleId = await catalog.publishNew(actor, {
      issueId: input.issue_id,
      title: detail.title,
      abstract: detail.abstract,
      keywords: detail.keywords,
      firstPage: Number(first),
      lastPage: Number(last),
      doi: input.doi,
      articleType: detail.articleType,
      submissionId: id,
      authors: detail.authors,
      pdf,
      // The Word file's full text, converted before publishing, becomes the article's in the same transaction.
      alongside: fullText ? (tx, articleId) => fullText.attach(tx, id, articleId) : undefined,
    });
    await this.deps.mail.queue(
      this.db,
      {
        to: detail.submitter.email,
        subject: `[${detail.reference}] Your article is published: ${detail.title}`,
        text: `Dear ${detail.submitter.fullName},

"${detail.title}" (${detail.reference}) is now published, with DOI ${input.doi}:

${this.deps.publicUrl}/article/${articleId}

Thank you for publishing with us.

With best regards,
The editorial office
`,
      },
      { submissionId: id },
    );
    return articleId;
  }
}

export interface SubmissionFilter {
  status?: SubmissionStatus;
  articleType?: string;
  from?: string;
  to?: string;
  q?: string;
  review?: ReviewFilter;
  limit: number;
  offset: number;
}
