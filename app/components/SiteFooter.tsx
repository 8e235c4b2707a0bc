export interface FooterProps {
  journal?: {
    name: string;
    issnOnline: string;
    publisher: string;
    publisherAddress: string;
    license: { name: string; url: string };
  };
  /** The site's own pages (no journal at the site's root): the site's name and publisher. */
  site?: { name: string; publisher: string };
  year: number;
}

export function SiteFooter({ journal, site, year }: FooterProps) {
  if (!journal && site) {
    return (
      <footer className="site-footer">
        <div className="site-footer__inner">
          <p className="site-footer__publisher">
            Published by <strong>{site.publisher}</strong>
          </p>
          <p className="site-footer__copyright">
            © {year} {site.name}
          </p>
        </div>
      </footer>
    );
  }
  if (!journal) {
    return (
      <footer className="site-footer">
        <div className="site-footer__inner">
          <p>© {year}</p>
        </div>
      </footer>
    );
  }
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <p className="site-footer__publisher">
          Published by <strong>{journal.publisher}</strong>, {addressWithoutName(journal)}
        </p>
        <p className="site-footer__copyright">
          © {year} {journal.name}. Articles are open access under the{' '}
          <a href={journal.license.url} rel="license">
            {journal.license.name}
          </a>{' '}
          licence.{journal.issnOnline ? ` ISSN ${journal.issnOnline} (online).` : ''}
        </p>
      </div>
    </footer>
  );
}

/** The address as it follows the publisher's name: without the name again, if the address starts with it. */
function addressWithoutName({
  publisher,
  publisherAddress,
}: {
  publisher: string;
  publisherAddress: string;
}) {
  if (!publisherAddress.startsWith(publisher)) return publisherAddress;
  return publisherAddress.slice(publisher.length).replace(/^[\s,]+/, '');
}
