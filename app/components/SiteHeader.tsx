import { Form, Link, useLocation } from 'react-router';
import { type Role, type Status, can } from '../../common/roles.ts';
import { isCurrentPath } from '../lib/paths.ts';
import { Logo } from './Logo.tsx';
import { SearchBox } from './SearchBox.tsx';

/** The spec's header links (section 2), in its order. */
const MAIN_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/about', label: 'About' },
  { to: '/volumes', label: 'Volumes' },
  { to: '/submission', label: 'Submit' },
  { to: '/contact', label: 'Contact' },
] as const;

export interface HeaderProps {
  journalName?: string;
  issn?: string;
  /** The journal's own logo (decision 0062); the site's mark when it has none. */
  logo?: { href: string; width: number; height: number } | null;
  /** The site's own pages (no journal at the site's root): its name, and no journal's sections. */
  site?: boolean;
  user: {
    username: string;
    /** In this journal; null: signed in, not a member of it (decision 0054). */
    role?: Role | null;
    status?: Status | null;
    /**
     * A reviewer's open assignments, or null when the account has no reviewer profile (reviewing is an
     * assignment, not a role): every reviewer gets the "Reviews" link, with its count when it is not 0.
     */
    reviews?: number | null;
    /** The site's admin: the "Journals" link to /admin/journals (decision 0055). */
    siteAdmin?: boolean;
  } | null;
}

export function SiteHeader({ journalName, issn, logo = null, site = false, user }: HeaderProps) {
  const { pathname } = useLocation();
  const current = (to: string) => (isCurrentPath(pathname, to) ? ('page' as const) : undefined);
  const principal = user?.role && user.status ? { role: user.role, status: user.status } : null;
  return (
    <header className="site-header">
      <div className="site-header__inner">
        <div className="site-header__top">
          <Link to="/" className="brand">
            {logo ? (
              // Decorative: the journal's name is beside it.
              <img className="logo logo--journal" src={logo.href} alt="" width={40} height={40} />
            ) : (
              <Logo />
            )}
            <span className="brand__text">
              <span className="brand__name">{journalName ?? 'Journal home'}</span>
              {site ? null : (
                <span className="brand__tagline">
                  Open access · Peer reviewed{issn ? ` · ISSN ${issn} (online)` : ''}
                </span>
              )}
            </span>
          </Link>
          <SearchBox />
        </div>
        <nav className="site-nav" aria-label="Main">
          <ul className="site-nav__list">
            {(site ? MAIN_LINKS.slice(0, 1) : MAIN_LINKS).map((item) => (
              <li key={item.to}>
                <Link to={item.to} aria-current={current(item.to)}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="site-nav__account">
            {user ? (
              <>
                <ul className="site-nav__list">
                  {!site && principal && can('editorial', principal) ? (
                    <li>
                      <Link to="/editor-dashboard" aria-current={current('/editor-dashboard')}>
                        Dashboard
                      </Link>
                    </li>
                  ) : null}
                  {/* The site's, not a journal's: shown whatever the account's role here, and on the site's own
                      pages, where nobody has one (decision 0055). */}
                  {can('siteAdmin', {
                    role: user.role ?? null,
                    status: user.status ?? null,
                    siteAdmin: user.siteAdmin,
                  }) ? (
                    <li>
                      <Link to="/admin/journals" aria-current={current('/admin/journals')}>
                        Journals
                      </Link>
                    </li>
                  ) : null}
                  {!site && principal && can('submit', principal) ? (
                    <li>
                      <Link to="/my-submissions" aria-current={current('/my-submissions')}>
                        My submissions
                      </Link>
                    </li>
                  ) : null}
                  {site || user.reviews == null ? null : (
                    <li>
                      <Link to="/reviews" aria-current={current('/reviews')}>
                        Reviews
                        {user.reviews ? (
                          <>
                            {' '}
                            <span className="nav-count">{user.reviews}</span>
                            <span className="visually-hidden"> open</span>
                          </>
                        ) : null}
                      </Link>
                    </li>
                  )}
                  <li>
                    <Link to="/account" aria-current={current('/account')}>
                      Account
                    </Link>
                  </li>
                </ul>
                {/* One unit that never wraps: a long name is cut with an ellipsis, whole in the title. */}
                <div className="site-nav__session">
                  <span className="welcome" title={user.username}>
                    Welcome, {user.username}
                  </span>
                  <Form method="post" action="/logout" className="logout-form">
                    <button type="submit" className="button button--on-dark">
                      Logout
                    </button>
                  </Form>
                </div>
              </>
            ) : (
              <ul className="site-nav__list">
                <li>
                  <Link to="/login" aria-current={current('/login')}>
                    Login
                  </Link>
                </li>
                <li>
                  <Link to="/regist" aria-current={current('/regist')} className="nav-cta">
                    Register
                  </Link>
                </li>
              </ul>
            )}
          </div>
        </nav>
      </div>
    </header>
  );
}
