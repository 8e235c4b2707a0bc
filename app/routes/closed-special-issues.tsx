import { Link } from 'react-router';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { SpecialIssuesTable } from '../components/SpecialIssuesTable.tsx';
import { contentLinks, contentMeta } from '../lib/content-page.ts';
import { loadSpecialIssues } from '../lib/special-issues.server.ts';
import { publicPage } from '../lib/cache.ts';
import type { Route } from './+types/closed-special-issues';

/** The same for every signed-out reader: kept and shared (decision 0018). */
export const headers: Route.HeadersFunction = publicPage;

export const links: Route.LinksFunction = contentLinks;

export async function loader({ context }: Route.LoaderArgs) {
  const { issues, ...rest } = await loadSpecialIssues(context, '/closed-special-issues');
  return {
    ...rest,
    title: 'Closed Special Issues',
    description: `Special issues of the ${rest.journalName} whose calls for papers have closed.`,
    // The most recently closed first.
    closed: issues.filter((issue) => issue.status === 'Closed').reverse(),
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => contentMeta(matches, loaderData);

export default function ClosedSpecialIssues({ loaderData }: Route.ComponentProps) {
  const { title, closed } = loaderData;
  return (
    <JournalPageLayout
      title={title}
      lead="These calls for papers no longer accept submissions. Papers accepted for them are published in the regular issues."
    >
      {closed.length ? (
        <SpecialIssuesTable issues={closed} caption="Special issues closed for submissions, most recent first" />
      ) : (
        <p className="empty-state">There are currently no closed special issues.</p>
      )}
      <p>
        <Link to="/special-issues">See all special issues</Link>, or the{' '}
        <Link to="/open-special-issues">calls open now</Link>.
      </p>
    </JournalPageLayout>
  );
}
