import { Link, redirect } from 'react-router';
import { ASSIGNMENT_STATUS_LABELS, REVIEW_MODE_LABELS } from '../../common/review.ts';
import { DueDates } from '../components/review/DueDates.tsx';
import { DateText } from '../components/submission/DateText.tsx';
import { pageTitle } from '../lib/meta.ts';
import reviewCss from '../styles/review.css?url';
import submissionCss from '../styles/submission.css?url';
import type { Route } from './+types/reviews';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: submissionCss },
  { rel: 'stylesheet', href: reviewCss },
];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Reviews') },
  { name: 'robots', content: 'noindex' },
];

/** The signed-in account's invitations and assignments (issue 14), in three groups. */
export async function loader({ context }: Route.LoaderArgs) {
  const auth = context.auth;
  if (!auth) throw redirect(`/login?${new URLSearchParams({ redirectTo: '/reviews' })}`);
  const all = await context.services.review.mine(auth.user);
  const open = all.filter((a) => !a.roundDecided);
  return {
    waiting: open.filter((a) => a.state === 'invited'),
    working: open.filter((a) => a.state === 'accepted'),
    done: all.filter((a) => a.roundDecided || (a.state !== 'invited' && a.state !== 'accepted')),
  };
}

type Assignment = Route.ComponentProps['loaderData']['done'][number];

const GROUPS = [
  {
    key: 'waiting',
    title: 'Waiting for your answer',
    empty: 'No invitation is waiting for your answer.',
  },
  { key: 'working', title: 'In progress', empty: 'No review in progress.' },
  { key: 'done', title: 'Done', empty: 'Nothing here yet.' },
] as const;

export default function Reviews({ loaderData }: Route.ComponentProps) {
  const total = loaderData.waiting.length + loaderData.working.length + loaderData.done.length;
  return (
    <div className="page reviews-page">
      <header className="my-submissions__header">
        <div>
          <p className="eyebrow">For reviewers</p>
          <h1>Reviews</h1>
          <p className="lead">
            The manuscripts the editors have asked you to review: answer each invitation, then write and
            submit your review before its due date.
          </p>
          <p>
            <Link to="/reviews/profile">Your reviewer profile</Link>: your areas of interest, ORCID iD, and
            the days you are unavailable, as the editors see them.
          </p>
        </div>
      </header>
      {total === 0 ? (
        <div className="submissions-empty">
          <h2>No review invitations</h2>
          <p>
            When the editors invite you to review a manuscript, the invitation appears here and in an e-mail
            to you.
          </p>
        </div>
      ) : (
        GROUPS.map((g) => (
          <section key={g.key} className="review-group" aria-labelledby={`group-${g.key}`}>
            <h2 id={`group-${g.key}`}>
              {g.title} <span className="review-group__count">({loaderData[g.key].length})</span>
            </h2>
            {loaderData[g.key].length === 0 ? (
              <p className="muted">{g.empty}</p>
            ) : (
              <ul className="submission-list">
                {loaderData[g.key].map((a) => (
                  <li key={a.id}>
                    <AssignmentCard a={a} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        ))
      )}
    </div>
  );
}

function AssignmentCard({ a }: { a: Assignment }) {
  const closedRound = a.roundDecided && (a.state === 'invited' || a.state === 'accepted');
  const action =
    a.state === 'invited' && !closedRound
      ? 'Answer the invitation'
      : a.state === 'accepted' && !closedRound
        ? 'Write the review'
        : 'View';
  return (
    <article className="submission-card" aria-labelledby={`review-${a.id}-title`}>
      <div className="submission-card__top">
        <span className="reference">
          {a.reference} · round {a.round}
        </span>
        <span className={`review-status review-status--${a.status}`}>
          {closedRound ? 'Closed: the editors have decided' : ASSIGNMENT_STATUS_LABELS[a.status]}
        </span>
      </div>
      <h3 id={`review-${a.id}-title`} className="submission-card__title">
        <Link to={`/reviews/${a.id}`}>{a.title}</Link>
      </h3>
      {a.state === 'invited' || a.state === 'accepted' ? (
        closedRound ? null : (
          <DueDates state={a.state} status={a.status} responseDue={a.responseDue} reviewDue={a.reviewDue} />
        )
      ) : a.submittedAt ? (
        <p className="muted">
          Submitted <DateText iso={a.submittedAt} />
        </p>
      ) : null}
      <p className="muted review-card__mode">{REVIEW_MODE_LABELS[a.mode]}</p>
      <p className="submission-card__actions">
        <Link
          to={`/reviews/${a.id}`}
          className={`button button--small ${action === 'View' ? 'button--secondary' : 'button--primary'}`}
        >
          {action}
          <span className="visually-hidden">: {a.title}</span>
        </Link>
      </p>
    </article>
  );
}
