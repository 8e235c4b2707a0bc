import { useEffect, useRef } from 'react';
import { Form, type NavigateOptions, redirect, useNavigate, useNavigation } from 'react-router';
import { formatPages } from '../../common/citation.ts';
import { MESSAGES } from '../../common/messages.ts';
import { issueDate } from '../../server/catalog/present.ts';
import { feedLinks } from '../../server/discovery/links.ts';
import { ArticleListItem, type ListedArticle } from '../components/ArticleListItem.tsx';
import { useJournalPrefix, withoutPrefix } from '../lib/journal-href.ts';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { pageTitle } from '../lib/meta.ts';
import { readerLinks } from '../lib/reader-page.ts';
import { issueHref, notFound } from '../lib/route-params.ts';
import { publicPage } from '../lib/cache.ts';
import type { Route } from './+types/volumes';

/** The same for every signed-out reader: kept and shared (decision 0018). */
export const headers: Route.HeadersFunction = publicPage;

export const links: Route.LinksFunction = readerLinks;

function positiveInt(value: string | null): number | null {
  return value && /^\d{1,9}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

/**
 * A click handler for a list of plain links to this site's pages: each opens through the router (no
 * reload), as a <Link> would, without a <Link> (and its hooks) per row. Other sites' links, new-tab clicks
 * and downloads are left to the browser.
 */
function useLinkDelegation(options?: NavigateOptions) {
  const navigate = useNavigate();
  // The router adds the journal's path itself: the link's address is given without it.
  const prefix = useJournalPrefix();
  return (event: React.MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element).closest('a');
    if (!link || link.target || link.hasAttribute('download')) return;
    const url = new URL(link.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    navigate(`${withoutPrefix(url.pathname, prefix)}${url.search}${url.hash}`, options);
  };
}

/**
 * /volumes?volume=N&issue=M shows that issue; /volumes?volume=N that volume's newest issue; /volumes the
 * newest issue of all. A volume or issue that does not exist is a 404. The selector form (no JavaScript)
 * sends `show` with its choice: its issue list may belong to the previously shown volume, so then an
 * issue missing from the chosen volume means "that volume's newest", and the answer redirects to the
 * clean address.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { catalog, settings } = context.services;
  const baseUrl = context.services.journalUrl();
  const url = new URL(request.url);
  const fromForm = url.searchParams.has('show');
  const volumeParam = url.searchParams.get('volume');
  const issueParam = url.searchParams.get('issue');
  const [index, journal] = await Promise.all([catalog.browseIndex(), settings.journal()]);

  let volume: (typeof index)[number] | undefined;
  let issue: (typeof index)[number]['issues'][number] | undefined;
  if (volumeParam === null) {
    if (issueParam !== null && !fromForm) notFound();
    volume = index.find((v) => v.issues.length) ?? index[0];
    issue = volume?.issues.at(-1);
  } else {
    volume = index.find((v) => v.volume_number === positiveInt(volumeParam));
    if (!volume) notFound();
    if (issueParam === null || issueParam === '') {
      issue = volume.issues.at(-1);
    } else {
      issue = volume.issues.find((i) => i.issue_number === positiveInt(issueParam));
      if (!issue) {
        if (!fromForm) notFound();
        issue = volume.issues.at(-1);
      }
    }
  }
  if (fromForm && volume) throw redirect(issueHref(volume.volume_number, issue?.issue_number));

  const articles = issue ? await catalog.issueArticles(issue.id) : [];
  const selected = volume && issue ? { volume: volume.volume_number, issue: issue.issue_number } : null;
  const dateOf = (i: { publication_month: number | null }, year: number) =>
    issueDate(year, i.publication_month);

  return {
    journalName: journal.name,
    licenceName: journal.license.name,
    // The shown issue's own feeds, beside the journal's (announced by the root layout on every page).
    issueFeeds: selected
      ? feedLinks(baseUrl, { journalName: journal.name, issue: selected }).filter((f) =>
          f.href.includes('/issues/'),
        )
      : [],
    canonicalUrl:
      volumeParam === null
        ? `${baseUrl}/volumes`
        : `${baseUrl}${issueHref(volume!.volume_number, issue?.issue_number)}`,
    selected,
    volume: volume ? { number: volume.volume_number, title: volume.title, year: volume.year } : null,
    issue:
      volume && issue
        ? {
            number: issue.issue_number,
            title: issue.title,
            description: issue.description,
            date: dateOf(issue, volume.year),
            cover: issue.has_cover ? `/api/issues/${issue.id}/cover` : null,
          }
        : null,
    // Only what each entry shows: a long issue sends hundreds of these.
    articles: articles.map(
      (a): ListedArticle => [
        a.id,
        a.title,
        a.article_type,
        a.authors.map((au) => au.name).join(', '),
        formatPages(a.pages),
        a.doi,
        a.publication_date,
      ],
    ),
    tree: index.map((v) => ({
      number: v.volume_number,
      title: v.title,
      year: v.year,
      issues: v.issues.map((i) => ({
        number: i.issue_number,
        title: i.title,
        date: dateOf(i, v.year),
        articleCount: i.article_count,
      })),
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: pageTitle(matches, 'Page not found') }];
  const { issue, volume, journalName, licenceName, articles } = loaderData;
  const where = volume && issue ? `Volume ${volume.number}, Issue ${issue.number}` : null;
  const description = where
    ? `Table of contents of ${journalName}, ${where} (${issue!.date}): ${articles.length} article${articles.length === 1 ? '' : 's'}. Open access under ${licenceName}.`
    : `Browse every volume and issue of ${journalName}.`;
  return [
    { title: pageTitle(matches, where ? `${where} · Volumes` : 'Volumes') },
    { name: 'description', content: description },
    { tagName: 'link', rel: 'canonical', href: loaderData.canonicalUrl },
    ...loaderData.issueFeeds.map((f) => ({ tagName: 'link' as const, ...f })),
  ];
};

export default function Volumes({ loaderData }: Route.ComponentProps) {
  const { selected, volume, issue, articles, tree } = loaderData;
  const navigate = useNavigate();
  const navigation = useNavigation();
  const prefix = useJournalPrefix();
  const loading =
    navigation.state === 'loading' && withoutPrefix(navigation.location.pathname, prefix) === '/volumes';
  const issuesOfVolume = tree.find((v) => v.number === volume?.number)?.issues ?? [];

  // With scripts, choosing in a select shows the choice at once; the page stays, and so does focus. The
  // selects are left uncontrolled (a controlled one would jump back until the new issue has loaded) and
  // follow the page whenever it changes by other means (a link in the list below, Back).
  const go = (href: string) => navigate(href, { preventScrollReset: true });
  const openArticle = useLinkDelegation();
  const openIssue = useLinkDelegation({ preventScrollReset: true });
  const volumeRef = useRef<HTMLSelectElement>(null);
  const issueRef = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    if (volumeRef.current) volumeRef.current.value = String(volume?.number ?? '');
    if (issueRef.current) issueRef.current.value = String(issue?.number ?? '');
  }, [volume?.number, issue?.number]);

  return (
    <JournalPageLayout
      title="Volumes and Issues"
      lead="Every issue of the journal, newest first. Choose a volume and an issue to see its articles."
      className="volumes-page"
    >
      {tree.length === 0 ? (
        <p className="muted">No volumes have been published yet.</p>
      ) : (
        <>
          <Form method="get" action="/volumes" className="issue-picker" aria-label="Choose an issue">
            <div className="issue-picker__field">
              <label htmlFor="pick-volume">Volume</label>
              <select
                id="pick-volume"
                name="volume"
                ref={volumeRef}
                defaultValue={String(volume?.number ?? '')}
                onChange={(e) => go(issueHref(Number(e.currentTarget.value)))}
              >
                {tree.map((v) => (
                  <option key={v.number} value={v.number}>
                    Volume {v.number} ({v.year})
                  </option>
                ))}
              </select>
            </div>
            <div className="issue-picker__field">
              <label htmlFor="pick-issue">Issue</label>
              <select
                id="pick-issue"
                name="issue"
                ref={issueRef}
                defaultValue={String(issue?.number ?? '')}
                disabled={issuesOfVolume.length === 0}
                onChange={(e) => volume && go(issueHref(volume.number, Number(e.currentTarget.value)))}
              >
                {issuesOfVolume.length === 0 ? <option value="">No issues yet</option> : null}
                {issuesOfVolume.map((i) => (
                  <option key={i.number} value={i.number}>
                    Issue {i.number} ({i.date})
                  </option>
                ))}
              </select>
            </div>
            <button
              type="submit"
              name="show"
              value=""
              className="button button--secondary issue-picker__submit"
            >
              Show issue
            </button>
          </Form>

          <section
            className="issue-toc"
            aria-labelledby="issue-toc-title"
            aria-busy={loading ? true : undefined}
          >
            {volume && issue ? (
              <>
                <h2 id="issue-toc-title">
                  Volume {volume.number}, Issue {issue.number}
                  <span className="issue-toc__date"> · {issue.date}</span>
                </h2>
                {issue.cover ? (
                  <img
                    className="issue-toc__cover"
                    src={`${prefix}${issue.cover}`}
                    alt={`Cover of Volume ${volume.number}, issue ${issue.number}`}
                    loading="lazy"
                    decoding="async"
                  />
                ) : null}
                {issue.title && issue.title !== `Issue ${issue.number}` ? (
                  <p className="issue-toc__title">{issue.title}</p>
                ) : null}
                {issue.description ? <p className="issue-toc__description">{issue.description}</p> : null}
                {articles.length ? (
                  // Plain links in the entries: their clicks go to the router here (useLinkDelegation).
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the links inside get keyboard activation as clicks.
                  <ol className="toc-list" onClick={openArticle}>
                    {articles.map((a) => (
                      <li key={a[0]}>
                        <ArticleListItem article={a} prefix={prefix} />
                      </li>
                    ))}
                  </ol>
                ) : (
                  <p className="empty-issue">{MESSAGES.emptyIssue}</p>
                )}
              </>
            ) : (
              <>
                <h2 id="issue-toc-title">Volume {volume?.number}</h2>
                <p className="muted">No issues have been published in this volume yet.</p>
              </>
            )}
            <p role="status" className="visually-hidden">
              {selected
                ? `Showing Volume ${selected.volume}, Issue ${selected.issue}: ${articles.length || 'no'} article${articles.length === 1 ? '' : 's'}.`
                : ''}
            </p>
          </section>

          {/* biome-ignore lint/a11y/useKeyWithClickEvents: the links inside get keyboard activation as clicks. */}
          <nav className="browse-tree" aria-labelledby="browse-title" onClick={openIssue}>
            <h2 id="browse-title">All volumes and issues</h2>
            <ul className="browse-tree__volumes">
              {tree.map((v) => (
                <li key={v.number}>
                  <h3 className="browse-tree__volume">
                    Volume {v.number} <span className="muted">({v.year})</span>
                  </h3>
                  {v.issues.length ? (
                    <ul className="browse-tree__issues">
                      {v.issues.map((i) => {
                        const current = selected?.volume === v.number && selected.issue === i.number;
                        return (
                          <li key={i.number} className="browse-tree__issue">
                            <a
                              href={`${prefix}${issueHref(v.number, i.number)}`}
                              aria-current={current ? 'page' : undefined}
                            >
                              Issue {i.number}, {i.date}
                            </a>{' '}
                            <span className="muted">
                              (
                              {i.articleCount
                                ? `${i.articleCount} article${i.articleCount === 1 ? '' : 's'}`
                                : 'under review'}
                              )
                            </span>
                          </li>
                        );
                      })}
                    </ul>
                  ) : (
                    <p className="muted">No issues yet.</p>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        </>
      )}
    </JournalPageLayout>
  );
}
