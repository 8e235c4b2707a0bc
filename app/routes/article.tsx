import { Link } from 'react-router';
import {
  CITATION_FILES,
  citationPath,
  doiUrl,
  formatPages,
  keywordList,
  numberAffiliations,
} from '../../common/citation.ts';
import { can } from '../../common/roles.ts';
import { articleMetadata, serializeJsonLd } from '../../server/catalog/metadata.ts';
import { ArticleDownload } from '../components/ArticleDownload.tsx';
import { Citation } from '../components/Citation.tsx';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { asClientError } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { readerLinks } from '../lib/reader-page.ts';
import { issueHref, notFound, parseId } from '../lib/route-params.ts';
import { publicPage } from '../lib/cache.ts';
import type { Route } from './+types/article';

/** The same for every signed-out reader: kept and shared (decision 0018). */
export const headers: Route.HeadersFunction = publicPage;

export const links: Route.LinksFunction = readerLinks;

const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const id = parseId(params.id);
  if (!id) notFound();
  const { catalog, settings, baseUrl, citations, metrics, log } = context.services;
  const [article, journal, usage] = await Promise.all([
    catalog.article(id).catch((err: unknown) => {
      if (asClientError(err)?.status === 404) notFound();
      throw err;
    }),
    settings.journal(),
    // The counts are a courtesy: if they cannot be read, the page goes without them.
    metrics.articleMetrics(id).then(
      (m) => ({ ...m.totals, months: m.months.slice(-12).reverse() }),
      (err: unknown) => {
        log.warn({ err, articleId: id }, 'Usage counts could not be read');
        return null;
      },
    ),
  ]);
  // Counted in the background (robots and double clicks left out); never delays or fails the page.
  metrics.track('view', article.id, {
    sessionId: context.auth?.sessionId,
    ip: context.clientIp,
    userAgent: context.userAgent,
  });
  const metadata = articleMetadata(article, journal, baseUrl);
  const user = context.auth?.user;
  const { authors, affiliations } = numberAffiliations(article.authors);

  return {
    article: {
      id: article.id,
      title: article.title,
      articleType: article.article_type,
      abstract: article.abstract.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean),
      keywords: keywordList(article.keywords),
      pages: article.pages,
      pagesLabel: formatPages(article.pages),
      doi: article.doi,
      monthYear: article.monyr,
      date: article.publication_date,
      dateLabel: longDate.format(new Date(`${article.publication_date}T00:00:00Z`)),
      volume: article.volume_number,
      issue: article.issue_number,
      issueTitle: article.issue_title,
      authors: authors.map((a) => ({ name: a.name, mark: a.mark })),
      affiliations,
      url: metadata.canonicalUrl,
    },
    journal: { name: journal.name, license: journal.license },
    usage,
    citations: {
      styles: citations.formats(article, journal),
      files: (Object.keys(CITATION_FILES) as (keyof typeof CITATION_FILES)[]).map((format) => ({
        label: CITATION_FILES[format].label,
        href: citationPath(article.id, format),
      })),
    },
    head: {
      description: metadata.description,
      tags: metadata.tags,
      links: metadata.links,
      jsonLd: serializeJsonLd(metadata.jsonLd),
    },
    download: {
      articleId: article.id,
      allowed: journal.downloads === 'open' || can('download', user),
      hasPdf: Boolean(article.public_pdf_url),
      signedIn: Boolean(user),
      href: `/api/articles/${article.id}/download`,
      showDenied: new URL(request.url).searchParams.get('download') === 'denied',
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: pageTitle(matches, 'Page not found') }];
  return [
    { title: pageTitle(matches, loaderData.article.title) },
    { name: 'description', content: loaderData.head.description },
  ];
};

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const { article, journal, head, download, usage, citations } = loaderData;
  const issueLink = issueHref(article.volume, article.issue);
  return (
    <>
      <ScholarlyHead tags={head.tags} links={head.links} />
      <JournalPageLayout
        className="article-page"
        eyebrow={
          <>
            <span>{article.articleType}</span>
            <span aria-hidden="true"> · </span>
            <Link to={issueLink}>
              Volume {article.volume}, Issue {article.issue}
            </Link>
            <span aria-hidden="true"> · </span>
            <span>Open access</span>
          </>
        }
        title={article.title}
      >
        <section aria-label="Authors" className="article-authors">
          <ul className="article-authors__names">
            {article.authors.map((author, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: authors keep their order; two may share a name.
              <li key={i}>
                {author.name}
                <sup>
                  <span className="visually-hidden"> affiliation </span>
                  {author.mark}
                </sup>
              </li>
            ))}
          </ul>
          <ol className="article-authors__affiliations" aria-label="Affiliations">
            {article.affiliations.map((a) => (
              <li key={a.mark}>
                <sup>{a.mark}</sup> {a.text}
              </li>
            ))}
          </ol>
        </section>

        <dl className="article-facts">
          <div>
            <dt>Published</dt>
            <dd>
              <time dateTime={article.date}>{article.dateLabel}</time>
            </dd>
          </div>
          <div>
            <dt>Issue</dt>
            <dd>
              <Link to={issueLink}>
                Volume {article.volume}, Issue {article.issue}
              </Link>{' '}
              ({article.monthYear})
            </dd>
          </div>
          <div>
            <dt>Pages</dt>
            <dd>{article.pagesLabel}</dd>
          </div>
          {article.doi ? (
            <div>
              <dt>DOI</dt>
              <dd>
                <a href={doiUrl(article.doi)}>{doiUrl(article.doi)}</a>
              </dd>
            </div>
          ) : null}
          {usage ? (
            <div>
              <dt>Usage</dt>
              <dd>
                {countLabel(usage.views, 'view')}, {countLabel(usage.downloads, 'download')}
                {usage.months.length ? (
                  <details className="usage-months">
                    <summary>By month</summary>
                    <table>
                      <caption className="visually-hidden">Views and downloads by month, newest first</caption>
                      <thead>
                        <tr>
                          <th scope="col">Month</th>
                          <th scope="col">Views</th>
                          <th scope="col">Downloads</th>
                        </tr>
                      </thead>
                      <tbody>
                        {usage.months.map((m) => (
                          <tr key={m.month}>
                            <th scope="row">{m.month}</th>
                            <td>{m.views}</td>
                            <td>{m.downloads}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </details>
                ) : null}
              </dd>
            </div>
          ) : null}
          <div>
            <dt>Licence</dt>
            <dd>
              <a href={journal.license.url} rel="license">
                {journal.license.name}
              </a>
            </dd>
          </div>
        </dl>

        <ArticleDownload state={download} />

        <section aria-labelledby="abstract-title" className="article-section">
          <h2 id="abstract-title">Abstract</h2>
          <div className="article-abstract">
            {article.abstract.map((paragraph, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no identity but their order.
              <p key={i}>{paragraph}</p>
            ))}
          </div>
        </section>

        {article.keywords.length ? (
          <section aria-labelledby="keywords-title" className="article-section">
            <h2 id="keywords-title">Keywords</h2>
            <ul className="keyword-list">
              {article.keywords.map((k) => (
                <li key={k}>{k}</li>
              ))}
            </ul>
          </section>
        ) : null}

        <section aria-labelledby="cite-title" className="article-section">
          <h2 id="cite-title">Cite this article</h2>
          <Citation
            citation={{
              authors: article.authors,
              title: article.title,
              journal: journal.name,
              volume: article.volume,
              issue: article.issue,
              monthYear: article.monthYear,
              pages: article.pages,
              doi: article.doi,
              url: article.url,
            }}
            styles={citations.styles}
            files={citations.files}
          />
        </section>

        <section aria-labelledby="licence-title" className="article-section article-licence">
          <h2 id="licence-title">Licence</h2>
          <p>
            This article is open access, published under the{' '}
            <a href={journal.license.url} rel="license">
              Creative Commons Attribution 4.0 International licence ({journal.license.name})
            </a>
            , with no embargo. You may share and adapt it for any purpose, including commercially, provided you
            credit the authors and the original publication in {journal.name}.
          </p>
        </section>
      </JournalPageLayout>
      <script
        type="application/ld+json"
        // Escaped by serializeJsonLd: nothing in the article's text can close this element.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON-LD must be raw JSON; see above.
        dangerouslySetInnerHTML={{ __html: head.jsonLd }}
      />
    </>
  );
}

/** "1 view", "1,234 downloads". */
function countLabel(n: number, noun: string) {
  return `${n.toLocaleString('en-GB')} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The scholarly <meta> and <link> elements. React hoists them into <head> (in the server's HTML, too); they
 * are rendered here rather than from `meta` because the list repeats names and values on purpose (one
 * citation_author_institution per author, even when two authors share one).
 */
function ScholarlyHead({
  tags,
  links,
}: {
  tags: { name?: string; property?: string; content: string }[];
  links: { rel: string; href: string }[];
}) {
  return (
    <>
      {links.map((l) => (
        <link key={l.rel} rel={l.rel} href={l.href} />
      ))}
      {tags.map((t, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed for the page, and repeats on purpose.
        <meta key={i} {...t} />
      ))}
    </>
  );
}
