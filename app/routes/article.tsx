import { Link } from 'react-router';
import {
  CITATION_STYLES,
  type CitationStyleId,
  doiUrl,
  formatPages,
  keywordList,
} from '../../common/citation.ts';
import { formatDay } from '../../common/dates.ts';
import { articleLicence, licenceTerms } from '../../common/licences.ts';
import { articleMetadata, fullTitle, serializeJsonLd, truncate } from '../../common/metadata.ts';
import { can } from '../../common/roles.ts';
import { ArticleDownload } from '../components/ArticleDownload.tsx';
import { ArticleUsage } from '../components/ArticleUsage.tsx';
import { articleAuthorsHtml } from '../components/article-authors.server.tsx';
import { openReviewsHtml } from '../components/review/open-reviews.server.tsx';
import { Citation } from '../components/Citation.tsx';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { useDocumentHtml } from '../lib/document-html.ts';
import { pageTitle } from '../lib/meta.ts';
import { readerLinks } from '../lib/reader-page.ts';
import { orNotFound } from '../lib/not-found.server.ts';
import { issueHref, idParam } from '../lib/route-params.ts';
import { publicPage } from '../lib/cache.ts';
import type { Route } from './+types/article';
import { useJournalPrefix, withPrefixedLinks } from '../lib/journal-href.ts';

/** The same for every signed-out reader: kept and shared (decision 0018). */
export const headers: Route.HeadersFunction = publicPage;

export const links: Route.LinksFunction = readerLinks;

/** The reference style asked for with ?style= (the citation picker without scripts), else APA. */
function citationStyle(value: string | null): CitationStyleId {
  return CITATION_STYLES.find((s) => s.id === value)?.id ?? CITATION_STYLES[0].id;
}

/**
 * The article page. Its data is the article once (the page, its scholarly <meta> tags and JSON-LD are all
 * made from it, on the server and again in the browser: common/metadata.ts), the journal's facts and one
 * reference style. It depends on nothing but the address and who is signed in (the download button), so
 * it can be cached: the view is counted and the usage figures are fetched once the page has loaded
 * (ArticleUsage, decision 0019).
 */
