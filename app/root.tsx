import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useRouteLoaderData,
} from 'react-router';
import { logoHref } from '../common/journal.ts';
import { REVIEWS, dependsOn, validUntil } from '../server/cache/dependencies.ts';
import { feedLinks } from '../server/discovery/links.ts';
import type { Route } from './+types/root';
import { NotFound } from './components/NotFound.tsx';
import { SiteFooter } from './components/SiteFooter.tsx';
import { SiteHeader } from './components/SiteHeader.tsx';
import { pageTitle } from './lib/meta.ts';
import { siteChrome } from './lib/site-home.server.ts';
import { BEFORE_MODULES_SCRIPT, useNonce } from './lib/nonce.ts';
import { useSessionExpiry } from './lib/use-session-expiry.ts';
import appCss from './styles/app.css?url';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: appCss },
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

/**
 * The chrome's data: the journal's name and publisher (or, on the site's own pages when no journal is at its
 * root, the site's: decision 0056), and who is signed in (per the server, right now).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const journal = context.journal ? await context.services.settings.journal() : null;
  const site = context.journal ? null : await siteChrome(context);
  const auth = context.auth;
  const now = context.services.clock.date();
  // A kept page (decision 0018) shows this year until the next one; one kept for a signed-in reader
  // carries the server's time for the session's expiry, so it is made again after a minute.
  validUntil(new Date(now.getFullYear() + 1, 0, 1));
  if (auth) validUntil(now.getTime() + 60_000);
  // The header's "Reviews (n)", for every reviewer of this journal: a signed-in reader's kept pages are
  // dropped when an assignment or a reviewer profile changes.
  if (auth && journal) dependsOn(REVIEWS);
  // The header's "Journals" link, for the site's admin (decision 0055).
  const [reviewing, siteAdmin] = auth
    ? await Promise.all([
        journal ? context.services.review.reviewing(auth.user.id) : null,
        context.services.journalAdmin.isSiteAdmin(auth.user.id),
      ])
    : [null, false];
  return {
    journal: journal
      ? {
          name: journal.name,
          issnOnline: journal.issnOnline,
          publisher: journal.publisher,
          publisherAddress: journal.publisherAddress,
          license: journal.license,
          // Its own logo, under the address the page was reached at (decision 0062); the site's mark otherwise.
          logo: journal.logo
            ? {
                href: logoHref(context.journal?.prefix ?? '', journal.logo),
                width: journal.logo.width,
                height: journal.logo.height,
              }
            : null,
        }
      : null,
    site,
    user: auth
      ? {
          username: auth.user.username,
          role: auth.user.role,
          status: auth.user.status,
          expiresAt: auth.expiresAt,
          // Reviewers' open assignments (0 or more), or null for an account that does not review.
          reviews: reviewing?.reviewer ? reviewing.open : null,
          siteAdmin,
        }
      : null,
    year: now.getFullYear(),
    serverTime: now.getTime(),
    // The latest-articles feeds, announced on every page of a journal (issue pages add their own, see volumes.tsx).
    feeds: journal ? feedLinks(context.services.journalUrl(), { journalName: journal.name }) : [],
  };
}

/**
 * Every navigation asks the server who is signed in, so the header never shows a session the server has
 * ended (expired, logged out in another tab, suspended). The request is made for the new page anyway.
 */
export function shouldRevalidate() {
  return true;
}

export const meta: Route.MetaFunction = ({ matches, error }) => [
  { title: pageTitle(matches, error ? 'Error' : undefined) },
];

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  // The Content-Security-Policy nonce of this response (server only): scripts without it do not run.
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <script
          nonce={nonce}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours (app/lib/nonce.ts).
          dangerouslySetInnerHTML={{ __html: BEFORE_MODULES_SCRIPT }}
        />
        <Meta />
        {/* Stylesheets need no nonce (style-src 'self'); '' keeps React Router from adding one, which would
            differ between the server's HTML and the browser's render. */}
        <Links nonce="" />
        {data?.feeds.map((f) => (
          <link key={f.href} rel={f.rel} type={f.type} title={f.title} href={f.href} />
        ))}
      </head>
      <body>
        <a className="skip-link" href="#main-content">
          Skip to main content
        </a>
        <SiteHeader
          journalName={data?.journal?.name ?? data?.site?.name}
          issn={data?.journal?.issnOnline}
          logo={data?.journal?.logo ?? null}
          site={Boolean(data?.site)}
          user={data?.user ?? null}
        />
        <main id="main-content" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter
          journal={data?.journal ?? undefined}
          site={data?.site ?? undefined}
          year={data?.year ?? new Date().getFullYear()}
        />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  useSessionExpiry(loaderData.user?.expiresAt ?? null, loaderData.serverTime);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;

  let heading = 'Something went wrong';
  let detail = 'An unexpected error occurred on our side. Please try again in a moment.';
  let stack: string | undefined;
  if (isRouteErrorResponse(error)) {
    heading = error.status >= 500 ? 'Something went wrong' : 'This request could not be completed';
    detail =
      typeof error.data === 'string' && error.data ? error.data : `${error.status} ${error.statusText}`;
  } else if (import.meta.env.DEV && error instanceof Error) {
    detail = error.message;
    stack = error.stack;
  }
  return (
    <div className="page page--narrow notice-page">
      <h1>{heading}</h1>
      <p className="lead">{detail}</p>
      {stack ? (
        <pre className="error-stack">
          <code>{stack}</code>
        </pre>
      ) : null}
      <p>
        <Link to="/" reloadDocument className="button">
          Go to the home page
        </Link>
      </p>
    </div>
  );
}
