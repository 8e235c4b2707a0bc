import { useCallback, useEffect, useRef, useState } from 'react';
import { Form, Link, useFetcher } from 'react-router';
import { formatDay } from '../../../common/dates.ts';
import { type Question, RECOMMENDATIONS, RECOMMENDATION_LABELS } from '../../../common/review.ts';
import { REVIEW_ATTACHMENT_RULE } from '../../../common/upload-rules.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { AUTOSAVE, REMOVE_ATTACHMENT, answerField, reviewFieldNames } from '../../lib/review-form.ts';
import { useFormElementDraft } from '../../lib/use-form-draft.ts';
import type { ReviewLoaderData } from '../../routes/reviews.$id.tsx';
import { DraftOffer } from '../DraftOffer.tsx';
import { FileField } from '../FileField.tsx';
import { ChoiceField, CheckField, TextAreaField, TextField } from '../FormField.tsx';
import { DateText } from '../submission/DateText.tsx';

type View = Extract<ReviewLoaderData, { kind: 'view' }>['view'];
type Answers = Record<string, unknown>;

/** How long typing pauses before the draft is saved on the server. */
const AUTOSAVE_MS = 1500;

const time = (iso: string) =>
  new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

/** An answer as its field shows it ("yes"/"no", "3", the text). */
function shown(q: Question, answers: Answers, typed?: Record<string, string>): string | undefined {
  const t = typed?.[answerField(q.id)];
  if (t !== undefined) return t;
  const a = answers[q.id];
  if (a === undefined || a === null) return undefined;
  if (typeof a === 'boolean') return a ? 'yes' : 'no';
  return String(a);
}

/**
 * The review: recommendation, comments for the author, confidential comments, an attached file and the
 * journal's questions. Saved on the server as a draft while the reviewer types (and with "Save draft"
 * without JavaScript), so nothing is lost when the browser closes; a copy is kept in the tab when a
 * signed-in session ends (decision 0016). Submitted once.
 */
export function ReviewForm({
  view,
  limits,
  result,
}: {
  view: View;
  limits: { attachment: number };
  result: FormResult | null;
}) {
  const review = view.review!;
  const failure =
    result && !result.ok && (result.intent === 'draft' || result.intent === 'submit') ? result : null;
  const typed = failure?.values;
  const errors = failure?.errors ?? {};
  const formRef = useRef<HTMLFormElement>(null);
  const draft = useFormElementDraft(`review:${view.id}`, formRef, reviewFieldNames(view.questions));
  const fetcher = useFetcher<FormResult>();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [savedAt, setSavedAt] = useState<string | null>(review.draftSavedAt);
  const [saveProblem, setSaveProblem] = useState<string | null>(null);
  // Whether the draft being saved removes the attached file, and whether the last one saved did.
  const removing = useRef(false);
  const [removed, setRemoved] = useState(false);

  const save = useCallback(() => {
    const form = formRef.current;
    if (!form) return;
    const body = new FormData(form);
    body.delete(REVIEW_ATTACHMENT_RULE.field);
    body.set('intent', 'draft');
    body.set(AUTOSAVE, 'true');
    removing.current = body.get(REMOVE_ATTACHMENT) === 'true';
    fetcher.submit(body, { method: 'post' });
  }, [fetcher.submit]);

  const schedule = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(save, AUTOSAVE_MS);
  };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  useEffect(() => {
    const answer = fetcher.data;
    if (!answer || fetcher.state !== 'idle') return;
    if (answer.ok) {
      setSavedAt(new Date(answer.at).toISOString());
      setSaveProblem(null);
      setRemoved(removing.current);
    } else {
      if (
        answer.errors &&
        Object.keys(answer.errors).length === 0 &&
        /session|sign in/i.test(answer.message)
      ) {
        draft.keep();
      }
      setSaveProblem(answer.message);
    }
  }, [fetcher.data, fetcher.state, draft.keep]);

  // The form's own post answered: a submitted draft needs no copy in the tab.
  useEffect(() => {
    if (result?.ok && (result.intent === 'draft' || result.intent === 'submit')) draft.clear();
  }, [result, draft.clear]);

  const saving = fetcher.state !== 'idle';
  return (
    <section className="panel review-form" aria-labelledby="review-title">
      <h2 id="review-title">Your review</h2>
      <p>
        Your review is saved as a draft while you type, so you can stop and come back at any time before the
        review due date ({formatDay(view.reviewDue)}). Submit it when it is complete: it cannot be changed
        afterwards.
      </p>
      <DraftOffer draft={draft} what="your review" withFiles />
      <Form
        ref={formRef}
        method="post"
        encType="multipart/form-data"
        noValidate
        className="form"
        onInput={schedule}
        onChange={schedule}
      >
        <ChoiceField
          name="recommendation"
          legend="Your recommendation"
          options={RECOMMENDATIONS.map((r) => ({ value: r, label: RECOMMENDATION_LABELS[r] }))}
          value={typed?.recommendation ?? review.recommendation ?? undefined}
          error={errors.recommendation}
          required
          marks
        />
        <TextAreaField
          name="commentsForAuthor"
          label="Comments for the author"
          hint="The editors may share these with the authors."
          rows={10}
          defaultValue={typed?.commentsForAuthor ?? review.commentsForAuthor}
          error={errors.commentsForAuthor}
          required
          marks
        />
        <TextAreaField
          name="confidentialComments"
          label="Confidential comments for the editor"
          hint="Only the editors read these."
          rows={5}
          defaultValue={typed?.confidentialComments ?? review.confidentialComments}
          error={errors.confidentialComments}
          marks
        />
        {view.questions.length ? (
          <fieldset className="review-questions">
            <legend>The journal's questions</legend>
            {view.questions.map((q) => (
              <QuestionField
                key={q.id}
                q={q}
                value={shown(q, review.answers, typed)}
                error={errors[`answers.${q.id}`]}
              />
            ))}
          </fieldset>
        ) : null}
        <FileField
          // Emptied once a post saved the chosen file: it is then the attached one, named in the hint.
          key={`file-${result?.ok ? result.at : 0}`}
          rule={REVIEW_ATTACHMENT_RULE}
          maxBytes={limits.attachment}
          label="Attach a file"
          hint={
            review.hasAttachment ? (
              <>
                Attached now:{' '}
                <Link reloadDocument to={`/reviews/${view.id}/attachment`} download>
                  your file
                </Link>
                . Choosing another replaces it. PDF or Word.
              </>
            ) : (
              'For example an annotated manuscript. PDF or Word.'
            )
          }
          error={errors.file}
        />
        {review.hasAttachment ? (
          <CheckField
            // A new key once the file is gone, so a later attachment starts unticked.
            key={`remove-${review.hasAttachment}`}
            name={REMOVE_ATTACHMENT}
            className="review-form__remove"
            label="Remove the attached file (when the draft is next saved)"
            defaultChecked={typed?.[REMOVE_ATTACHMENT] === 'true'}
          />
        ) : null}
        {view.mode === 'open' ? (
          <CheckField
            name="publishAgreed"
            label="I agree that my review (with my name) may be published with the article if it is accepted."
            defaultChecked={typed ? typed.publishAgreed === 'true' : review.publishAgreed}
          />
        ) : null}
        <p className="review-form__saved" aria-live="polite">
          {saving ? (
            'Saving the draft…'
          ) : saveProblem ? (
            <span className="field__error">The draft was not saved: {saveProblem}</span>
          ) : savedAt ? (
            <>
              Draft saved at {time(savedAt)}.{removed ? ' The attached file is removed.' : null}
            </>
          ) : null}
        </p>
        <div className="form-actions">
          <button type="submit" name="intent" value="draft" className="button button--secondary">
            Save draft
          </button>
          <button type="submit" name="intent" value="submit" className="button button--primary">
            Submit the review
          </button>
        </div>
      </Form>
    </section>
  );
}

