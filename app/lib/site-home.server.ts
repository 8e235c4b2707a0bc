import type { AppLoadContext } from 'react-router';
import { logoHref } from '../../common/journal.ts';
import { can } from '../../common/roles.ts';
import { JOURNALS, dependsOn } from '../../server/cache/dependencies.ts';
import { FIRST_JOURNAL, withJournal } from '../../server/db/scope.ts';

/** What a journal's card on the site's home says: the journal's settings, cut to a line or two. */
export interface SiteJournal {
  id: number;
  title: string;
  /** The journal's address (its domain, or the site's address and its path). */
  href: string;
  issn: string | null;
  /** Its logo's address (decision 0062), or null. */
  logo: string | null;
  description: string;
  closed: boolean;
  /** The signed-in account's role there, if it has one (decision 0054): "editor", "author, pending approval". */
  yourRole: string | null;
  /** The journal's editorial dashboard, for its editors and admins. */
  dashboardHref: string | null;
}

export interface SiteChrome {
  name: string;
  publisher: string;
}

/** How much of a journal's description its card shows. */
const SHORT_DESCRIPTION = 280;

/** A description cut at a word, with an ellipsis, when it is longer than a card shows. */
export function shortDescription(text: string, max = SHORT_DESCRIPTION): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…`;
}

/**
 * The site's name and publisher (decision 0056): `SITE_NAME` and `SITE_PUBLISHER` in the config, each the
 * first journal's publisher when unset (the publisher a one-journal installation has always named).
 */
export async function siteChrome(context: AppLoadContext): Promise<SiteChrome> {
  const { config, settings } = context.services;
  if (config.SITE_NAME && config.SITE_PUBLISHER)
    return { name: config.SITE_NAME, publisher: config.SITE_PUBLISHER };
  const first = await withJournal(FIRST_JOURNAL, () => settings.journal());
  return { name: config.SITE_NAME ?? first.publisher, publisher: config.SITE_PUBLISHER ?? first.publisher };
}

/**
 * The site's home when no journal is at its root: its name, its publisher, and its journals (archived ones
 * left out), each with its title, ISSN, a short description from its settings, and its address; to a
 * signed-in account, its role in each (where signing in on the site's host lands), and its dashboards.
 */
export async function siteHome(
  context: AppLoadContext,
): Promise<{ site: SiteChrome; journals: SiteJournal[] }> {
  const { services } = context;
  dependsOn(JOURNALS);
  const auth = context.auth;
  const [site, every, memberships] = await Promise.all([
    siteChrome(context),
    services.settings.ofEveryJournal(),
    auth ? services.accounts.membershipsEverywhere(auth.user.id) : [],
  ]);
  const roles = new Map(memberships.map((m) => [m.journalId, m]));
  const journals = services.journals
    .list()
    .filter((journal) => journal.status !== 'archived')
    .map((journal): SiteJournal => {
      const own = every.get(journal.id);
      const mine = roles.get(journal.id);
      const href = `${services.journals.baseUrl(journal)}/`;
      const editorial = can('editorial', mine ? { role: mine.role, status: mine.status } : null);
      return {
        id: journal.id,
        title: own?.name ?? journal.title,
        href,
        issn: own?.issnOnline || null,
        logo: own?.logo ? logoHref(services.journals.baseUrl(journal), own.logo) : null,
        description: own ? shortDescription(own.description) : '',
        closed: journal.status === 'closed',
        yourRole: mine ? (mine.status === 'approved' ? mine.role : `${mine.role}, ${mine.status}`) : null,
        dashboardHref: editorial ? `${href}editor-dashboard` : null,
      };
    })
    .sort((a, b) => a.title.localeCompare(b.title));
  return { site, journals };
}
