import { useId } from 'react';
import { JournalMenu } from './JournalMenu.tsx';

/**
 * A journal page: a header with its one h1 (and an optional lead paragraph), the page's content, and the
 * Journal Menu beside it (aria-current on this page). The content comes first in the document, so on
 * narrow screens the menu sits below it; on wide screens the grid puts the menu on the left.
 *
 * Give `title` the page's heading; everything inside `children` starts at h2.
 */
export function JournalPageLayout({
  title,
  eyebrow,
  lead,
  children,
  className,
}: {
  title: React.ReactNode;
  /** A short line above the heading, e.g. "About the journal". */
  eyebrow?: React.ReactNode;
  lead?: React.ReactNode;
  children: React.ReactNode;
  /** Extra class for the article element (page-specific styling). */
  className?: string;
}) {
  const headingId = useId();
  return (
    <div className="with-menu journal-page">
      <article
        className={className ? `with-menu__content journal-page__body ${className}` : 'with-menu__content journal-page__body'}
        aria-labelledby={headingId}
      >
        <header className="journal-page__header">
          {eyebrow ? <p className="journal-page__eyebrow">{eyebrow}</p> : null}
          <h1 id={headingId} className="journal-page__title">
            {title}
          </h1>
          {lead ? <p className="journal-page__lead">{lead}</p> : null}
        </header>
        {children}
      </article>
      <div className="with-menu__menu">
        <JournalMenu />
      </div>
    </div>
  );
}
