import { Form, Link, useLocation } from 'react-router';
import { z } from 'zod';
import { formatDay } from '../../common/dates.ts';
import { LIMITS } from '../../common/limits.ts';
import { dayField, poolQuerySchema } from '../../common/review.ts';
import { idField } from '../../common/schemas.ts';
import { SelectField, TextAreaField, TextField } from '../components/FormField.tsx';
import { ActionResult, refusalFor } from '../components/dashboard/ActionResult.tsx';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import { pageTitle } from '../lib/meta.ts';
import reviewersCss from '../styles/review-pool.css?url';
import type { Route } from './+types/editor-dashboard.reviewers';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: reviewersCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Reviewers · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const SEARCH_MAX = 200;
/** At most this many manuscripts under review are offered in the invitation's list. */
const UNDER_REVIEW_MAX = 200;

/** The invitation sent from the pool: a reviewer of the pool, to a submission under review. */
const poolInviteSchema = z.object({
  submissionId: idField('Submission', {
    required: 'Choose the submission to review.',
    invalid: 'Choose a submission from the list.',
  }),
  profileId: idField('Reviewer', {
    required: 'Choose a reviewer from the pool.',
    invalid: 'Choose a reviewer from the pool.',
  }),
  responseDue: dayField('Response due').optional(),
  reviewDue: dayField('Review due').optional(),
  message: z
    .string()
    .trim()
    .max(LIMITS.message, `The message to the reviewer must be at most ${LIMITS.message} characters.`)
    .optional(),
});


