import { Link, redirect } from 'react-router';
import { can } from '../../common/roles.ts';
import { dueText } from '../components/review/AuthorReview.tsx';
import { DateText } from '../components/submission/DateText.tsx';
import { StatusBadge } from '../components/submission/StatusBadge.tsx';
import { journalNameFrom, pageTitle } from '../lib/meta.ts';
import submissionCss from '../styles/submission.css?url';
import type { Route } from './+types/my-submissions';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: submissionCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'My submissions') },
  {
    name: 'description',
    content: `Your manuscripts submitted to ${journalNameFrom(matches) ?? 'the journal'}: where each one stands, the editors' messages, and revised versions.`,
  },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ context }: Route.LoaderArgs) {
  const auth = context.auth;
  if (!auth) throw redirect(`/login?${new URLSearchParams({ redirectTo: '/my-submissions' })}`);
  if (!can('submit', auth.user)) {
    return { allowed: false as const, username: auth.user.username, role: auth.user.role };
  }
  const submissions = await context.services.submissions.forUser(auth.user.id);
  // Peer review in a line (counts, never names: server/review/present.ts) for those in review or revision.
  const inReview = submissions.filter(
    (s) => s.status === 'under_review' || s.status === 'revisions_requested',
  );
  const views = await Promise.all(inReview.map((s) => context.services.review.forAuthor(auth.user, s.id)));
  const review: Record<number, { line: string; due: string | null }> = {};
  inReview.forEach((s, i) => {
    const { rounds, timeZone } = views[i];
    const round = rounds.at(-1);
    if (!round) return;
    const p = round.progress;
    review[s.id] = {
      line: round.decision
        ? round.reviews.length
          ? `${round.reviews.length} ${round.reviews.length === 1 ? 'review' : 'reviews'} shared with you`
          : `Round ${round.round} decided`
        : p.submitted + p.reviewing + p.invited
          ? `Round ${round.round}: ${p.submitted} of ${p.submitted + p.reviewing + p.invited} reviews received`
          : `Round ${round.round}: the editors are choosing reviewers`,
      due:
        s.status === 'revisions_requested' && round.revisionDue ? dueText(round.revisionDue, timeZone) : null,
    };
  });
  return { allowed: true as const, username: auth.user.username, submissions, review };
}

export default function MySubmissions({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page my-submissions">
      <header className="my-submissions__header">
        <div>
          <p className="eyebrow">For authors</p>
          <h1>My submissions</h1>
          <p className="lead">Your manuscripts, where each one stands, and what the editors have said.</p>
        </div>
        {loaderData.allowed ? (
          <Link to="/submission" className="button button--primary">
            Submit a manuscript
          </Link>
        ) : null}
      </header>
      {!loaderData.allowed ? (
        <div className="alert alert--info">
          <p>
            Submissions are made with an <strong>author</strong> account; you are signed in as{' '}
            <strong>{loaderData.username}</strong>, a {loaderData.role} account. See{' '}
            <Link to="/submission">how to submit a manuscript</Link>.
          </p>
        </div>
      ) : loaderData.submissions.length === 0 ? (
        <div className="submissions-empty">
          <h2>No submissions yet</h2>
          <p>
            When you submit a manuscript it appears here with its reference number, and you can follow it
            through review to the editors' decision.
          </p>
          <p>
            <Link to="/submission" className="button button--primary">
              Submit your first manuscript
            </Link>
          </p>
        </div>
      ) : (
        <ol className="submission-list" aria-label="Your submissions, newest first">
          {loaderData.submissions.map((s) => (
            <li key={s.id}>
              <article className="submission-card" aria-labelledby={`submission-${s.id}-title`}>
                <div className="submission-card__top">
                  <span className="reference">{s.reference}</span>
                  <span>
                    <span className="visually-hidden">Status: </span>
                    <StatusBadge status={s.status} published={s.articleId !== null} />
                  </span>
                </div>
                <h2 id={`submission-${s.id}-title`} className="submission-card__title">
                  <Link to={`/my-submissions/${s.id}`}>{s.title}</Link>
                </h2>
                <dl className="meta-list">
                  <div>
                    <dt>Type</dt>
                    <dd>{s.articleType}</dd>
                  </div>
                  <div>
                    <dt>Submitted</dt>
                    <dd>
                      <DateText iso={s.createdAt} />
                    </dd>
                  </div>
                  <div>
                    <dt>Last update</dt>
                    <dd>
                      <DateText iso={s.updatedAt} />
                    </dd>
                  </div>
                  {loaderData.review[s.id] ? (
                    <div>
                      <dt>Peer review</dt>
                      <dd>{loaderData.review[s.id].line}</dd>
                    </div>
                  ) : null}
                  {loaderData.review[s.id]?.due ? (
                    <div>
                      <dt>Revision due</dt>
                      <dd>{loaderData.review[s.id].due}</dd>
                    </div>
                  ) : null}
                </dl>
                {s.lastMessage ? (
                  <div className="editor-message">
                    <p className="editor-message__from">
                      {s.lastMessage.by === loaderData.username
                        ? 'Your note to the editors'
                        : 'Latest message from the editors'}
                      , <DateText iso={s.lastMessage.at} />:
                    </p>
                    <blockquote className="editor-message__text">{s.lastMessage.message}</blockquote>
                  </div>
                ) : null}
                <p className="submission-card__actions">
                  {s.status === 'revisions_requested' ? (
                    <Link
                      to={`/my-submissions/${s.id}#revision`}
                      className="button button--primary button--small"
                    >
                      Upload a revised manuscript
                      <span className="visually-hidden"> for {s.reference}</span>
                    </Link>
                  ) : null}
                  <Link to={`/my-submissions/${s.id}`} className="button button--secondary button--small">
                    History and files<span className="visually-hidden"> of {s.reference}</span>
                  </Link>
                </p>
              </article>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
