import { Link } from 'react-router';
import {
  BOARD_ROLES,
  BOARD_ROLE_LABELS,
  EDITORIAL_BOARD_KEY,
  editorialBoardSchema,
} from '../../common/content.ts';
import { RowEditor } from '../components/content/RowEditor.tsx';
import { SelectField, TextAreaField, TextField } from '../components/FormField.tsx';
import {
  type Row,
  flattenRows,
  lines,
  rowErrors,
} from '../components/dashboard/content-rows.ts';
import { rowEditorAction } from '../components/content/row-editor-action.server.ts';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
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

/** A row as its messages and buttons name it: the member's name, else "member 3". */
const memberName = (i: number, row: Row | undefined) => row?.name.trim() || `member ${i + 1}`;

export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const { content } = context.services;
  const [members, base] = await Promise.all([content.boardMembers(), content.version(EDITORIAL_BOARD_KEY)]);
  const rows = members.map((m) => ({ ...m, researchAreas: m.researchAreas.join('\n') }));
  return { values: { ...flattenRows(rows, FIELDS), base } };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  return rowEditorAction(request, {
    fields: FIELDS,
    blank: BLANK,
    rowName: memberName,
    check: (rows) => {
      const parsed = validateForm(
        editorialBoardSchema,
        rows.map((r) => ({ ...r, researchAreas: lines(r.researchAreas) })),
      );
      return parsed.ok ? parsed : { ok: false, errors: rowErrors(parsed.refusal.errors) };
    },
    save: async (members, base) => {
      await context.services.content.editEditorialBoard(auth.user, members, base);
      return `Saved: the editorial board lists ${members.length} members now.`;
    },
  });
}

export default function EditBoard({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <RowEditor
      titleId="edit-board-title"
      title="Edit the editorial board"
      intro={
        <p>
          Shown at <Link reloadDocument to="/editorial-board">/editorial-board</Link>, grouped by section in the order below. All
          fields are required.
        </p>
      }
      loaded={loaderData.values}
      result={actionData}
      fields={FIELDS}
      listError="always"
      idPrefix="member"
      required
      noun="Member"
      legendField="name"
      rowName={memberName}
      addLabel="Add a member"
      saveLabel="Save the editorial board"
    >
      {(field) => (
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
      )}
    </RowEditor>
  );
}