function QuestionField({ q, value, error }: { q: Question; value?: string; error?: string }) {
  const name = answerField(q.id);
  const common = { name, error, required: q.required, marks: true };
  switch (q.type) {
    case 'short-text':
      return <TextField {...common} label={q.label} defaultValue={value} maxLength={500} />;
    case 'long-text':
      return <TextAreaField {...common} label={q.label} rows={5} defaultValue={value} />;
    case 'yes-no':
      return (
        <ChoiceField
          {...common}
          legend={q.label}
          value={value}
          options={[
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ]}
        />
      );
    case 'choice':
      return (
        <ChoiceField
          {...common}
          legend={q.label}
          value={value}
          options={(q.options ?? []).map((o) => ({ value: o, label: o }))}
        />
      );
    case 'scale':
      return (
        <div className="scale-field">
          <ChoiceField
            {...common}
            legend={q.label}
            hint="1 is the lowest, 5 the highest."
            value={value}
            options={['1', '2', '3', '4', '5'].map((o) => ({ value: o, label: o }))}
          />
        </div>
      );
  }
}

/** The review as submitted: read-only. */
export function ReviewReadOnly({ view }: { view: View }) {
  const review = view.review;
  if (!review) return null;
  return (
    <section className="panel panel--done review-form" aria-labelledby="review-title">
      <h2 id="review-title">Your review</h2>
      <p>
        {review.submittedAt ? (
          <>
            Submitted <DateText iso={review.submittedAt} time />. It can no longer be changed.
          </>
        ) : (
          'The editors have decided on this round before the review was submitted.'
        )}
      </p>
      <dl className="details-list">
        <div>
          <dt>Recommendation</dt>
          <dd>{review.recommendation ? RECOMMENDATION_LABELS[review.recommendation] : '—'}</dd>
        </div>
        <div>
          <dt>Comments for the author</dt>
          <dd className="prose-text">{review.commentsForAuthor || '—'}</dd>
        </div>
        <div>
          <dt>Confidential comments for the editor</dt>
          <dd className="prose-text">{review.confidentialComments || '—'}</dd>
        </div>
        {view.questions.map((q) => (
          <div key={q.id}>
            <dt>{q.label}</dt>
            <dd className="prose-text">{shown(q, review.answers) ?? '—'}</dd>
          </div>
        ))}
        {review.hasAttachment ? (
          <div>
            <dt>Attached file</dt>
            <dd>
              <Link reloadDocument to={`/reviews/${view.id}/attachment`} download>
                Download the attached file
              </Link>
            </dd>
          </div>
        ) : null}
        {view.mode === 'open' ? (
          <div>
            <dt>Publication of the review</dt>
            <dd>{review.publishAgreed ? 'You agreed to its publication.' : 'Not to be published.'}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
