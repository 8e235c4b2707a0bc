import type { AppLoadContext } from 'react-router';
import { orNotFound } from '../../lib/not-found.server.ts';
import { idParam } from '../../lib/route-params.ts';
import { requireEditor } from '../dashboard/guard.server.ts';
import { deskReviewData } from '../review/desk-review.server.ts';

/** What the route passes on: the server's context, the request, the submission's id in the URL. */
export interface DeskArgs {
  context: AppLoadContext;
  request: Request;
  params: { id?: string };
}

/**
 * What the submission's desk page reads (issue 14, 22): the submission, its similarity summary, the peer review,
 * the article once published, and what publishing would use.
 */
export async function deskLoader({ context, request, params }: DeskArgs) {
  const auth = requireEditor(context, request);
  const id = idParam(params.id);
  const { submissions, catalog } = context.services;
  const submission = await orNotFound(submissions.detail(id, auth.user));
  const publishable = submission.status === 'accepted' && !submission.articleId;
  const url = new URL(request.url);
  const find = (url.searchParams.get('find') ?? '').trim().slice(0, 200);
  // The editor asked for the site's pool too (decision 0058): the reviewers of the site's other journals.
  const site = url.searchParams.get('site') === 'on';
  const [article, similarity, review, fullText, invoice, completedReviews, today] = await Promise.all([
    submission.articleId
      ? catalog.article(submission.articleId, { includeUnpublished: true }).catch(() => null)
      : Promise.resolve(null),
    // What the arrival check stored for the latest version (the full report is its own page).
    context.services.similarity.summaryForSubmission(id),
    // Peer review: the rounds, the reviewer search, the communication log (issue 14).
    deskReviewData(context.services, id, find, { site }),
    // The Word file given for publishing (its preview is the publish page's: issue 22).
    publishable ? context.services.fulltext.of({ submissionId: id }) : Promise.resolve(null),
    // The article processing charge (decision 0063): the invoice, and vouchers for completed reviews.
    context.services.apc.forSubmission(auth.user, id),
    context.services.apc.completedReviews(id),
    context.services.apc.today(),
  ]);
  const latest = submission.files.find((f) => f.kind === 'manuscript');
  // Where its DOI stands with Crossref (decision 0064).
  const doi = article ? await context.services.doi.ofArticle(article.id).catch(() => null) : null;
  return {
    submission,
    similarity,
    review,
    apc: { invoice, completedReviews, today },
    maxPdfBytes: context.services.config.MAX_ARTICLE_PDF_SIZE,
    maxWordBytes: context.services.config.MAX_MANUSCRIPT_SIZE,
    prepared: {
      pdf: submission.finalPdf
        ? { ...submission.finalPdf, given: true }
        : latest?.mediaType === 'application/pdf'
          ? { name: latest.name, size: latest.size, given: false }
          : null,
      word: fullText?.sourceName ?? null,
    },
    article: article
      ? {
          id: article.id,
          title: article.title,
          status: article.status,
          volume_number: article.volume_number,
          issue_number: article.issue_number,
          pages: article.pages,
          doi: article.doi,
          doiState: doi ? { state: doi.state, message: doi.message } : null,
        }
      : null,
  };
}

export type DeskLoaderData = Awaited<ReturnType<typeof deskLoader>>;
export type DeskSubmission = DeskLoaderData['submission'];
