import { Link } from 'react-router';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { ProposeSpecialIssue, SpecialIssuesTable } from '../components/SpecialIssuesTable.tsx';
import { contentLinks, contentMeta } from '../lib/content-page.ts';
import { loadSpecialIssues } from '../lib/special-issues.server.ts';
import { publicPage } from '../lib/cache.ts';
import type { Route } from './+types/special-issues';

/** The same for every signed-out reader: kept and shared (decision 0018). */
export const headers: Route.HeadersFunction = publicPage;

export const links: Route.LinksFunction = contentLinks;

export async function loader({ context }: Route.LoaderArgs) {
  const { issues, ...rest } = await loadSpecialIssues(context, '/special-issues');
  return {
    ...rest,
    title: 'Special Issues',
    description: `All calls for special-issue papers of the ${rest.journalName}, open and closed, with their guest editors and deadlines.`,
    issues,
    openCount: issues.filter((issue) => issue.status === 'Open').length,
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => contentMeta(matches, loaderData);

export default function SpecialIssues({ loaderData }: Route.ComponentProps) {
  const { title, issues, openCount, email } = loaderData;
  return (
    <JournalPageLayout
      title={title}
      lead="Every call for special-issue papers the journal has published, with its guest editors, deadline and status. A call is open until the end of its deadline day (UTC)."
    >
      <section aria-labelledby="all-calls">
        <h2 id="all-calls">All calls for papers</h2>
        <p>
          {openCount === 0
            ? 'No call is open for submissions at the moment.'
            : `${openCount} ${openCount === 1 ? 'call is' : 'calls are'} open for submissions.`}{' '}
          See the <Link to="/open-special-issues">open calls</Link> or the{' '}
          <Link to="/closed-special-issues">closed calls</Link>.
        </p>
        {issues.length ? (
          <SpecialIssuesTable issues={issues} caption="All special issues, by submission deadline" />
        ) : (
          <p className="empty-state">The journal has not published a call for special-issue papers yet.</p>
        )}
      </section>
      <ProposeSpecialIssue email={email} />
    </JournalPageLayout>
  );
}
