import { Form } from 'react-router';
import { issueSchema, parseId, volumeSchema } from '../../common/schemas.ts';
import { issueCreatedMessage, issueDate } from '../../server/catalog/present.ts';
import { alertStartedMessage } from '../../common/subscriptions.ts';
import { IssueAlertCell } from '../components/dashboard/IssueAlertCell.tsx';
import { SelectField } from '../components/FormField.tsx';
import { EditInRow, IssueFields, VolumeFields } from '../components/catalog/VolumeForm.tsx';
import { ActionResult, refusalFor } from '../components/dashboard/ActionResult.tsx';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import adminCss from '../styles/dashboard-admin.css?url';
import type { Route } from './+types/editor-dashboard.volumes';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Volumes & issues · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const [volumes, issues, alerts, subscribers] = await Promise.all([
    context.services.catalog.editorVolumes(),
    context.services.catalog.editorIssues(),
    context.services.subscriptions.alertStatuses(),
    context.services.subscriptions.recipientCount(),
  ]);
  // The exports are plain links to the journal's API: under its path prefix (decision 0056).
  const prefix = context.journal?.prefix ?? '';
  return {
    volumes,
    issues: issues.map((i) => ({
      ...i,
      dated: issueDate(i.volume_year, i.publication_month),
      exports: {
        crossref: i.exportable.crossref ? `${prefix}/api/editor/export/crossref/issue/${i.id}` : null,
        doaj: i.exportable.doaj ? `${prefix}/api/editor/export/doaj/issue/${i.id}` : null,
      },
    })),
    alerts: Object.fromEntries(alerts),
    subscribers,
  };
}

const issueEditSchema = issueSchema.pick({ title: true, description: true, publication_month: true });

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const values: Record<string, string> = {};
  for (const key of ['id', 'title', 'volume_number', 'year', 'description', 'volume_id', 'publication_month']) {
    values[key] = form.text(key);
  }
  // Empty fields are absent, so each says "… is required." rather than failing a number check.
  const input = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
  const done = (message: string) => replyDone(intent, message);
  const id = parseId(values.id);
  const editing = intent === 'edit-volume' || intent === 'edit-issue' || intent === 'send-alert';
  if (editing && id === null)
    return replyRefused(intent, clientError(404, intent === 'edit-volume' ? 'No such volume.' : 'No such issue.'), values);
  const catalog = context.services.catalog;
  try {
    switch (intent) {
      case 'create-volume':
      case 'edit-volume': {
        const parsed = validateForm(volumeSchema, input);
        if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
        const volume =
          intent === 'create-volume'
            ? await catalog.createVolume(auth.user, parsed.data)
            : await catalog.updateVolume(auth.user, id!, parsed.data);
        return done(`Volume ${volume.volume_number} ${intent === 'create-volume' ? 'created' : 'updated'}.`);
      }
      case 'create-issue': {
        const parsed = validateForm(issueSchema, input);
        if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
        const issue = await catalog.createIssue(auth.user, parsed.data);
        return done(issueCreatedMessage(issue));
      }
      case 'edit-issue': {
        // The month's "No month" is an empty field that clears it, not one left out.
        const parsed = validateForm(issueEditSchema, { ...input, publication_month: values.publication_month });
        if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
        const issue = await catalog.updateIssue(auth.user, id!, parsed.data);
        return done(`Issue ${issue.issue_number} updated.`);
      }
      case 'send-alert': {
        const { recipients, label } = await context.services.subscriptions.sendIssueAlert(auth.user, id!);
        return done(alertStartedMessage(label, recipients));
      }
      default:
        return replyRefused(intent, clientError(400, 'Unknown action.'), values);
    }
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused, values);
  }
}

