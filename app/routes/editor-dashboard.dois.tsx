import { Form, Link } from 'react-router';
import {
  DOI_PLACEHOLDERS,
  DOI_STATE_LABELS,
  DOI_STATES,
  type DoiStateName,
  DEFAULT_DOI_PATTERN,
  doiDepositInput,
  doiSettingsInputSchema,
} from '../../common/doi.ts';
import { can } from '../../common/roles.ts';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { DoiState } from '../components/doi/DoiState.tsx';
import { CheckField, SelectField, TextField } from '../components/FormField.tsx';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import doiCss from '../styles/doi.css?url';
import type { Route } from './+types/editor-dashboard.dois';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: doiCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'DOIs · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const isState = (v: string | null): v is DoiStateName => DOI_STATES.includes(v as DoiStateName);

export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireEditor(context, request);
  const asked = new URL(request.url).searchParams.get('state');
  const state = isState(asked) ? asked : undefined;
  const [articles, settings] = await Promise.all([
    context.services.doi.list(state),
    context.services.doi.settingsView(),
  ]);
  return { articles, settings, state: state ?? '', isAdmin: can('admin', auth.user) };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  try {
    if (intent === 'deposit') {
      const checked = validateForm(doiDepositInput, { article_ids: form.all('article') });
      if (!checked.ok) return replyRefused(intent, checked.refusal);
      const { queued, skipped } = await context.services.doi.depositMany(auth.user, checked.data.article_ids);
      const said = skipped.map((s) => ` Article ${s.articleId}: ${s.reason}`).join('');
      return replyDone(
        intent,
        `${queued.length} ${queued.length === 1 ? 'DOI is' : 'DOIs are'} queued for deposit.${said}`,
      );
    }
    if (intent === 'settings') {
      requireEditor(context, request, 'admin');
      const values = form.values();
      const checked = validateForm(doiSettingsInputSchema, {
        ...values,
        auto_deposit: form.has('auto_deposit'),
        doaj_enabled: form.has('doaj_enabled'),
        clear_password: form.has('clear_password'),
        clear_doaj_key: form.has('clear_doaj_key'),
      });
      // What was typed comes back, never the password or the key.
      const { crossref_password: _p, doaj_api_key: _k, ...typed } = values;
      if (!checked.ok) return replyRefused(intent, checked.refusal, typed);
      await context.services.doi.saveSettings(auth.user, checked.data);
      return replyDone(intent, 'The DOI settings are saved.');
    }
    return replyRefused(intent, clientError(400, 'Unknown action.'));
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused);
  }
}

