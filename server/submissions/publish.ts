import { eq } from 'drizzle-orm';
import { PAGES_PATTERN } from '../../common/schemas.ts';
import type { SubmissionStatus } from '../../common/submissions.ts';
import type { SessionUser } from '../accounts/service.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Tx } from '../db/client.ts';
import { conflict, invalid } from '../errors.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { SubmissionsContext } from './context.ts';
import { ownFile, submissionDetail, submissionFile } from './read.ts';
import { submissions } from './tables.ts';

/**
 * Publishing an accepted submission as an article (decision 0035): the final PDF kept for the preview, the
 * checks before it, and the one step that makes the article. preparePublication (publication.ts) uses these.
 */

/**
 * Before publishing (decision 0035): the editor gives the final PDF, kept with the accepted submission until
 * the article is published from the preview. Nothing is shown to readers.
 */
export async function setFinalPdf(
  ctx: SubmissionsContext,
  actor: SessionUser,
  id: number,
  pdf: CheckedUpload,
): Promise<void> {
  const detail = await submissionDetail(ctx, id, actor);
  assertPublishable(detail);
  await ctx.deps.files.withStoredFiles([pdf], async (tx, [file]) => {
    await tx.update(submissions).set({ finalPdfFileId: file.id }).where(eq(submissions.id, id));
    await ctx.deps.audit.record(
      tx,
      actor,
      'submission.final_pdf',
      { type: 'submission', id },
      { reference: detail.reference, file: { id: file.id, sha256: file.sha256, size: file.size } },
    );
  });
}

/** Only an accepted submission, not yet published, is prepared and published. */
export function assertPublishable(detail: { status: SubmissionStatus; articleId: number | null }) {
  if (detail.status !== 'accepted') throw conflict('Only an accepted submission can be published.');
  if (detail.articleId)
    throw conflict(`This submission is already published as article ${detail.articleId}.`);
}

/** What publishing should warn about (it does not refuse): a submission without its signed copyright form. */
export function publishWarnings(detail: { copyrightForm: unknown }): string[] {
  return detail.copyrightForm
    ? []
    : [
        'The author sent no signed copyright form with this submission. You can still publish; ask the author for it if the journal needs it on file.',
      ];
}

/**
 * Publishes an accepted submission as an article of an issue in one step: its metadata and authors come
 * over, with the final PDF (uploaded here, or the latest manuscript version when that is a PDF).
 */
export async function publish(
  ctx: SubmissionsContext,
  actor: SessionUser,
  id: number,
  input: { issue_id: number; pages: string; doi: string | null },
  finalPdf: CheckedUpload | undefined,
  catalog: CatalogService,
  fullText?: { attach: (tx: Tx, submissionId: number, articleId: number) => Promise<void> },
): Promise<number> {
  const detail = await submissionDetail(ctx, id, actor);
  assertPublishable(detail);
  // An unpaid article processing charge: refused here when the journal blocks it (decision 0063).
  await ctx.apcHooks?.publishCheck(id, { enforce: true });
  let pdf = finalPdf;
  if (!pdf && detail.finalPdf) {
    // The final PDF given when the publication was prepared (the preview's).
    const { file } = await ownFile(ctx, id, 'final', actor);
    pdf = {
      field: 'pdf',
      filename: file.originalName,
      data: await ctx.deps.files.bytes(file),
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
    const { file } = await submissionFile(ctx, id, latest!.id, actor);
    pdf = {
      field: 'pdf',
      filename: file.originalName,
      data: await ctx.deps.files.bytes(file),
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
  // The DOI typed, or the one the journal's pattern gave (decision 0064); none when it has no pattern.
  const doi = input.doi ?? (await catalog.article(articleId, { includeUnpublished: true }))?.doi ?? null;
  await ctx.deps.mail.queue(
    ctx.db,
    {
      to: detail.submitter.email,
      subject: `[${detail.reference}] Your article is published: ${detail.title}`,
      text: `Dear ${detail.submitter.fullName},

"${detail.title}" (${detail.reference}) is now published${doi ? `, with DOI ${doi}` : ''}:

${ctx.deps.publicUrl()}/article/${articleId}

Thank you for publishing with us.

With best regards,
The editorial office
`,
    },
    { submissionId: id },
  );
  return articleId;
}