/**
 * The reviewer pool (issue 14): every reviewer with their load and record, searched by name or interest
 * (the service's one aggregate query, decision 0023); a reviewer is invited from here to a submission under
 * review. The private rating is the editors' average of their ratings.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const url = new URL(request.url);
  const typed = url.searchParams.get('q') ?? '';
  const parsed = validateForm(poolQuerySchema, typed.trim() ? { q: typed } : {});
  const q = parsed.ok ? parsed.data.q : undefined;
  const [reviewers, underReview] = await Promise.all([
    context.services.review.pool(q || undefined),
    context.services.submissions.list({ status: 'under_review', limit: UNDER_REVIEW_MAX, offset: 0 }),
  ]);
  const inviteId = Number(url.searchParams.get('invite'));
  const inviting = reviewers.find((r) => r.profileId === inviteId) ?? null;
  return {
    reviewers,
    typed,
    searchError: parsed.ok ? undefined : parsed.refusal.errors.q,
    inviting,
    submissions: underReview.submissions.map((s) => ({ id: s.id, reference: s.reference, title: s.title })),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const values = {
    submissionId: form.text('submissionId'),
    profileId: form.text('profileId'),
    responseDue: form.text('responseDue'),
    reviewDue: form.text('reviewDue'),
    message: form.text('message'),
  };
  if (intent !== 'invite')
    return replyRefused(intent, clientError(400, 'Unknown action.'));
  const parsed = validateForm(
    poolInviteSchema,
    Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== '')),
  );
  if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
  const { submissionId, ...invite } = parsed.data;
  try {
    const result = await context.services.review.invite(auth.user, submissionId, invite);
    const assignment = result.review.rounds.at(-1)?.assignments.find((a) => a.id === result.assignmentId);
    const reviewer = assignment?.reviewer.name ?? 'The reviewer';
    return replyDone(
      intent,
      `${reviewer} has been invited; the invitation e-mail is on its way.${result.warning ? ` Warning: ${result.warning}` : ''}`,
      { payload: { submissionId } },
    );
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    // The service's refusals name the reviewer (an author of the submission) or the round: shown by the form.
    const errors = refused.errors.reviewer ? { submissionId: refused.errors.reviewer } : refused.errors;
    return replyRefused(intent, { ...refused, errors }, values);
  }
}

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)} %`);
const days = (n: number | null) => (n === null ? '—' : String(n));

export default function ReviewerPool({ loaderData, actionData }: Route.ComponentProps) {
  const { reviewers, typed, searchError, inviting, submissions } = loaderData;
  const location = useLocation();
  const refused = refusalFor(actionData, 'invite');
  const result = actionData;
  const keep = new URLSearchParams(location.search);
  keep.delete('invite');
  const inviteHref = (profileId: number) => {
    const params = new URLSearchParams(keep);
    params.set('invite', String(profileId));
    return `?${params}#invite`;
  };
  return (
    <section aria-labelledby="reviewers-title" className="reviewer-pool">
      <h1 id="reviewers-title">Reviewers</h1>
      <p>
        Everyone who has been invited to review, with their current load and record. Median days are from
        accepting to submitting the review; the decline rate is declines out of answered invitations; the
        rating is the editors' private average (1-5). Invite a reviewer to a manuscript under review from
        their row.
      </p>

      <ActionResult result={actionData} />
      {result?.ok && 'submissionId' in result ? (
        <p className="reviewer-pool__next">
          <Link to={`/editor-dashboard/submissions/${result.submissionId}`}>
            Open the submission's desk page
          </Link>
        </p>
      ) : null}

      <Form method="get" className="panel dash-filters" role="search" aria-label="Find reviewers">
        <TextField
          id="reviewers-q"
          name="q"
          type="search"
          label="Search"
          hint="Name, e-mail, affiliation or area of interest."
          maxLength={SEARCH_MAX}
          defaultValue={typed}
          error={searchError}
        />
        <div className="reviewer-pool__filter-actions">
          <button type="submit" className="button button--primary">
            Search
          </button>
          {typed ? (
            <a href={location.pathname} className="button button--secondary">
              Clear
            </a>
          ) : null}
        </div>
      </Form>

      {/* Closed once the invitation is sent (its message says so above). */}
      {inviting && !result?.ok ? (
        <section id="invite" className="panel reviewer-pool__invite" aria-labelledby="invite-title">
          <h2 id="invite-title">Invite {inviting.name}</h2>
          {inviting.unavailableUntil ? (
            <p className="alert alert--info">
              {inviting.name} said they are unavailable until{' '}
              <time dateTime={inviting.unavailableUntil}>{formatDay(inviting.unavailableUntil)}</time>.
            </p>
          ) : null}
          {submissions.length === 0 ? (
            <p>
              No manuscript is under review. Move a submission to "Under review" on the{' '}
              <Link to="/editor-dashboard/submissions">submissions desk</Link> first.
            </p>
          ) : (
            <Form
              method="post"
              action={`${location.pathname}${location.search}`}
              className="form reviewer-pool__invite-form"
              key={`invite-${inviting.profileId}-${actionData?.at ?? 0}`}
              noValidate
            >
              <input type="hidden" name="profileId" value={inviting.profileId} />
              <SelectField
                id="invite-submission"
                name="submissionId"
                label="Submission under review"
                marks
                required
                placeholder="Choose a submission"
                defaultValue={refused.values.submissionId ?? ''}
                error={refused.errors.submissionId ?? refused.errors.profileId}
                options={submissions.map((s) => ({
                  value: String(s.id),
                  label: `${s.reference}: ${s.title}`,
                }))}
              />
              <div className="reviewer-pool__dates">
                <TextField
                  id="invite-response-due"
                  name="responseDue"
                  type="date"
                  label="Answer due"
                  marks
                  hint="Empty: the journal's default."
                  defaultValue={refused.values.responseDue}
                  error={refused.errors.responseDue}
                />
                <TextField
                  id="invite-review-due"
                  name="reviewDue"
                  type="date"
                  label="Review due"
                  marks
                  hint="Empty: the journal's default."
                  defaultValue={refused.values.reviewDue}
                  error={refused.errors.reviewDue}
                />
              </div>
              <TextAreaField
                id="invite-message"
                name="message"
                label="Message to the reviewer"
                marks
                rows={4}
                maxLength={LIMITS.message}
                hint="Added to the invitation e-mail."
                defaultValue={refused.values.message}
                error={refused.errors.message}
              />
              <div className="form-actions">
                <button type="submit" name="intent" value="invite" className="button button--primary">
                  Send the invitation
                </button>
                <a href={`?${keep}`} className="button button--secondary">
                  Cancel
                </a>
              </div>
            </Form>
          )}
        </section>
      ) : null}

      {reviewers.length === 0 ? (
        <p role="status">
          {typed ? 'No reviewer matches this search.' : 'Nobody has been invited to review yet.'}
        </p>
      ) : (
        <TableScroll labelledBy="reviewers-caption">
          <table className="dash-table reviewer-pool__table">
            <caption id="reviewers-caption">
              {typed ? `Reviewers matching “${typed}”` : 'Reviewers'} ({reviewers.length})
            </caption>
            <thead>
              <tr>
                <th scope="col">Reviewer</th>
                <th scope="col">Open</th>
                <th scope="col">Completed</th>
                <th scope="col">Median days</th>
                <th scope="col">Declines</th>
                <th scope="col">Last review</th>
                <th scope="col">Interests</th>
                <th scope="col">Rating</th>
                <th scope="col">
                  <span className="visually-hidden">Invite</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {reviewers.map((r) => (
                <tr key={r.profileId}>
                  <th scope="row">
                    {r.name}
                    <span className="dash-table__sub">{r.affiliation || 'No affiliation given'}</span>
                    <a href={`mailto:${r.email}`} className="dash-table__sub">
                      {r.email}
                    </a>
                    {r.unavailableUntil ? (
                      <span className="dash-table__sub reviewer-pool__away">
                        Unavailable until{' '}
                        <time dateTime={r.unavailableUntil}>{formatDay(r.unavailableUntil)}</time>
                      </span>
                    ) : null}
                  </th>
                  <td className="dash-table__number" data-label="Open">
                    {r.openAssignments}
                  </td>
                  <td className="dash-table__number" data-label="Completed">
                    {r.completedReviews}
                  </td>
                  <td className="dash-table__number" data-label="Median days">
                    {days(r.medianDaysToComplete)}
                  </td>
                  <td className="dash-table__number" data-label="Declines">
                    {percent(r.declineRate)}
                  </td>
                  <td data-label="Last review">
                    {r.lastReviewAt ? (
                      <time dateTime={r.lastReviewAt}>{r.lastReviewAt.slice(0, 10)}</time>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="dash-table__wrap" data-label="Interests">
                    {r.interests.length ? r.interests.join(', ') : <span className="muted">None given</span>}
                  </td>
                  <td className="dash-table__number" data-label="Rating">
                    {r.averageRating === null ? (
                      '—'
                    ) : (
                      <>
                        {r.averageRating}
                        <span className="visually-hidden"> out of 5</span>
                      </>
                    )}
                  </td>
                  <td className="reviewer-pool__action">
                    <a href={inviteHref(r.profileId)} className="button button--small button--secondary">
                      Invite<span className="visually-hidden"> {r.name}</span>
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