export async function loader({ params, context, request }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const { catalog, settings, citations, review, fulltext } = context.services;
  const baseUrl = context.services.journalUrl();
  const [article, journal] = await Promise.all([orNotFound(catalog.article(id)), settings.journal()]);
  const query = new URL(request.url).searchParams;
  const user = context.auth?.user;
  const allowed = journal.downloads === 'open' || can('download', user);
  // The full text is HTML made on the server, with its heading and links (the PDF's as the button's). A whole
  // page gets it through the load context, so it is sent once, not again as route data; a navigation in the
  // browser gets it as data (decision 0028).
  const [fullTextHtml, openReviews] = await Promise.all([
    fulltext.readerHtml(id, {
      pdfHref: article.public_pdf_url
        ? allowed
          ? `/api/articles/${article.id}/download`
          : `/article/${article.id}?download=denied#download`
        : null,
    }),
    review.articleReviews(id),
  ]);
  const documentHtml = context.documentHtml;
  if (fullTextHtml && documentHtml) documentHtml.set('fulltext', fullTextHtml);
  // Agreed open reviews, as server-made HTML under the abstract: no script of the page knows about them.
  const reviews = openReviewsHtml(openReviews);

  return {
    article: {
      id: article.id,
      title: article.title,
      subtitle: article.subtitle,
      article_type: article.article_type,
      section: article.section,
      language: article.language,
      license_url: article.license_url,
      copyright_holder: article.copyright_holder,
      copyright_year: article.copyright_year,
      // The full text's own reference list, when it has one, is richer: the plain list is then left out.
      references: fullTextHtml?.includes('id="fulltext-references"') ? [] : article.references,
      files: article.files.map((f) => ({
        id: f.id,
        label: f.label,
        locale: f.locale,
        remote: f.remote,
        url: f.url,
      })),
      abstract: article.abstract,
      keywords: article.keywords,
      pages: article.pages,
      doi: article.doi,
      authors: article.authors.map((a) => ({
        name: a.name,
        affiliation: a.affiliation,
        email: a.email,
        orcid: a.orcid,
      })),
      language_differs: Boolean(article.language) && article.language.split('-')[0] !== journal.language,
      public_pdf_url: article.public_pdf_url,
      publication_date: article.publication_date,
      monyr: article.monyr,
      volume_number: article.volume_number,
      issue_number: article.issue_number,
      full_text: Boolean(fullTextHtml),
    },
    // Only a navigation in the browser carries the HTML as data.
    ...(fullTextHtml && !documentHtml ? { fullText: fullTextHtml } : {}),
    journal: {
      name: journal.name,
      abbreviation: journal.abbreviation,
      issnOnline: journal.issnOnline,
      publisher: journal.publisher,
      publisherAddress: journal.publisherAddress,
      language: journal.language,
      license: journal.license,
    },
    baseUrl,
    citation: {
      style: citations.format(article, journal, citationStyle(query.get('style'))),
      // A style picked without scripts: the page opens at the styles.
      open: query.has('style'),
    },
    download: {
      articleId: article.id,
      allowed,
      hasPdf: Boolean(article.public_pdf_url),
      signedIn: Boolean(user),
      href: `/api/articles/${article.id}/download`,
      showDenied: query.get('download') === 'denied',
    },
    ...(reviews ? { reviews } : {}),
    // The by-line (names, affiliations, ORCID iDs), as server-made HTML: no script of the page makes it.
    authorsHtml: articleAuthorsHtml(article.authors),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: pageTitle(matches, 'Page not found') }];
  return [
    { title: pageTitle(matches, loaderData.article.title) },
    { name: 'description', content: truncate(loaderData.article.abstract) },
  ];
};

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  const { article, journal, baseUrl, citation, download, reviews, fullText, authorsHtml } = loaderData;
  // Its figures' addresses are the journal's (under its path, when it has one).
  const prefix = useJournalPrefix();
  const fullTextHtml = withPrefixedLinks(useDocumentHtml('fulltext', fullText), prefix);
  const head = articleMetadata(article, journal, baseUrl);
  const abstract = article.abstract
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const keywords = keywordList(article.keywords);
  // One element, shown twice (the eyebrow and the facts).
  const issueLink = (
    <Link to={issueHref(article.volume_number, article.issue_number)}>
      Volume {article.volume_number}, Issue {article.issue_number}
    </Link>
  );
  const doi = article.doi && doiUrl(article.doi);
  // The article's own language on its title and abstract, where it is not the site's (issue 26).
  const lang = article.language_differs ? article.language : undefined;
  const licence = articleLicence(article.license_url, journal.license);
  // What the licence lets readers do, when it is one of Creative Commons' (the article's own or the journal's).
  const licenceText = licenceTerms(licence.url, journal.name);
  const copyright = [article.copyright_year, article.copyright_holder].filter(Boolean).join(' ');
  return (
    <>
      {/* The scholarly <meta> and <link> elements. React hoists them into <head> (in the server's HTML,
          too); they are rendered here rather than from `meta` because the list repeats names and values on
          purpose (one citation_author_institution per author, even when two authors share one). */}
      {head.links.map((l) => (
        <link key={l.rel} {...l} />
      ))}
      {head.tags.map((t, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the list is fixed for the page, and repeats on purpose.
        <meta key={i} {...t} />
      ))}
      <JournalPageLayout
        className="article-page"
        eyebrow={
          <>
            <span>{article.article_type}</span>
            {article.section && article.section !== article.article_type ? (
              <>
                <span aria-hidden="true"> · </span>
                <span>{article.section}</span>
              </>
            ) : null}
            <span aria-hidden="true"> · </span>
            {issueLink}
            <span aria-hidden="true"> · </span>
            <span>Open access</span>
          </>
        }
        title={
          <span lang={lang}>
            {article.title}
            {article.subtitle ? (
              <>
                <span className="visually-hidden">: </span>
                <span className="article-subtitle">{article.subtitle}</span>
              </>
            ) : null}
          </span>
        }
      >
        <section
          aria-label="Authors"
          className="article-authors"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: made by React on the server (article-authors.server.tsx), from escaped text.
          dangerouslySetInnerHTML={{ __html: authorsHtml }}
        />

        <dl className="article-facts">
          <div>
            <dt>Published</dt>
            <dd>
              <time dateTime={article.publication_date}>{formatDay(article.publication_date)}</time>
            </dd>
          </div>
          <div>
            <dt>Issue</dt>
            <dd>
              {issueLink} ({article.monyr})
            </dd>
          </div>
          <div>
            <dt>Pages</dt>
            <dd>{formatPages(article.pages)}</dd>
          </div>
          {doi ? (
            <div>
              <dt>DOI</dt>
              <dd>
                <a href={doi}>{doi}</a>
              </dd>
            </div>
          ) : null}
          <div>
            <dt>Licence</dt>
            <dd>
              <a href={licence.url} rel="license">
                {licence.name}
              </a>
            </dd>
          </div>
          {/* Last: its figures arrive after the page, and nothing after it moves when they do. */}
          <ArticleUsage articleId={article.id} />
        </dl>

        <ArticleDownload state={download} />

        {article.files.length ? (
          <section aria-labelledby="files-title" className="article-section article-files">
            <h2 id="files-title">Other files</h2>
            <ul>
              {article.files.map((f) => (
                <li key={f.id}>
                  {f.remote ? (
                    <a href={f.url} rel="external noopener">
                      {f.label}
                    </a>
                  ) : download.allowed ? (
                    <a href={f.url} download>
                      {f.label}
                    </a>
                  ) : (
                    <>
                      {f.label}{' '}
                      <Link to={`/article/${article.id}?download=denied#download`}>
                        (sign in to download)
                      </Link>
                    </>
                  )}
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <section aria-labelledby="abstract-title" className="article-section">
          <h2 id="abstract-title">Abstract</h2>
          <div className="article-abstract" lang={lang}>
            {abstract.map((paragraph, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs have no identity but their order.
              <p key={i}>{paragraph}</p>
            ))}
          </div>
        </section>

        {/* Open reviews: HTML made on the server (open-reviews.server.tsx), none for most articles (React
            renders nothing for an absent __html); always rendered, without a condition, to keep the page's
            script as small as it was (decision 0011). */}
        <div
          // biome-ignore lint/security/noDangerouslySetInnerHtml: made by React on the server, from escaped text.
          dangerouslySetInnerHTML={{ __html: reviews as string }}
        />

        {keywords.length ? (
          <section aria-labelledby="keywords-title" className="article-section">
            <h2 id="keywords-title">Keywords</h2>
            <ul className="keyword-list">
              {keywords.map((k) => (
                <li key={k}>{k}</li>
              ))}
            </ul>
          </section>
        ) : null}

        {/* The full text: HTML made and sanitised on the server (server/fulltext/html.ts), none for most
            articles; always rendered, without a condition, to keep the page's script small (decision 0011). On
            hydration React keeps what the server sent. */}
        <div
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: made from the structured document and sanitised on the server.
          dangerouslySetInnerHTML={{ __html: fullTextHtml }}
        />

        {article.references.length ? (
          <section aria-labelledby="references-title" className="article-section article-references">
            <h2 id="references-title">References</h2>
            <ol>
              {article.references.map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: references keep their order; two may read alike.
                <li key={i}>{r}</li>
              ))}
            </ol>
          </section>
        ) : null}

        <section aria-labelledby="cite-title" className="article-section">
          <h2 id="cite-title">Cite this article</h2>
          <Citation
            citation={{
              authors: article.authors,
              title: fullTitle(article.title, article.subtitle),
              journal: journal.name,
              volume: article.volume_number,
              issue: article.issue_number,
              monthYear: article.monyr,
              pages: article.pages,
              doi: article.doi,
              url: head.canonicalUrl,
            }}
            articleId={article.id}
            style={citation.style}
            stylesOpen={citation.open}
          />
        </section>

        <section aria-labelledby="licence-title" className="article-section article-licence">
          <h2 id="licence-title">Licence</h2>
          {licenceText ? (
            <p>
              This article is open access, published under the{' '}
              <a href={licence.url} rel="license">
                {licenceText.title} ({licence.name})
              </a>
              , with no embargo. {licenceText.terms}
            </p>
          ) : (
            <p>
              This article is licensed under{' '}
              <a href={licence.url} rel="license">
                {licence.name}
              </a>
              .
            </p>
          )}
          {copyright ? <p>Copyright © {copyright}.</p> : null}
        </section>
      </JournalPageLayout>
      <script
        type="application/ld+json"
        // Escaped by serializeJsonLd: nothing in the article's text can close this element.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON-LD must be raw JSON; see above.
        dangerouslySetInnerHTML={{ __html: serializeJsonLd(head.jsonLd) }}
      />
    </>
  );
}