export default function Dois({ loaderData, actionData }: Route.ComponentProps) {
  const { articles, settings, state, isAdmin } = loaderData;
  const refused = actionData && !actionData.ok ? actionData : null;
  const errors = refused?.intent === 'settings' ? refused.errors : {};
  const typed: Record<string, string> = refused?.intent === 'settings' ? refused.values : {};
  return (
    <section aria-labelledby="dois-title" className="dois">
      <h1 id="dois-title">DOIs</h1>
      <p className="lead">
        Each article's DOI and where it stands with Crossref
        {settings.doajEnabled ? ' and DOAJ' : ''}. Deposits go to{' '}
        <strong>
          {settings.crossrefEndpoint
            ? 'the deposit address set below'
            : settings.crossrefMode === 'production'
              ? "Crossref's production service"
              : "Crossref's test service"}
        </strong>{' '}
        ({settings.depositUrl})
        {settings.autoDeposit ? ', on publication and after every change' : ', when you deposit them here'}.
      </p>
      {settings.hasIssn ? null : (
        <p className="notice" role="note">
          Set the journal's ISSN before depositing DOIs: Crossref needs it to know the journal.{' '}
          {isAdmin ? <Link to="/editor-dashboard/settings">Journal settings</Link> : null}
        </p>
      )}
      <ActionResult result={actionData} />
      <Form method="get" className="doi-filter" role="search" aria-label="Filter by state">
        <SelectField
          id="dois-state"
          name="state"
          label="State"
          options={[
            { value: '', label: 'All states' },
            ...DOI_STATES.map((s) => ({ value: s, label: DOI_STATE_LABELS[s] })),
          ]}
          defaultValue={state}
        />
        <button type="submit" className="button button--small button--secondary">
          Filter
        </button>
      </Form>
      {articles.length === 0 ? (
        <p>
          {state
            ? `No article is in the state “${DOI_STATE_LABELS[state as DoiStateName]}”.`
            : 'No article yet.'}
        </p>
      ) : (
        <Form method="post" aria-labelledby="dois-caption">
          <TableScroll labelledBy="dois-caption">
            <table className="dash-table">
              <caption id="dois-caption">
                Articles ({articles.length}){state ? `: ${DOI_STATE_LABELS[state as DoiStateName]}` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Choose</th>
                  <th scope="col">Article</th>
                  <th scope="col">DOI</th>
                  <th scope="col">Crossref</th>
                  {settings.doajEnabled ? <th scope="col">DOAJ</th> : null}
                </tr>
              </thead>
              <tbody>
                {articles.map((a) => (
                  <tr key={a.articleId} data-article={a.articleId}>
                    <td>
                      <input
                        type="checkbox"
                        name="article"
                        value={a.articleId}
                        id={`doi-article-${a.articleId}`}
                        aria-label={`Choose ${a.title}`}
                        disabled={!a.doi || !a.published}
                      />
                    </td>
                    <th scope="row">
                      {a.title}
                      <span className="doi-place">
                        {' '}
                        (vol. {a.volume}, no. {a.issue}
                        {a.published ? '' : ', unpublished'})
                      </span>
                    </th>
                    <td>{a.doi ?? 'None'}</td>
                    <td>
                      <DoiState state={a.state} message={a.message} />
                    </td>
                    {settings.doajEnabled ? (
                      <td>
                        <DoiState state={a.doajState} message={a.doajMessage} />
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <button type="submit" name="intent" value="deposit" className="button doi-deposit">
            Deposit the chosen DOIs
          </button>
        </Form>
      )}
      <h2 id="doi-settings-title">DOI settings</h2>
      {isAdmin ? (
        <Form
          method="post"
          aria-labelledby="doi-settings-title"
          noValidate
          className="doi-settings"
          // Drawn afresh once saved: the password and key fields are empty again (write-only).
          key={actionData?.ok && actionData.intent === 'settings' ? actionData.at : 'settings'}
        >
          <p>
            The prefix is {settings.prefix} (<Link to="/editor-dashboard/settings">Journal settings</Link>).
          </p>
          <TextField
            id="doi-pattern"
            name="pattern"
            label="DOI pattern"
            marks
            defaultValue={typed.pattern ?? settings.pattern}
            error={errors.pattern}
            placeholder={DEFAULT_DOI_PATTERN}
            hint={`Gives a DOI to an article published without one. Placeholders: ${Object.entries(
              DOI_PLACEHOLDERS,
            )
              .map(([k, v]) => `{${k}} ${v}`)
              .join('; ')}. Empty: editors type each DOI.`}
          />
          <TextField
            id="doi-username"
            name="crossref_username"
            label="Crossref username"
            marks
            autoComplete="off"
            defaultValue={typed.crossref_username ?? settings.crossrefUsername}
            error={errors.crossref_username}
          />
          <TextField
            id="doi-password"
            name="crossref_password"
            type="password"
            label="Crossref password"
            marks
            autoComplete="new-password"
            error={errors.crossref_password}
            hint={
              settings.hasPassword ? 'A password is set: leave this empty to keep it.' : 'No password is set.'
            }
          />
          {settings.hasPassword ? (
            <CheckField name="clear_password" label="Remove the stored password" />
          ) : null}
          <SelectField
            id="doi-mode"
            name="crossref_mode"
            label="Crossref service"
            marks
            required
            options={[
              { value: 'test', label: 'Test (test.crossref.org): nothing is registered for real' },
              { value: 'production', label: 'Production (api.crossref.org): DOIs are registered' },
            ]}
            defaultValue={typed.crossref_mode ?? settings.crossrefMode}
            error={errors.crossref_mode}
          />
          <TextField
            id="doi-endpoint"
            name="crossref_endpoint"
            label="Another deposit address"
            marks
            defaultValue={typed.crossref_endpoint ?? settings.crossrefEndpoint}
            error={errors.crossref_endpoint}
            hint="Leave empty to use the service chosen above."
          />
          <CheckField
            name="auto_deposit"
            label="Deposit DOIs on publication and after every change"
            defaultChecked={settings.autoDeposit}
          />
          <CheckField
            name="doaj_enabled"
            label="Send articles to DOAJ"
            defaultChecked={settings.doajEnabled}
          />
          <TextField
            id="doi-doaj-key"
            name="doaj_api_key"
            type="password"
            label="DOAJ API key"
            marks
            autoComplete="new-password"
            error={errors.doaj_api_key}
            hint={settings.hasDoajKey ? 'A key is set: leave this empty to keep it.' : 'No key is set.'}
          />
          {settings.hasDoajKey ? (
            <CheckField name="clear_doaj_key" label="Remove the stored DOAJ key" />
          ) : null}
          <TextField
            id="doi-doaj-endpoint"
            name="doaj_endpoint"
            label="Another DOAJ API address"
            marks
            defaultValue={typed.doaj_endpoint ?? settings.doajEndpoint}
            error={errors.doaj_endpoint}
            hint="Leave empty for https://doaj.org/api."
          />
          <button type="submit" name="intent" value="settings" className="button">
            Save the DOI settings
          </button>
        </Form>
      ) : (
        <p>
          Pattern {settings.pattern || 'none'}; {settings.crossrefMode} service;{' '}
          {settings.hasPassword ? 'a Crossref account is set' : 'no Crossref account is set'}. The journal's
          admin changes them.
        </p>
      )}
    </section>
  );
}
