import { Link } from 'react-router';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { ProposeSpecialIssue, SpecialIssuesTable } from '../components/SpecialIssuesTable.tsx';
import { contentLinks, contentMeta } from '../lib/content-page.ts';
import { loadSpecialIssues } from '../lib/special-issues.server.ts';
import { publicPage } from '../lib/cache.ts';
import type { Route } from './+types/open-special-issues';

/** The same for every signed-out reader: kept and shared (decision 0018). */
export const headers: Route.HeadersFunction = publicPage;

export const links: Route.LinksFunction = contentLinks;

export async function loader({ context }: Route.LoaderArgs) {
  const { issues, ...rest } = await loadSpecialIssues(context, '/open-special-issues');
  return {
    ...rest,
    title: 'Open Special Issues',
    description: `Calls for papers for special issues of the ${rest.journalName} that are open for submissions, with their guest editors and deadlines.`,
    open: issues.filter((issue) => issue.status === 'Open'),
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => contentMeta(matches, loaderData);

export default function OpenSpecialIssues({ loaderData }: Route.ComponentProps) {
  const { title, open, email } = loaderData;
  return (
    <JournalPageLayout
      title={title}
      lead="Special issues gather papers on one topic, edited by guest editors who are experts in it. The calls listed here are accepting submissions."
    >
      <section aria-labelledby="open-calls">
        <h2 id="open-calls">Current calls for papers</h2>
        {open.length ? (
          <>
            <SpecialIssuesTable issues={open} caption="Special issues open for submissions" />
            <p>
              Submit through the <Link to="/submission">submission form</Link> or by e-mail, following the{' '}
              <Link to="/instructions">instructions for authors</Link>, and name the special issue in your cover
              letter. Submissions are accepted until the end of the deadline day (UTC).
            </p>
          </>
        ) : (
          <p className="empty-state">
            There are no special issues open for submissions at the moment. See the{' '}
            <Link to="/closed-special-issues">closed special issues</Link> or{' '}
            <Link to="/special-issues">all special issues</Link>. Regular submissions are welcome at any time.
          </p>
        )}
      </section>
      <ProposeSpecialIssue email={email} />
    </JournalPageLayout>
  );
}
