import { Link } from 'react-router';
import {
  JOURNAL_STATUS_ACTIONS,
  type JournalStatusAction,
  createJournalSchema,
  moveJournalSchema,
} from '../../common/journals.ts';
import { parseId } from '../../common/schemas.ts';
import { CreateJournalForm } from '../components/admin/CreateJournalForm.tsx';
import { JournalsList } from '../components/admin/JournalsList.tsx';
import { requireSiteAdmin } from '../components/admin/guard.server.ts';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import dashboardCss from '../styles/dashboard.css?url';
import siteAdminCss from '../styles/site-admin.css?url';
import type { Route } from './+types/admin.journals';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: dashboardCss },
  { rel: 'stylesheet', href: siteAdminCss },
];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Journals · Site admin') },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  await requireSiteAdmin(context, request);
  return { journals: await context.services.journalAdmin.list(), siteUrl: context.services.baseUrl };
}

const CONFIRM = 'Tick the box to confirm.';

/** The site admin's page actions: make a journal (`create`), change one's state or address (`status-ID`, `move-ID`). */
export async function action({ context, request }: Route.ActionArgs) {
  const auth = await requireSiteAdmin(context, request);
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const admin = context.services.journalAdmin;
  const values = form.values();
  delete values.intent;
  const refuse = (status: number, message: string, errors: Record<string, string> = {}) =>
    replyRefused(intent, clientError(status, message, errors), values);
  try {
    if (intent === 'create') {
      const parsed = validateForm(createJournalSchema, {
        title: form.text('title'),
        path: form.text('path'),
        domain: form.text('domain'),
        editor: form.text('editor'),
      });
      if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
      const made = await admin.create(parsed.data, auth.user);
      return replyDone(intent, `The journal “${made.title}” is made: it answers at ${made.url}.`);
    }
    const [, kind, rawId] = /^(status|move)-(\d+)$/.exec(intent) ?? [];
    const id = rawId ? parseId(rawId) : null;
    if (!kind || id === null) return refuse(400, 'Unknown action.');
    if (form.text('confirm') !== 'yes') return refuse(400, CONFIRM, { confirm: CONFIRM });
    if (kind === 'status') {
      const action = form.text('action');
      if (!Object.hasOwn(JOURNAL_STATUS_ACTIONS, action))
        return refuse(400, 'Choose a state.', { action: 'Choose a state.' });
      const changed = await admin.setStatus(
        id,
        {
          status: JOURNAL_STATUS_ACTIONS[action as JournalStatusAction],
        },
        auth.user,
      );
      return replyDone(intent, `The journal “${changed.title}” is ${changed.status}.`);
    }
    const parsed = validateForm(moveJournalSchema, { path: form.text('path'), domain: form.text('domain') });
    if (!parsed.ok) return replyRefused(intent, parsed.refusal, values);
    const moved =
      parsed.data.path !== undefined
        ? await admin.moveToPath(id, parsed.data.path, auth.user)
        : await admin.moveToDomain(id, parsed.data.domain!, auth.user);
    return replyDone(
      intent,
      `The journal “${moved.title}” answers at ${moved.url}; its old address redirects there.`,
    );
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused, values);
  }
}

export default function SiteJournals({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="page site-admin">
      <p className="dashboard__eyebrow">Site admin</p>
      <h1>Journals</h1>
      <p className="site-admin__nav">
        <Link to="/admin/imports">Import a journal from OJS</Link>
      </p>
      <ActionResult result={actionData} />
      <JournalsList journals={loaderData.journals} result={actionData} />
      <CreateJournalForm result={actionData} siteUrl={loaderData.siteUrl} />
    </div>
  );
}
