import type { SiteChrome, SiteJournal } from '../lib/site-home.server.ts';

/** The site's home (decision 0056): its name and publisher, and a card per journal (archived ones left out). */
export function SiteHome({ site, journals }: { site: SiteChrome; journals: SiteJournal[] }) {
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="hero__inner">
          <div className="hero__main">
            {site.publisher === site.name ? null : (
              <p className="hero__eyebrow">Published by {site.publisher}</p>
            )}
            <h1 id="hero-title" className="hero__title">
              {site.name}
            </h1>
            <p className="hero__description">
              {journals.length === 1 ? 'One journal' : `${journals.length} journals`}, open access and peer
              reviewed.
            </p>
          </div>
        </div>
      </section>
      <div className="page">
        <section className="section" aria-labelledby="journals-title">
          <h2 id="journals-title">Journals</h2>
          {journals.length ? (
            <ul className="card-grid">
              {journals.map((journal) => (
                <li key={journal.id}>
                  <article className="card">
                    {journal.logo ? (
                      // Decorative: the journal's title follows.
                      <img
                        className="card__logo"
                        src={journal.logo}
                        alt=""
                        width={64}
                        height={64}
                        loading="lazy"
                      />
                    ) : null}
                    {journal.issn ? <p className="card__meta">ISSN {journal.issn} (online)</p> : null}
                    <h3 className="card__title">
                      {/* Another journal is another address (its path or its own domain): a whole page load. */}
                      <a href={journal.href} className="card__link">
                        {journal.title}
                      </a>
                    </h3>
                    {journal.description ? <p className="card__authors">{journal.description}</p> : null}
                    {journal.closed ? <p className="card__date">Not taking submissions</p> : null}
                    {journal.yourRole ? (
                      <p className="card__role">
                        Your role: <strong>{journal.yourRole}</strong>
                        {journal.dashboardHref ? (
                          <>
                            {' · '}
                            <a href={journal.dashboardHref} className="card__action">
                              Editorial dashboard<span className="visually-hidden"> of {journal.title}</span>
                            </a>
                          </>
                        ) : null}
                      </p>
                    ) : null}
                  </article>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No journals are published here yet.</p>
          )}
        </section>
      </div>
    </>
  );
}

/** The site home's title and description. */
export function siteHomeMeta({ site, journals }: { site: SiteChrome; journals: SiteJournal[] }) {
  const description = `${site.name}: ${journals.map((j) => j.title).join(', ')}.`;
  return [
    { title: site.name },
    { name: 'description', content: description },
    { property: 'og:type', content: 'website' },
    { property: 'og:title', content: site.name },
  ];
}
