import { Form } from 'react-router';
import { formatDay } from '../../../common/dates.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { CheckField, FieldError, TextAreaField, TextField } from '../FormField.tsx';
import type { DeskReviewData } from './desk-review.server.ts';
import { type Candidate, type Round, refusalOfForm } from './review-panel.ts';

/** Invite a reviewer: search the pool (and accounts), pick one, or type a name and e-mail. */
export function InviteForm({
  data,
  round,
  result,
}: {
  data: DeskReviewData;
  round: Round;
  result: FormResult | undefined;
}) {
  const refused = refusalOfForm(result, 'invite');
  const kept = result && !result.ok && result.intent === 'invite';
  const candidates = data.candidates;
  const pickError = refused.errors.reviewer;
  return (
    <section className="review-invite" aria-labelledby="invite-title" id="invite">
      <h3 id="invite-title">Invite a reviewer to round {round.number}</h3>
      <Form method="get" role="search" aria-label="Find a reviewer" className="dash-inline-form review-find">
        <TextField
          id="invite-find"
          name="find"
          type="search"
          label="Find a reviewer"
          hint="Name, e-mail, affiliation or area of interest: the reviewer pool and the journal’s accounts."
          defaultValue={data.find}
          maxLength={200}
        />
        {data.otherJournals ? (
          <CheckField
            name="site"
            value="on"
            label="Also the reviewers of the site’s other journals"
            defaultChecked={data.site}
          />
        ) : null}
        <button type="submit" className="button button--secondary">
          Search
        </button>
      </Form>
      <Form
        method="post"
        noValidate
        aria-labelledby="invite-title"
        key={kept ? `invite-kept-${result.at}` : `invite-${result?.at ?? 0}`}
      >
        <input type="hidden" name="find" value={data.find} />
        {candidates ? (
          <fieldset
            className={pickError ? 'field field--invalid review-candidates' : 'field review-candidates'}
            aria-describedby={pickError ? 'invite-reviewer-error' : undefined}
          >
            <legend className="field__label">
              {candidates.length
                ? `Reviewers matching “${data.find}”`
                : `Nobody matches “${data.find}”: type the name and e-mail below.`}
            </legend>
            {pickError ? <FieldError id="invite-reviewer-error" message={pickError} /> : null}
            {candidates.map((c) => (
              <CandidateOption key={c.pick} c={c} checked={refused.values.reviewer === c.pick} />
            ))}
            {candidates.length ? (
              <div className="review-candidate">
                <input
                  type="radio"
                  id="invite-pick-none"
                  name="reviewer"
                  value=""
                  defaultChecked={!refused.values.reviewer}
                />
                <label htmlFor="invite-pick-none">Someone else: type the name and e-mail below</label>
              </div>
            ) : null}
          </fieldset>
        ) : pickError ? (
          <p className="field__error" id="invite-reviewer-error">
            <span className="visually-hidden">Error: </span>
            {pickError}
          </p>
        ) : null}
        <p className="review-invite__or">
          {candidates?.length ? 'Or someone' : 'Someone'} by name and e-mail: they get an account only if they
          accept.
        </p>
        <div className="dash-forms">
          <TextField
            id="invite-name"
            name="name"
            label="Name"
            autoComplete="off"
            defaultValue={refused.values.name}
            error={refused.errors.name}
            maxLength={200}
          />
          <TextField
            id="invite-email"
            name="email"
            type="email"
            label="E-mail address"
            autoComplete="off"
            defaultValue={refused.values.email}
            error={refused.errors.email}
            maxLength={254}
          />
          <TextField
            id="invite-affiliation"
            name="affiliation"
            label="Affiliation"
            hint="Optional."
            defaultValue={refused.values.affiliation}
            error={refused.errors.affiliation}
            maxLength={300}
          />
        </div>
        <div className="dash-forms">
          <TextField
            id="invite-response-due"
            name="responseDue"
            type="date"
            label="Response due"
            hint={`Default ${formatDay(data.responseDueDefault)}.`}
            defaultValue={refused.values.responseDue ?? data.responseDueDefault}
            error={refused.errors.responseDue}
          />
          <TextField
            id="invite-review-due"
            name="reviewDue"
            type="date"
            label="Review due"
            hint={`Default ${formatDay(data.reviewDueDefault)}.`}
            defaultValue={refused.values.reviewDue ?? data.reviewDueDefault}
            error={refused.errors.reviewDue}
          />
        </div>
        <TextAreaField
          id="invite-message"
          name="message"
          label="A personal note in the invitation"
          hint="Optional. The invitation already gives the title, the abstract, the due dates and the link."
          rows={3}
          defaultValue={refused.values.message}
          error={refused.errors.message}
        />
        <button type="submit" name="intent" value="invite" className="button button--primary">
          Send the invitation
        </button>
      </Form>
    </section>
  );
}

function CandidateOption({ c, checked }: { c: Candidate; checked: boolean }) {
  const id = `invite-pick-${c.pick.replace(':', '-')}`;
  const facts = [
    c.affiliation,
    c.otherJournals !== null
      ? `reviews for ${c.otherJournals === 1 ? 'another journal' : `${c.otherJournals} other journals`} of the site`
      : '',
    c.openAssignments !== null
      ? `${c.openAssignments} open, ${c.completedReviews} completed`
      : 'not in the pool yet',
    c.interests.length ? `interests: ${c.interests.join(', ')}` : '',
    c.averageRating !== null ? `rated ${c.averageRating} of 5` : '',
  ].filter(Boolean);
  return (
    <div className="review-candidate">
      <input
        type="radio"
        id={id}
        name="reviewer"
        value={c.pick}
        defaultChecked={checked}
        aria-describedby={`${id}-facts`}
      />
      <label htmlFor={id}>
        <strong>{c.name}</strong>
        {c.email ? <> &lt;{c.email}&gt;</> : null}
        <span id={`${id}-facts`} className="review-candidate__facts">
          {facts.join(' · ')}
          {c.unavailableUntil ? (
            <span className="review-warning--inline">
              {' '}
              · Unavailable until {formatDay(c.unavailableUntil)}
            </span>
          ) : null}
        </span>
      </label>
    </div>
  );
}
