import { Link, useLocation } from 'react-router';
import { isCurrentPath } from '../lib/paths.ts';

/** The spec's sidebar links (section 2), in its order. */
export const JOURNAL_MENU = [
  { to: '/overview', label: 'Journal Overview' },
  { to: '/indexing', label: 'Indexing & Abstracting' },
  { to: '/editorial-board', label: 'Editorial Board' },
  { to: '/instructions', label: 'Instructions for Authors' },
  { to: '/apc', label: 'Article Processing Charge' },
  { to: '/ethics', label: 'Publication Ethics' },
  { to: '/contact', label: 'Contact' },
  { to: '/open-special-issues', label: 'Special Issues (open)' },
  { to: '/volumes', label: 'Volumes' },
] as const;

export function JournalMenu() {
  const { pathname } = useLocation();
  return (
    <nav className="journal-menu" aria-labelledby="journal-menu-title">
      <h2 id="journal-menu-title" className="journal-menu__title">
        Journal Menu
      </h2>
      <ul className="journal-menu__list">
        {JOURNAL_MENU.map((item) => (
          <li key={item.to}>
            <Link to={item.to} aria-current={isCurrentPath(pathname, item.to) ? 'page' : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A journal page: its content, with the Journal Menu beside it (below it on narrow screens). */
export function WithJournalMenu({ children }: { children: React.ReactNode }) {
  return (
    <div className="with-menu">
      <div className="with-menu__content">{children}</div>
      <div className="with-menu__menu">
        <JournalMenu />
      </div>
    </div>
  );
}
