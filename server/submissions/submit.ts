import { sql } from 'drizzle-orm';
import { MESSAGES } from '../../common/messages.ts';
import type { SubmissionFields } from '../../common/schemas.ts';
import type { SessionUser } from '../accounts/service.ts';
import type { Tx } from '../db/client.ts';
import { conflict, invalid } from '../errors.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { SubmissionsContext } from './context.ts';
import { submissionAuthors, submissionEvents, submissionFiles, submissions } from './tables.ts';

/** COL-2026-0007: the year of arrival and the submission's number. */
export function referenceFor(id: number, year: number): string {
  return `COL-${year}-${String(id).padStart(4, '0')}`;
}

/**
 * Stores a submission with its authors and files in one go (all or nothing), then acknowledges it to
 * the submitting author and the editorial office.
 */
export async function submit(
  ctx: SubmissionsContext,
  user: SessionUser,
  fields: SubmissionFields,
  manuscript: CheckedUpload,
  additional?: CheckedUpload,
  copyrightForm?: CheckedUpload,
): Promise<{ id: number; reference: string }> {
  // A closed or archived journal publishes what it has and takes nothing new (decision 0055).
  if (ctx.deps.acceptsSubmissions && !ctx.deps.acceptsSubmissions()) throw conflict(MESSAGES.journalClosed);
  // Read before the transaction: on PGlite a query outside it would wait for it (one connection).
  if (!copyrightForm && (await ctx.deps.copyrightFormRequired?.())) {
    throw invalid(MESSAGES.copyrightFormMissing, { copyrightForm: MESSAGES.copyrightFormMissing });
  }
  const uploads = [
    manuscript,
    ...(additional ? [additional] : []),
    ...(copyrightForm ? [copyrightForm] : []),
  ];
  const journal = await ctx.deps.journalName();
  const created = await ctx.deps.files.withStoredFiles(uploads, async (tx, stored) => {
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
    await ctx.deps.audit.record(tx, user, 'submission.create', { type: 'submission', id }, { reference });
    await acknowledge(
      ctx,
      tx,
      journal,
      user,
      fields,
      { id, reference },
      manuscript,
      additional,
      copyrightForm,
    );
    await ctx.deps.events?.emit(tx, 'manuscript.arrived', { submissionId: id });
    return { id, reference };
  });
  return created;
}

/** The author's receipt and the editors' notice, queued in the submission's transaction. */
async function acknowledge(
  ctx: SubmissionsContext,
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
  await ctx.deps.mail.queue(
    tx,
    {
      to: user.email,
      subject: `[${reference}] Your submission to ${journal} has been received`,
      text: `Dear ${user.fullName},\n\nThank you for submitting your manuscript to ${journal}. It has been received and will be reviewed by the editorial board.\n\nReference: ${reference}\nTitle: ${fields.title}\nArticle type: ${fields.articleType}\nAuthors:\n${authors}\nFiles:\n${files}\n\nPlease quote the reference ${reference} in any message about this manuscript.\n\nWith best regards,\nThe editorial office\n${ctx.deps.publicUrl()}\n`,
    },
    about,
  );
  // The journal's own office (decision 0060): never another journal's.
  const office = await ctx.deps.officeEmail(tx);
  if (!office) return;
  await ctx.deps.mail.queue(
    tx,
    {
      to: office,
      replyTo: user.email,
      subject: `[${reference}] New submission: ${fields.title}`,
      text: `A new manuscript has arrived.\n\nReference: ${reference}\nTitle: ${fields.title}\nArticle type: ${fields.articleType}\nSubmitted by: ${user.fullName} <${user.email}> (${user.username})\nKeywords: ${fields.keywords}\nAuthors:\n${authors}\nFiles:\n${files}\n\nAbstract:\n${fields.abstract}\n\nOpen it on the editorial desk: ${ctx.deps.publicUrl()}/editor-dashboard/submissions/${id}\n`,
    },
    { ...about, office: true },
  );
}
