import { Link } from 'react-router';
import { SPECIAL_ISSUES_KEY, specialIssuesSchema } from '../../common/content.ts';
import { slugify } from '../../server/content/markdown.ts';
import { RowEditor } from '../components/content/RowEditor.tsx';
import { TextAreaField, TextField } from '../components/FormField.tsx';
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
import type { Route } from './+types/editor-dashboard.content.special-issues';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: adminCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Edit the special issues · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const FIELDS = ['id', 'title', 'summary', 'guestEditors', 'deadline'] as const;
const BLANK: Row = { id: '', title: '', summary: '', guestEditors: '', deadline: '' };
const EDITOR_LINE = 'Write each guest editor on a line of their own as: Name; Affiliation.';

/** A row as its messages and buttons name it: its title in quotes, else "special issue 3". */
const callName = (i: number, row: Row | undefined) =>
  row?.title.trim() ? `“${row.title.trim()}”` : `special issue ${i + 1}`;

export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const { content } = context.services;
  const [calls, base] = await Promise.all([
    content.specialIssuesSource(),
    content.version(SPECIAL_ISSUES_KEY),
  ]);
  const rows = calls.map((c) => ({
    ...c,
    guestEditors: c.guestEditors.map((g) => `${g.name}; ${g.affiliation}`).join('\n'),
  }));
  return { values: { ...flattenRows(rows, FIELDS), base } };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  return rowEditorAction(request, {
    fields: FIELDS,
    blank: BLANK,
    rowName: callName,
    check: (rows) => {
      const errors: Record<string, string> = {};
      const calls = rows.map((r, i) => {
        const guestEditors = lines(r.guestEditors).map((line) => {
          const cut = line.indexOf(';');
          if (cut < 0) errors[`guestEditors_${i}`] ??= EDITOR_LINE;
          return cut < 0
            ? { name: line, affiliation: '' }
            : { name: line.slice(0, cut), affiliation: line.slice(cut + 1) };
        });
        // A call without an anchor gets one from its title; existing anchors stay, so links to them keep working.
        const id = r.id.trim() || (r.title.trim() ? slugify(r.title).slice(0, 80).replace(/-+$/, '') : '');
        return { id, title: r.title, summary: r.summary, guestEditors, deadline: r.deadline.trim() };
      });
      const parsed = validateForm(specialIssuesSchema, calls);
      if (parsed.ok && !Object.keys(errors).length) return parsed;
      const all = { ...(parsed.ok ? {} : rowErrors(parsed.refusal.errors)), ...errors };
      if (all.list?.includes('share an id')) {
        // Name the rows that clash, next to their fields.
        const seen = new Map<string, number>();
        calls.forEach((c, i) => {
          const first = seen.get(c.id);
          if (first !== undefined) all[`id_${i}`] ??= `Special issue ${first + 1} already uses this anchor.`;
          else seen.set(c.id, i);
        });
      }
      return { ok: false, errors: all };
    },
    save: async (calls, base) => {
      await context.services.content.editSpecialIssues(auth.user, calls, base);
      return `Saved: ${calls.length} special issues are listed now.`;
    },
  });
}

export default function EditSpecialIssues({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <RowEditor
      titleId="edit-calls-title"
      title="Edit the special issues"
      intro={
        <p>
          Shown at <Link reloadDocument to="/special-issues">/special-issues</Link>,{' '}
          <Link reloadDocument to="/open-special-issues">/open-special-issues</Link> and{' '}
          <Link reloadDocument to="/closed-special-issues">/closed-special-issues</Link>, by deadline. A call is open until the
          end of its deadline day (UTC), then listed as closed.
        </p>
      }
      loaded={loaderData.values}
      result={actionData}
      fields={FIELDS}
      // A clash of anchors is said beside the rows' fields.
      listError="without-rows"
      idPrefix="call"
      noun="Special issue"
      legendField="title"
      rowName={callName}
      addLabel="Add a special issue"
      saveLabel="Save the special issues"
    >
      {(field) => (
        <>
          <TextField {...field('title')} label="Title" marks required />
          <TextAreaField
            {...field('summary')}
            label="Summary"
            marks
            hint="One or two sentences on the scope."
            rows={3}
            required
          />
          <div className="content-row__grid">
            <TextAreaField
              {...field('guestEditors')}
              label="Guest editors"
              marks
              hint="One per line: Name; Affiliation"
              rows={3}
              required
            />
            <TextField
              {...field('deadline')}
              label="Submission deadline"
              marks
              type="date"
              hint="YYYY-MM-DD"
              required
            />
            <TextField
              {...field('id')}
              label="Anchor"
              marks
              hint="Lower-case letters, digits and hyphens; made from the title when empty."
            />
          </div>
        </>
      )}
    </RowEditor>
  );
}