export default function VolumesAndIssues({ loaderData, actionData }: Route.ComponentProps) {
  const { volumes, issues, alerts, subscribers } = loaderData;
  const newVolume = refusalFor(actionData, 'create-volume');
  const newIssue = refusalFor(actionData, 'create-issue');
  const editVolume = refusalFor(actionData, 'edit-volume');
  const editIssue = refusalFor(actionData, 'edit-issue');
  // A new key after each post: forms that succeeded start empty again, refused ones show what was typed.
  const round = actionData?.at ?? 0;
  return (
    <section aria-labelledby="volumes-title">
      <h1 id="volumes-title">Volumes &amp; issues</h1>
      <ActionResult result={actionData} />

      <div className="dash-forms">
        <Form
          method="post"
          noValidate
          className="panel dash-form"
          aria-labelledby="new-volume-title"
          key={`v${round}`}
        >
          <h2 id="new-volume-title">Create a volume</h2>
          <p className="field__hint">All fields are required.</p>
          <input type="hidden" name="intent" value="create-volume" />
          <VolumeFields
            idPrefix="new-volume"
            titleId="new-volume-title-field"
            titleLabel="Volume title"
            values={newVolume.values}
            errors={newVolume.errors}
          />
          <button type="submit" className="button button--primary">
            Create volume
          </button>
        </Form>

        <Form
          method="post"
          noValidate
          className="panel dash-form"
          aria-labelledby="new-issue-title"
          key={`i${round}`}
        >
          <h2 id="new-issue-title">Create an issue</h2>
          <p className="field__hint">
            All fields but the month are required. The issue number is the next one in its volume.
          </p>
          <input type="hidden" name="intent" value="create-issue" />
          <SelectField
            id="new-issue-volume"
            name="volume_id"
            label="Volume"
            marks
            required
            placeholder="Choose a volume"
            defaultValue={newIssue.values.volume_id ?? ''}
            error={newIssue.errors.volume_id}
            options={volumes.map((v) => ({
              value: String(v.id),
              label: `Volume ${v.volume_number} (${v.year}): ${v.title}`,
            }))}
          />
          <IssueFields
            idPrefix="new-issue"
            titleId="new-issue-title-field"
            titleLabel="Issue title"
            monthHint="Optional: the month the issue is dated by, in its volume's year."
            values={newIssue.values}
            errors={newIssue.errors}
          />
          <button type="submit" className="button button--primary">
            Create issue
          </button>
        </Form>
      </div>

      <TableScroll labelledBy="volumes-caption">
        <table className="dash-table">
          <caption id="volumes-caption">Volumes ({volumes.length})</caption>
          <thead>
            <tr>
              <th scope="col">Number</th>
              <th scope="col">Title</th>
              <th scope="col">Year</th>
              <th scope="col">Issues</th>
              <th scope="col">Edit</th>
            </tr>
          </thead>
          <tbody>
            {volumes.map((v) => {
              const mine = editVolume.values.id === String(v.id);
              return (
                <tr key={v.id}>
                  <td>{v.volume_number}</td>
                  <th scope="row">{v.title}</th>
                  <td>{v.year}</td>
                  <td>{v.issue_count}</td>
                  <td>
                    <EditInRow
                      open={mine}
                      round={round}
                      summary={`volume ${v.volume_number}`}
                      intent="edit-volume"
                      id={v.id}
                      saveLabel={`Save volume ${v.volume_number}`}
                    >
                      <VolumeFields
                        idPrefix={`edit-volume-${v.id}`}
                        titleLabel="Title"
                        values={
                          mine
                            ? editVolume.values
                            : { title: v.title, volume_number: String(v.volume_number), year: String(v.year) }
                        }
                        errors={mine ? editVolume.errors : {}}
                      />
                    </EditInRow>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>

      <TableScroll labelledBy="issues-caption">
        <table className="dash-table">
          <caption id="issues-caption">Issues ({issues.length})</caption>
          <thead>
            <tr>
              <th scope="col">Volume</th>
              <th scope="col">Issue</th>
              <th scope="col">Title and date</th>
              <th scope="col">Description</th>
              <th scope="col">Articles</th>
              <th scope="col">Export, edit, alert</th>
            </tr>
          </thead>
          <tbody>
            {issues.map((i) => {
              const mine = editIssue.values.id === String(i.id);
              return (
                <tr key={i.id}>
                  <td>{i.volume_number}</td>
                  <td>{i.issue_number}</td>
                  <th scope="row">
                    {i.title}
                    <span className="dash-table__note">{i.dated}</span>
                  </th>
                  <td className="dash-table__wrap">
                    <div className="dash-table__clamp">{i.description}</div>
                  </td>
                  <td>{i.article_count}</td>
                  <td>
                    {i.exports.crossref || i.exports.doaj ? (
                      <div className="dash-inline-form">
                        {i.exports.crossref ? (
                          <a
                            href={i.exports.crossref}
                            download
                            className="button button--small button--secondary"
                          >
                            Crossref XML
                            <span className="visually-hidden">
                              {' '}
                              of issue {i.issue_number}, volume {i.volume_number}
                            </span>
                          </a>
                        ) : null}
                        {i.exports.doaj ? (
                          <a
                            href={i.exports.doaj}
                            download
                            className="button button--small button--secondary"
                          >
                            DOAJ XML
                            <span className="visually-hidden">
                              {' '}
                              of issue {i.issue_number}, volume {i.volume_number}
                            </span>
                          </a>
                        ) : null}
                      </div>
                    ) : (
                      <p className="muted">Nothing to export yet</p>
                    )}
                    <EditInRow
                      open={mine}
                      round={round}
                      summary={`issue ${i.issue_number} of volume ${i.volume_number}`}
                      intent="edit-issue"
                      id={i.id}
                      saveLabel={`Save issue ${i.issue_number}`}
                    >
                      <IssueFields
                        idPrefix={`edit-issue-${i.id}`}
                        titleLabel="Title"
                        values={
                          mine
                            ? editIssue.values
                            : {
                                title: i.title,
                                description: i.description,
                                publication_month: i.publication_month ? String(i.publication_month) : '',
                              }
                        }
                        errors={mine ? editIssue.errors : {}}
                      />
                    </EditInRow>
                    <IssueAlertCell issue={i} alert={alerts[i.id]} subscribers={subscribers} round={round} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
