import { desc, eq, sql } from 'drizzle-orm';
import type { SubmissionFields } from '../../common/schemas.ts';
import type { SessionUser } from '../accounts/service.ts';
import type { AuditService } from '../audit/service.ts';
import type { Db } from '../db/client.ts';
import type { FileService } from '../files/service.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { Mailer } from '../mail/mailer.ts';
import { submissionAuthors, submissionFiles, submissions } from './tables.ts';

/** COL-2026-0007: the year of arrival and the submission's number. */
export function referenceFor(id: number, year: number): string {
  return `COL-${year}-${String(id).padStart(4, '0')}`;
}

export class SubmissionsService {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      files: FileService;
      audit: AuditService;
      mailer: Mailer;
      editorialEmail: string;
      journalName: () => Promise<string>;
      publicUrl: string;
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
  ): Promise<{ id: number; reference: string }> {
    const uploads = additional ? [manuscript, additional] : [manuscript];
    const created = await this.deps.files.withStoredFiles(uploads, async (tx, files) => {
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
      });
      await tx.insert(submissionAuthors).values(
        fields.authors.map((a, i) => ({ submissionId: id, position: i + 1, ...a })),
      );
      await tx.insert(submissionFiles).values(
        files.map((f, i) => ({
          submissionId: id,
          fileId: f.id,
          kind: i === 0 ? ('manuscript' as const) : ('additional' as const),
          version: 1,
        })),
      );
      await this.deps.audit.record(tx, user, 'submission.create', { type: 'submission', id }, { reference });
      return { id, reference };
    });
    await this.acknowledge(user, fields, created.reference, manuscript, additional);
    return created;
  }

  private async acknowledge(
    user: SessionUser,
    fields: SubmissionFields,
    reference: string,
    manuscript: CheckedUpload,
    additional?: CheckedUpload,
  ) {
    const journal = await this.deps.journalName();
    const authors = fields.authors.map((a) => `  - ${a.name} (${a.affiliation})`).join('\n');
    const files = [manuscript, additional]
      .filter(Boolean)
      .map((f) => `  - ${f!.filename} (${Math.ceil(f!.data.length / 1024)} KB)`)
      .join('\n');
    await this.deps.mailer.sendQuietly({
      to: user.email,
      subject: `[${reference}] Your submission to ${journal} has been received`,
      text: `Dear ${user.fullName},\n\nThank you for submitting your manuscript to ${journal}. It has been received and will be reviewed by the editorial board.\n\nReference: ${reference}\nTitle: ${fields.title}\nArticle type: ${fields.articleType}\nAuthors:\n${authors}\nFiles:\n${files}\n\nPlease quote the reference ${reference} in any message about this manuscript.\n\nWith best regards,\nThe editorial office\n${this.deps.publicUrl}\n`,
    });
    await this.deps.mailer.sendQuietly({
      to: this.deps.editorialEmail,
      replyTo: user.email,
      subject: `[${reference}] New submission: ${fields.title}`,
      text: `A new manuscript has arrived.\n\nReference: ${reference}\nTitle: ${fields.title}\nArticle type: ${fields.articleType}\nSubmitted by: ${user.fullName} <${user.email}> (${user.username})\nKeywords: ${fields.keywords}\nAuthors:\n${authors}\nFiles:\n${files}\n\nAbstract:\n${fields.abstract}\n`,
    });
  }

  async forUser(userId: number) {
    return this.db
      .select({
        id: submissions.id,
        reference: submissions.reference,
        title: submissions.title,
        status: submissions.status,
        createdAt: submissions.createdAt,
      })
      .from(submissions)
      .where(eq(submissions.userId, userId))
      .orderBy(desc(submissions.id));
  }
}
