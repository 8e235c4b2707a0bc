import { Form, Link } from 'react-router';
import {
  BOARD_ROLES,
  BOARD_ROLE_LABELS,
  EDITORIAL_BOARD_KEY,
  editorialBoardSchema,
} from '../../common/content.ts';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { ContentRowControls } from '../components/dashboard/ContentRowControls.tsx';
import { SelectField, TextAreaField, TextField } from '../components/FormField.tsx';
import {
  type Row,
  applyRowIntent,
  flattenRows,
  lines,
  readRows,
  rowErrors,
  unflattenRows,
} from '../components/dashboard/content-rows.ts';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { asClientError, readForm, validateForm } from '../lib/forms.server.ts';
import { refusalOf } from '../lib/form-result.ts';
import { pageTitle } from '../lib/meta.ts';
import { clientError, replyDone, replyRefused } from '../lib/reply.server.ts';
import adminCss from '../styles/dashboard-admin.css?url';
import type { Route } from './+types/editor-dashboard.content.board';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Edit the editorial board · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const FIELDS = ['name', 'role', 'affiliation', 'country', 'researchAreas', 'email'] as const;
const BLANK: Row = {
  name: '',
  role: 'board-member',
  affiliation: '',
  country: '',
  researchAreas: '',
  email: '',
};

export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const { content } = context.services;
  const [members, base] = await Promise.all([content.boardMembers(), content.version(EDITORIAL_BOARD_KEY)]);
  const rows = members.map((m) => ({ ...m, researchAreas: m.researchAreas.join('\n') }));
  return { values: { ...flattenRows(rows, FIELDS), base } };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const read = await readForm(request, { maxTextBytes: 1024 * 1024 });
  const { form } = read;
  const intent = form.text('intent');
  const rows = readRows(form, FIELDS);
  const base = form.text('base');
  const values = { ...flattenRows(rows, FIELDS), base };
  const refuse = (status: number, message: string, errors: Record<string, string> = {}) =>
    replyRefused(intent, clientError(status, message, errors), values);
  if (!read.ok) return replyRefused(intent, read.refusal, values);

  const moved = applyRowIntent(rows, intent, BLANK, (i, row) =>
    row?.name.trim() ? row.name.trim() : `member ${i + 1}`,
  );
  if (moved) {
    return replyDone(intent, moved.message, { values: { ...flattenRows(moved.rows, FIELDS), base } });
  }
  if (intent !== 'save') return refuse(400, 'Unknown action.');
  const parsed = validateForm(
    editorialBoardSchema,
    rows.map((r) => ({ ...r, researchAreas: lines(r.researchAreas) })),
  );
  if (!parsed.ok) {
    const errors = rowErrors(parsed.refusal.errors);
    const count = Object.keys(errors).length;
    return refuse(
      400,
      count === 1 ? 'One field needs correcting: see below.' : `${count} fields need correcting: see below.`,
      errors,
    );
  }
  try {
    await context.services.content.editEditorialBoard(auth.user, parsed.data, base);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return refuse(refused.status, refused.message);
  }
  return replyDone(intent, `Saved: the editorial board lists ${parsed.data.length} members now.`);
}

export default function EditBoard({ loaderData, actionData }: Route.ComponentProps) {
  // Drawn again as posted until saved (a refusal, a row added, moved or removed); then from what is stored.
  const values = actionData?.values ?? loaderData.values;
  const errors = refusalOf(actionData)?.errors ?? {};
  const rows = unflattenRows(values, FIELDS);
  return (
    <section aria-labelledby="edit-board-title">
      <p className="content-editor__back">
        <Link to="/editor-dashboard/content">← Journal content</Link>
      </p>
      <h1 id="edit-board-title">Edit the editorial board</h1>
      <p>
        Shown at <a href="/editorial-board">/editorial-board</a>, grouped by section in the order below. All
        fields are required.
      </p>
      <ActionResult result={actionData} />
      <Form method="post" noValidate aria-labelledby="edit-board-title" key={actionData?.at ?? 0}>
        <input type="hidden" name="base" value={values.base} />
        <input type="hidden" name="count" value={rows.length} />
        {errors.list ? <p className="field__error">{errors.list}</p> : null}
        <ol className="content-rows">
          {rows.map((row, i) => {
            const who = row.name.trim() || `member ${i + 1}`;
            const field = (f: (typeof FIELDS)[number]) => ({
              id: `member-${f}-${i}`,
              name: `${f}_${i}`,
              defaultValue: row[f],
              error: errors[`${f}_${i}`],
              required: true,
            });
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional form fields.
              <li key={i} className="panel content-row">
                <fieldset>
                  <legend>
                    Member {i + 1}
                    {row.name.trim() ? `: ${row.name.trim()}` : ''}
                  </legend>
                  <div className="content-row__grid">
                    <TextField {...field('name')} label="Name" marks />
                    <SelectField
                      {...field('role')}
                      label="Section"
                      marks
                      options={BOARD_ROLES.map((r) => ({ value: r, label: BOARD_ROLE_LABELS[r].many }))}
                    />
                    <TextField {...field('affiliation')} label="Affiliation" marks />
                    <TextField {...field('country')} label="Country" marks />
                    <TextAreaField
                      {...field('researchAreas')}
                      label="Research areas"
                      marks
                      hint="One per line."
                      rows={3}
                    />
                    <TextField {...field('email')} label="E-mail" marks type="email" />
                  </div>
                  <ContentRowControls index={i} count={rows.length} name={who} />
                </fieldset>
              </li>
            );
          })}
        </ol>
        <div className="content-editor__actions">
          <button type="submit" name="intent" value="add" formNoValidate className="button button--secondary">
            Add a member
          </button>
          <button type="submit" name="intent" value="save" className="button button--primary">
            Save the editorial board
          </button>
        </div>
      </Form>
    </section>
  );
}
