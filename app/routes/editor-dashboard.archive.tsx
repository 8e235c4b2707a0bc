import { Form } from 'react-router';
import {
  addressLines,
  humanSize,
  PERMISSION_STATEMENTS,
  type PreservationSettings,
  preservationSettingsSchema,
} from '../../common/preservation.ts';
import { can } from '../../common/roles.ts';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { CheckField, TextAreaField } from '../components/FormField.tsx';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { useJournalHref } from '../lib/journal-href.ts';
import { pageTitle } from '../lib/meta.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import type { Route } from './+types/editor-dashboard.archive';

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Preservation · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const settingsValues = (s: PreservationSettings) => ({
  lockss: s.lockss ? 'on' : '',
  clockss: s.clockss ? 'on' : '',
  crawlerAddresses: s.crawlerAddresses.join('\n'),
});

/**
 * Preservation (decision 0065): the LOCKSS/CLOCKSS switches and the crawlers' addresses (the admin's), and each
 * issue's archive package (a BagIt bag as a ZIP): when it was made, its size, its download, "Make again".
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const auth = requireEditor(context, request);
  const overview = await context.services.preservation.overview();
  return {
    isAdmin: can('admin', auth.user),
    values: settingsValues(overview.settings),
    settings: overview.settings,
    manifests: overview.manifests,
    issues: overview.issues.map((i) => ({
      ...i,
      bag: i.bag ? { ...i.bag, sizeText: humanSize(i.bag.size) } : null,
    })),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  if (intent === 'settings') {
    const auth = requireEditor(context, request, 'admin');
    const values = {
      lockss: form.text('lockss'),
      clockss: form.text('clockss'),
      crawlerAddresses: form.text('crawlerAddresses'),
    };
    const parsed = validateForm(preservationSettingsSchema, {
      lockss: values.lockss === 'on',
      clockss: values.clockss === 'on',
      crawlerAddresses: addressLines(values.crawlerAddresses),
    });
    if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
    await context.services.preservation.editSettings(auth.user, parsed.data);
    return replyDone(intent, 'The preservation settings are saved.');
  }
  const auth = requireEditor(context, request);
  if (intent !== 'remake') return replyRefused(intent, clientError(400, 'Choose what to do.'), {});
  const raw = form.text('issue');
  if (!/^\d{1,9}$/.test(raw)) return replyRefused(intent, clientError(404, 'No such issue.'), {});
  try {
    await context.services.preservation.remake(auth.user, Number(raw));
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused, {});
  }
  return replyDone(
    intent,
    'The archive package is being made again: reload this page in a moment to see it.',
    {
      status: 202,
    },
  );
}

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

export default function ArchivePage({ loaderData, actionData }: Route.ComponentProps) {
  const href = useJournalHref();
  const { isAdmin, settings, manifests, issues } = loaderData;
  const refused = actionData && !actionData.ok && actionData.intent === 'settings' ? actionData : null;
  const values = (refused?.values as Record<string, string> | undefined) ?? loaderData.values;
  const errors = refused?.errors ?? {};
  const key = `${actionData ? actionData.at : 'loaded'}-${JSON.stringify(loaderData.values)}`;
  return (
    <section aria-labelledby="archive-title" className="archive-page">
      <h1 id="archive-title">Preservation</h1>
      <p className="lead">
        Each issue's archive package (a BagIt bag: every article's JATS XML, PDF and figures, and the issue's
        metadata) is made again a minute after the issue or one of its articles changes. LOCKSS and CLOCKSS
        collect the journal from its manifest pages.
      </p>
      <ActionResult result={actionData} />

      <section className="panel" aria-labelledby="manifests-title">
        <h2 id="manifests-title">LOCKSS and CLOCKSS</h2>
        <ul aria-labelledby="manifests-title">
          {(['lockss', 'clockss'] as const).map((system) => (
            <li key={system}>
              {system.toUpperCase()}:{' '}
              {settings[system] ? (
                <a href={manifests[system]}>{manifests[system]}</a>
              ) : (
                'off (its manifest page answers 404)'
              )}
            </li>
          ))}
        </ul>
        {isAdmin ? (
          <Form method="post" key={key} aria-labelledby="manifests-title" noValidate>
            <input type="hidden" name="intent" value="settings" />
            <fieldset>
              <legend>Manifest pages</legend>
              <CheckField
                name="lockss"
                value="on"
                label={`LOCKSS: the page says “${PERMISSION_STATEMENTS.lockss}”`}
                defaultChecked={values.lockss === 'on'}
              />
              <CheckField
                name="clockss"
                value="on"
                label={`CLOCKSS: the page says “${PERMISSION_STATEMENTS.clockss}”`}
                defaultChecked={values.clockss === 'on'}
              />
            </fieldset>
            <TextAreaField
              id="pr-crawlerAddresses"
              name="crawlerAddresses"
              label="Preservation crawlers’ addresses"
              rows={4}
              defaultValue={values.crawlerAddresses}
              error={errors.crawlerAddresses}
              hint="One IP address or CIDR range per line, as your LOCKSS or CLOCKSS contact gives them (such as 192.0.2.0/24). While a manifest page is on, requests from them download PDFs without an account."
            />
            <p>
              <button type="submit" className="button button--primary">
                Save preservation settings
              </button>
            </p>
          </Form>
        ) : (
          <p>The journal's admin switches the manifest pages on and lists the crawlers' addresses here.</p>
        )}
      </section>

      <section className="panel" aria-labelledby="bags-title">
        <h2 id="bags-title">Archive packages</h2>
        <TableScroll labelledBy="bags-caption">
          <table className="dash-table">
            <caption id="bags-caption">Each issue's latest archive package, newest issue first</caption>
            <thead>
              <tr>
                <th scope="col">Issue</th>
                <th scope="col">Articles</th>
                <th scope="col">Made (UTC)</th>
                <th scope="col">Size</th>
                <th scope="col">Package</th>
              </tr>
            </thead>
            <tbody>
              {issues.map((i) => {
                const name = `Volume ${i.volume_number}, issue ${i.issue_number} (${i.year})`;
                return (
                  <tr key={i.issue_id}>
                    <th scope="row">
                      {name}: {i.title}
                    </th>
                    <td>{i.published_articles}</td>
                    <td>
                      {i.bag ? <time dateTime={i.bag.made_at}>{when(i.bag.made_at)}</time> : 'Not made yet'}
                    </td>
                    <td>{i.bag ? `${i.bag.sizeText}, ${i.bag.files} files` : ''}</td>
                    <td>
                      {i.bag ? (
                        <a
                          href={href(i.bag.download)}
                          download
                          aria-label={`Download the archive package of ${name}`}
                        >
                          ZIP
                        </a>
                      ) : null}
                      {i.published_articles ? (
                        <Form method="post">
                          <input type="hidden" name="intent" value="remake" />
                          <input type="hidden" name="issue" value={i.issue_id} />
                          <button
                            type="submit"
                            className="button"
                            aria-label={`Make the archive package of ${name} again`}
                          >
                            Make again
                          </button>
                        </Form>
                      ) : (
                        'No published article'
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
        <p>
          The same from the command line: <code>npm run cli -- archive journal --out DIR</code>.
        </p>
      </section>

      {isAdmin ? (
        <section className="panel" aria-labelledby="export-title">
          <h2 id="export-title">Export the journal</h2>
          <p>
            The whole journal in the formats Open Journal Systems imports (decision 0068), to move it or keep
            a copy of your own. Large journals take a while: the download streams as it is written.
          </p>
          <ul>
            <li>
              <a href={href('/api/admin/export/ojs.xml')} download>
                Issues and articles (OJS 3.4 Native XML, files embedded)
              </a>
              : import it in OJS with Tools → Import/Export → Native XML.
            </li>
            <li>
              <a href={href('/api/admin/export/users.xml')} download>
                Accounts (OJS Users XML)
              </a>
              : everyone with a role here, in the OJS group of their role. Their passwords cannot move: OJS
              asks each person to set a new one.
            </li>
          </ul>
          <p>
            From the command line, with the files beside the XML and every article as JATS XML with its PDF
            and figures:{' '}
            <code>npm run cli -- export ojs --journal PATH --out DIR --files href --users --jats</code>.
          </p>
        </section>
      ) : null}
    </section>
  );
}
