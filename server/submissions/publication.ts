import { ARTICLE_PDF_RULE, ARTICLE_WORD_RULE } from '../../common/upload-rules.ts';
import type { SessionUser } from '../accounts/service.ts';
import { invalid } from '../errors.ts';
import { checkUpload, type RawUpload } from '../files/uploads.ts';
import { knownFront } from '../fulltext/editing.ts';
import { presentFullText } from '../fulltext/present.ts';
import type { Services } from '../services.ts';

/**
 * Publishing an accepted submission in one place (issue 22, decision 0035): the editor gives the final PDF and
 * the Word file together; both are kept with the submission and shown as readers will see them, with what needs
 * a person; the article goes live only when the editor publishes from that preview. The API and the desk's
 * pages call these, so both follow the same rules.
 */

const CHOOSE_A_FILE = 'Choose the final PDF, the Word file, or both.';

/**
 * Checks and keeps the final PDF and the Word file's full text for the preview. Every check (the PDF's, the Word
 * file's conversion) runs before anything is stored: a refused file leaves the earlier preview as it was.
 */
export async function preparePublication(
  services: Services,
  actor: SessionUser,
  id: number,
  files: { pdf?: RawUpload; word?: RawUpload },
): Promise<void> {
  const detail = await services.submissions.detail(id, actor);
  services.submissions.assertPublishable(detail);
  if (!files.pdf && !files.word) throw invalid(CHOOSE_A_FILE, { pdf: CHOOSE_A_FILE });
  const latest = detail.files.find((f) => f.kind === 'manuscript');
  if (!files.pdf && !detail.finalPdf && latest?.mediaType !== 'application/pdf') {
    const message = 'Choose the final PDF: the latest manuscript is not a PDF.';
    throw invalid(message, { pdf: message });
  }
  const [pdf, word] = await Promise.all([
    files.pdf
      ? checkUpload(files.pdf, { ...ARTICLE_PDF_RULE, maxBytes: services.config.MAX_ARTICLE_PDF_SIZE })
      : undefined,
    files.word
      ? checkUpload(files.word, { ...ARTICLE_WORD_RULE, maxBytes: services.config.MAX_MANUSCRIPT_SIZE })
      : undefined,
  ]);
  const owner = { submissionId: id };
  const known = word ? await knownFront(services, owner, actor) : null;
  const conversion = word && known ? await services.fulltext.convert(word, known) : undefined;
  if (pdf) await services.submissions.setFinalPdf(actor, id, pdf);
  if (word && known) await services.fulltext.store(actor, owner, word, known, conversion);
}

/** What the preview shows the editor, besides the article itself: the files, the full text, the warnings. */
export async function publicationPreview(services: Services, actor: SessionUser, id: number) {
  const detail = await services.submissions.detail(id, actor);
  const fullText = detail.articleId ? null : await services.fulltext.of({ submissionId: id });
  const latest = detail.files.find((f) => f.kind === 'manuscript');
  return {
    detail,
    fullText,
    /** The PDF that will be published: the one given here, else the latest manuscript when it is a PDF. */
    pdf: detail.finalPdf
      ? { ...detail.finalPdf, given: true }
      : latest?.mediaType === 'application/pdf'
        ? { name: latest.name, size: latest.size, given: false }
        : null,
    warnings: [
      ...services.submissions.publishWarnings(detail),
      // An unpaid article processing charge (decision 0063): a warning, or what will refuse the publishing.
      ...(detail.articleId ? [] : await services.apc.publishCheck(id, { enforce: false })),
    ],
  };
}

/** The API's answer for a prepared publication. */
export async function presentPublication(services: Services, actor: SessionUser, id: number) {
  const p = await publicationPreview(services, actor, id);
  return {
    pdf: p.pdf,
    fulltext: p.fullText ? presentFullText(p.fullText) : null,
    copyrightForm: p.detail.copyrightForm,
    warnings: p.warnings,
  };
}
