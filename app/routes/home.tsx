import { Link } from 'react-router';
import { WithJournalMenu } from '../components/JournalMenu.tsx';
import { SiteHome, siteHomeMeta } from '../components/SiteHome.tsx';
import { publicPage } from '../lib/cache.ts';
import { siteHome } from '../lib/site-home.server.ts';
import type { Route } from './+types/home';

/** The same for every signed-out reader: kept and shared (decision 0018). */
export const headers: Route.HeadersFunction = publicPage;

export async function loader({ context }: Route.LoaderArgs) {
  // The site's home, when no journal is at the site's root (decision 0056).
  if (!context.journal) return { kind: 'site' as const, ...(await siteHome(context)) };
  const { settings, catalog } = context.services;
  const baseUrl = context.services.journalUrl();
  const [journal, latest] = await Promise.all([settings.journal(), catalog.latest(5)]);
  return {
    kind: 'journal' as const,
    name: journal.name,
    description: journal.description,
    facts: [
      { term: 'Frequency', detail: `${journal.frequency}, ${journal.issuesPerYear} issues a year` },
      ...(journal.issnOnline ? [{ term: 'ISSN (online)', detail: journal.issnOnline }] : []),
      { term: 'Licence', detail: `${journal.license.name}, no embargo` },
      { term: 'Publishing since', detail: String(journal.startYear) },
      { term: 'Language', detail: languageName(journal.language) },
    ],
    canonicalUrl: `${baseUrl}/`,
    // Only what a card shows: the authors' e-mail addresses stay on the server.
    articles: latest.map((a) => ({
      id: a.id,
      title: a.title,
      authors: a.authors.map((author) => author.name),
      volume: a.volume_number,
      issue: a.issue_number,
      monyr: a.monyr,
    })),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [];
  if (loaderData.kind === 'site') return siteHomeMeta(loaderData);
  const title = `${loaderData.name} · Open access, peer reviewed`;
  return [
    { title },
    { name: 'description', content: loaderData.description },
    { property: 'og:type', content: 'website' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: loaderData.description },
    { tagName: 'link', rel: 'canonical', href: loaderData.canonicalUrl },
  ];
};

export default function Home({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'site') return <SiteHome site={loaderData.site} journals={loaderData.journals} />;
  const { name, description, facts, articles } = loaderData;
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero__inner">
          <div className="hero__main">
            <p className="hero__eyebrow">Open access · Peer reviewed</p>
            <h1 id="hero-title" className="hero__title">
              {name}
            </h1>
            <p className="hero__description">{description}</p>
            <div className="hero__actions">
              <Link to="/submission" className="button button--primary">
                Submit a manuscript
              </Link>
              <Link to="/volumes" className="button button--secondary">
                Browse volumes
              </Link>
            </div>
          </div>
          <div className="hero__facts">
            <h2 className="hero__facts-title">At a glance</h2>
            <dl className="facts">
              {facts.map((fact) => (
                <div key={fact.term} className="facts__row">
                  <dt>{fact.term}</dt>
                  <dd>{fact.detail}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      </section>

      <WithJournalMenu>
        <section className="section" aria-labelledby="indexing-title">
          <h2 id="indexing-title">Indexing and Abstracting</h2>
          <ul className="plain-list">
            <li>
              <span className="badge">YET TO BE RELEASED</span>
            </li>
          </ul>
          <p>
            <Link to="/indexing">About indexing and abstracting</Link>
          </p>
        </section>

        <section className="section" aria-labelledby="latest-title">
          <h2 id="latest-title">Latest Articles</h2>
          {articles.length ? (
            <ul className="card-grid">
              {articles.map((article) => (
                <li key={article.id}>
                  <ArticleCard article={article} />
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No articles have been published yet.</p>
          )}
        </section>
      </WithJournalMenu>
    </>
  );
}

type CardArticle = Extract<Route.ComponentProps['loaderData'], { kind: 'journal' }>['articles'][number];

/** One link, stretched over the whole card: the card is clickable, and read aloud once, by its title. */
function ArticleCard({ article }: { article: CardArticle }) {
  return (
    <article className="card">
      <p className="card__meta">
        Volume {article.volume}, Issue {article.issue}
      </p>
      <h3 className="card__title">
        <Link to={`/article/${article.id}`} className="card__link">
          {article.title}
        </Link>
      </h3>
      <p className="card__authors">{article.authors.join(', ')}</p>
      <div className="card__footer">
        <p className="card__date">{article.monyr}</p>
        <p className="card__more" aria-hidden="true">
          Read More <span className="card__arrow">→</span>
        </p>
      </div>
    </article>
  );
}

/** "English" for "en"; the code itself if the runtime does not know it. */
function languageName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}
