import type { ShouldRevalidateFunction } from 'react-router';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { DeskInvoice, ReviewerVouchers } from '../components/apc/Invoice.tsx';
import { DecisionPanel } from '../components/desk/DecisionPanel.tsx';
import { DeskHeader } from '../components/desk/DeskHeader.tsx';
import { deskAction } from '../components/desk/desk-action.server.ts';
import { deskLoader } from '../components/desk/desk-loader.server.ts';
import { FilesPanel } from '../components/desk/FilesPanel.tsx';
import { HistoryPanel } from '../components/desk/HistoryPanel.tsx';
import { PublishedPanel } from '../components/desk/PublishedPanel.tsx';
import { PublishPanel } from '../components/desk/PublishPanel.tsx';
import { CommunicationLog } from '../components/review/CommunicationLog.tsx';
import { ReviewPanel } from '../components/review/ReviewPanel.tsx';
import { SubmissionMetadata } from '../components/SubmissionMetadata.tsx';
import { SimilaritySummary } from '../components/similarity/SimilaritySummary.tsx';
import { pageTitle } from '../lib/meta.ts';
import reviewDeskCss from '../styles/review-desk.css?url';
import submissionCss from '../styles/submission.css?url';
import apcCss from '../styles/apc.css?url';
import type { Route } from './+types/editor-dashboard.submissions.$id';

/**
 * A submission's desk (issues 14, 22): what it reads and what its forms post are `components/desk/desk-*.server.ts`;
 * its panels are `components/desk/*Panel.tsx`, the submission's metadata `components/SubmissionMetadata.tsx` (shared
 * with the author's page) and the peer-review panel `components/review/ReviewPanel.tsx`.
 */

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: apcCss },
  { rel: 'stylesheet', href: submissionCss },
  { rel: 'stylesheet', href: reviewDeskCss },
];

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  {
    title: pageTitle(
      matches,
      loaderData
        ? `${loaderData.submission.reference} · Submissions · Editorial dashboard`
        : 'Submission · Editorial dashboard',
    ),
  },
  { name: 'robots', content: 'noindex' },
];

export const loader = (args: Route.LoaderArgs) => deskLoader(args);

/**
 * After every post, refused ones included, the page reads the submission again: a refusal may come from
 * another editor having moved it on meanwhile, and the page then shows where it stands now.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === 'POST' ? true : defaultShouldRevalidate;

// Publishing (files, preview, publish) is the publish page's action: routes/editor-dashboard.submissions.$id.publish.tsx.
export const action = (args: Route.ActionArgs) => deskAction(args);

export default function DeskSubmission({ loaderData, actionData }: Route.ComponentProps) {
  const { submission: s, article } = loaderData;
  const round = actionData?.at ?? 0;
  return (
    <article className="desk-submission" aria-labelledby="submission-title">
      <DeskHeader submission={s} />
      <ActionResult result={actionData} />
      <div className="panel">
        <SimilaritySummary summary={loaderData.similarity} submissionId={s.id} />
      </div>
      {article ? <PublishedPanel article={article} /> : null}
      <ReviewPanel
        data={loaderData.review}
        result={actionData}
        canInvite={s.status === 'under_review'}
        canOpen={s.nextStatuses.includes('under_review')}
      />
      <ReviewerVouchers reviews={loaderData.apc.completedReviews} result={actionData} />
      {loaderData.apc.invoice ? (
        <DeskInvoice invoice={loaderData.apc.invoice} result={actionData} today={loaderData.apc.today} />
      ) : null}
      {s.nextStatuses.length ? (
        <DecisionPanel submission={s} review={loaderData.review} result={actionData} round={round} />
      ) : s.status === 'rejected' ? (
        <p className="panel desk-final">This submission was rejected; no further decision can be made.</p>
      ) : null}
      {s.status === 'accepted' && !s.articleId ? (
        <PublishPanel
          submissionId={s.id}
          latestManuscript={s.files.find((f) => f.kind === 'manuscript')}
          prepared={loaderData.prepared}
          maxPdfBytes={loaderData.maxPdfBytes}
          maxWordBytes={loaderData.maxWordBytes}
          result={actionData}
          round={round}
        />
      ) : null}

      <div className="submission-detail__grid">
        <div>
          <SubmissionMetadata submission={s} reader="editor" />
        </div>
        <div>
          <FilesPanel submission={s} />
          <HistoryPanel history={s.history} />
        </div>
      </div>
      <CommunicationLog entries={loaderData.review.log} />
    </article>
  );
}
