import { Form } from 'react-router';
import { QUESTION_TYPES, type QuestionType, reviewFormSchema } from '../../common/review.ts';
import { CheckField, SelectField, TextAreaField, TextField } from '../components/FormField.tsx';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { questionsFromForm, questionsToForm } from '../lib/review-form-editor.ts';
import adminCss from '../styles/dashboard-admin.css?url';
import reviewCss from '../styles/review.css?url';
import type { Route } from './+types/editor-dashboard.review-form';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: adminCss },
  { rel: 'stylesheet', href: reviewCss },
];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Review form · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const TYPE_LABELS: Record<QuestionType, string> = {
  'short-text': 'Short text',
  'long-text': 'Long text',
  'yes-no': 'Yes or no',
  choice: 'One of a list',
  scale: 'A scale from 1 to 5',
};

/**
 * The journal's review form (issue 14): the questions every new round's reviewers answer. A form a round has
 * used is never changed under it: saving makes a new version for later rounds (decision 0023).
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const [form] = await context.services.review.forms();
  return { form: form ?? null };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form } = read;
  const values = form.values();
  const { questions, errors: rowErrors } = questionsFromForm(form);
  const parsed = validateForm(reviewFormSchema, {
    name: form.text('name'),
    questions: questions.map((q) => q.question),
  });
  const refuse = (message: string, errors: Record<string, string>) =>
    replyRefused('save', clientError(400, message, errors), values);
  if (Object.keys(rowErrors).length) return refuse(Object.values(rowErrors)[0], rowErrors);
  if (!parsed.ok) {
    // A question's message goes beside the row it came from (`questions.2.label` → that row's label field).
    const errors: Record<string, string> = {};
    for (const [key, message] of Object.entries(parsed.refusal.errors)) {
      const m = /^questions\.(\d+)\.(\w+)/.exec(key);
      errors[m ? `q.${questions[Number(m[1])].row}.${m[2]}` : key] ??= message;
    }
    return refuse(parsed.refusal.message, errors);
  }
  const { review } = context.services;
  const id = Number(form.text('formId')) || null;
  try {
    if (!id) {
      await review.createForm(auth.user, parsed.data);
      return replyDone('save', 'The review form is saved: new review rounds use it.');
    }
    const saved = await review.updateForm(auth.user, id, parsed.data);
    return replyDone(
      'save',
      saved.id === id
        ? 'The review form is saved: new review rounds use it.'
        : 'Saved as a new version: new review rounds use it, and rounds already under way keep the questions their reviewers were given.',
    );
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused('save', refused, values);
  }
}

export default function ReviewFormPage({ loaderData, actionData }: Route.ComponentProps) {
  const refused = actionData && !actionData.ok ? actionData : null;
  const stored = loaderData.form;
  const values: Record<string, string> = refused?.values ?? {
    name: stored?.name ?? 'Review form',
    ...questionsToForm(stored?.questions ?? []),
  };
  const errors = refused?.errors ?? {};
  const all = [...new Set(Object.keys(values).flatMap((k) => /^q\.(\d+)\./.exec(k)?.[1] ?? []))].map(Number);
  const blank = Math.max(-1, ...all) + 1;
  // An empty new row sent back after a refusal is not shown twice (a fresh one ends the list).
  const rows = all
    .filter((r) => values[`q.${r}.label`]?.trim() || values[`q.${r}.id`])
    .sort((a, b) => Number(values[`q.${a}.order`] ?? a) - Number(values[`q.${b}.order`] ?? b) || a - b);
  // A new key after each answer and each newly stored form: the fields then show it instead of what they kept.
  const key = `${actionData ? actionData.at : 'loaded'}-${stored ? JSON.stringify([stored.id, stored.name, stored.questions]) : ''}`;
  return (
    <section aria-labelledby="review-form-title" className="review-form-editor">
      <h1 id="review-form-title">Review form</h1>
      <p className="lead">
        The questions reviewers answer beside their recommendation and comments. New review rounds take this
        form; a round already under way keeps the questions its reviewers were given.
      </p>
      <ActionResult result={actionData} />
      <Form method="post" key={key} noValidate aria-labelledby="review-form-title">
        <input type="hidden" name="formId" value={stored?.id ?? ''} />
        <TextField
          id="rf-name"
          name="name"
          label="Name of the form"
          marks
          required
          defaultValue={values.name}
          error={errors.name}
        />
        {errors.questions ? <p className="field__error">{errors.questions}</p> : null}
        <ol className="question-rows">
          {[...rows, blank].map((row, i) => (
            <li key={row}>
              <QuestionRow row={row} position={i + 1} values={values} errors={errors} isNew={row === blank} />
            </li>
          ))}
        </ol>
        <p className="field__hint">
          To reorder, change the numbers in “Position” and save. To add a question, fill in the empty one at
          the end and save; another empty one appears.
        </p>
        <input type="hidden" name="intent" value="save" />
        <button type="submit" className="button button--primary">
          Save the review form
        </button>
      </Form>
    </section>
  );
}

function QuestionRow({
  row,
  position,
  values,
  errors,
  isNew,
}: {
  row: number;
  position: number;
  values: Record<string, string>;
  errors: Record<string, string>;
  isNew: boolean;
}) {
  const f = (name: string) => `q.${row}.${name}`;
  const id = (name: string) => `rf-${row}-${name}`;
  return (
    <fieldset className="question-row">
      <legend>{isNew ? 'New question' : `Question ${position}`}</legend>
      <input type="hidden" name={f('id')} value={values[f('id')] ?? ''} />
      <div className="question-row__grid">
        <TextField
          id={id('label')}
          name={f('label')}
          label="Question"
          defaultValue={values[f('label')]}
          error={errors[f('label')]}
          hint={isNew ? 'Leave empty to add nothing.' : undefined}
        />
        <SelectField
          id={id('type')}
          name={f('type')}
          label="Answered by"
          options={QUESTION_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] }))}
          defaultValue={values[f('type')] ?? 'long-text'}
          error={errors[f('type')]}
        />
        <TextField
          id={id('order')}
          name={f('order')}
          label="Position"
          inputMode="numeric"
          fieldClassName="field--short"
          defaultValue={values[f('order')] ?? String(position)}
          error={errors[f('order')]}
        />
      </div>
      <TextAreaField
        id={id('options')}
        name={f('options')}
        label="Choices (one a line, for “One of a list”)"
        rows={3}
        defaultValue={values[f('options')]}
        error={errors[f('options')]}
      />
      <div className="question-row__checks">
        <CheckField
          id={id('required')}
          name={f('required')}
          value="on"
          label="An answer is required"
          defaultChecked={values[f('required')] === 'on'}
        />
        {isNew ? null : (
          <CheckField
            id={id('remove')}
            name={f('remove')}
            value="on"
            label="Remove this question"
            defaultChecked={values[f('remove')] === 'on'}
          />
        )}
      </div>
    </fieldset>
  );
}
