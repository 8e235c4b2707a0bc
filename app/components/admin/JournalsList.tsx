import { Form } from 'react-router';
import {
  JOURNAL_STATUS_ACTIONS,
  type JournalStatusAction,
  type JournalSummary,
} from '../../../common/journals.ts';
import type { FormResult } from '../../lib/form-result.ts';
import { refusalFor } from '../dashboard/ActionResult.tsx';
import { CheckField, FieldError, SelectField, TextField } from '../FormField.tsx';

const ACTION_LABELS: Record<JournalStatusAction, string> = {
  close: 'Close: reading only, no new submissions',
  archive: 'Archive: hidden from the site’s home',
  reopen: 'Reopen',
};

const STATUS_LABELS: Record<JournalSummary['status'], string> = {
  open: 'Open',
  closed: 'Closed',
  archived: 'Archived',
};

/**
 * The site's journals, each a card (its address with its old ones, state, counts), and its changes folded
 * below it behind a confirmation: a card list reads at 390 px as well as at 1280, with the forms at full width.
 */
export function JournalsList({
  journals,
  result,
}: {
  journals: JournalSummary[];
  result: FormResult | undefined;
}) {
  return (
    <section aria-labelledby="journals-list-title">
      <h2 id="journals-list-title">The site’s journals ({journals.length})</h2>
      <ul className="site-admin__journals">
        {journals.map((j) => (
          <li key={j.id} className="site-admin__journal" aria-labelledby={`journal-${j.id}-title`}>
            <h3 id={`journal-${j.id}-title`}>{j.title}</h3>
            <dl className="site-admin__facts">
              <div>
                <dt>Address</dt>
                <dd>
                  <a href={`${j.url}/`}>{j.url.replace(/^https?:\/\//, '')}</a>
                  {j.aliases.length ? (
                    <span className="site-admin__aliases">Old, answering 301: {j.aliases.join(', ')}</span>
                  ) : null}
                </dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd>{STATUS_LABELS[j.status]}</dd>
              </div>
              <div>
                <dt>Articles</dt>
                <dd>{j.articles}</dd>
              </div>
              <div>
                <dt>Submissions</dt>
                <dd>{j.submissions}</dd>
              </div>
            </dl>
            <JournalChanges journal={j} result={result} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A journal's state and address changes, folded until asked for; each needs its box ticked. */
function JournalChanges({ journal: j, result }: { journal: JournalSummary; result: FormResult | undefined }) {
  const status = refusalFor(result, `status-${j.id}`);
  const move = refusalFor(result, `move-${j.id}`);
  const open = Boolean(
    result && !result.ok && (result.intent === `status-${j.id}` || result.intent === `move-${j.id}`),
  );
  const actions = (Object.keys(JOURNAL_STATUS_ACTIONS) as JournalStatusAction[]).filter(
    (a) => JOURNAL_STATUS_ACTIONS[a] !== j.status,
  );
  const key = result?.intent.endsWith(`-${j.id}`) ? result?.at : 'changes';
  return (
    <details className="site-admin__changes" open={open || undefined}>
      <summary>
        Change the state or address<span className="visually-hidden"> of {j.title}</span>
      </summary>
      <div className="site-admin__forms">
        <Form method="post" className="form site-admin__form" noValidate key={`status-${key}`}>
          <input type="hidden" name="intent" value={`status-${j.id}`} />
          <SelectField
            id={`j${j.id}-action`}
            name="action"
            label="State"
            options={actions.map((a) => ({ value: a, label: ACTION_LABELS[a] }))}
            defaultValue={status.values.action}
            error={status.errors.action}
          />
          <ConfirmBox id={`j${j.id}-status-confirm`} error={status.errors.confirm} title={j.title} />
          <button type="submit" className="button button--small">
            Change the state<span className="visually-hidden"> of {j.title}</span>
          </button>
        </Form>
        <Form method="post" className="form site-admin__form" noValidate key={`move-${key}`}>
          <input type="hidden" name="intent" value={`move-${j.id}`} />
          <TextField
            id={`j${j.id}-path`}
            name="path"
            label="New path"
            autoComplete="off"
            spellCheck={false}
            defaultValue={move.values.path}
            error={move.errors.path}
          />
          <TextField
            id={`j${j.id}-domain`}
            name="domain"
            label="Or new domain"
            autoComplete="off"
            spellCheck={false}
            defaultValue={move.values.domain}
            error={move.errors.domain}
          />
          <ConfirmBox
            id={`j${j.id}-move-confirm`}
            error={move.errors.confirm}
            title={j.title}
            what="Its present address will answer with a redirect to the new one."
          />
          <button type="submit" className="button button--small">
            Move<span className="visually-hidden"> {j.title}</span>
          </button>
        </Form>
      </div>
    </details>
  );
}

function ConfirmBox({
  id,
  error,
  title,
  what,
}: {
  id: string;
  error?: string;
  title: string;
  what?: string;
}) {
  return (
    <div className={error ? 'field field--invalid' : 'field'}>
      {error ? <FieldError id={`${id}-error`} message={error} /> : null}
      <CheckField
        id={id}
        name="confirm"
        value="yes"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        label={`Yes, change “${title}”.${what ? ` ${what}` : ''}`}
      />
    </div>
  );
}
