import { asc } from 'drizzle-orm';
import type { JournalStatus } from '../../common/journals.ts';
import type { Db } from '../db/client.ts';
import { type LegacyTarget, legacyRequest } from '../ojs/addresses.ts';
import { legacyPaths } from '../ojs/tables.ts';
import { journalAliases, journals } from './tables.ts';

/** A journal as the request router needs it, kept in memory (a handful of rows for the whole site). */
export interface JournalEntry {
  id: number;
  title: string;
  /** Its path on the site (`/{path}/…`), or null. */
  path: string | null;
  /** Its own host, or null. */
  domain: string | null;
  status: JournalStatus;
}

/**
 * An old OJS address of a journal (issue 26, decision 0067): what it asked for, and its query. Where it leads
 * needs the journal's own records (server/ojs/redirects.ts), read in its scope before the request is routed;
 * an old id it does not know goes on as the address it was, to the journal's not-found page.
 */
export type LegacyAddress = { target: LegacyTarget; search: URLSearchParams };

/** Where a request goes: a journal (with the path prefix it was reached under), a 301, or the site itself. */
export type Destination =
  | { kind: 'journal'; journal: JournalEntry; prefix: string; url: string; legacy?: LegacyAddress }
  | { kind: 'redirect'; location: string }
  | { kind: 'site'; url: string };

/** The host of a `Host` header: lower-case, without the port (IPv6 in brackets kept as it is). */
export function hostName(host: string | undefined): string {
  if (!host) return '';
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.indexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

/** The first segment of a path (`/a/b?x` → `a`), lower-case; '' for `/`. */
function firstSegment(url: string): { segment: string; rest: string } {
  const end = url.length;
  let i = 1;
  while (i < end) {
    const c = url.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break;
    i++;
  }
  return { segment: url.slice(1, i).toLowerCase(), rest: url.slice(i) };
}

const ALL_TARGETS: ReadonlySet<LegacyTarget['kind']> = new Set([
  'home',
  'article',
  'issue',
  'current-issue',
  'archive',
  'oai',
  'search',
  'about',
]);
/** OJS's pages that are none of ours, for a journal whose path here is the path it had on OJS. */
const NOT_OWN_PAGES: ReadonlySet<LegacyTarget['kind']> = new Set([
  'home',
  'article',
  'issue',
  'current-issue',
  'archive',
]);

/**
 * The journals of the site and the addresses each answers at (decision 0053): read once, then again after
 * any change to them (the change feed's `journals` name, in every process). Resolving a request is a map
 * lookup or two: it runs before every request, kept pages included.
 */
export class JournalDirectory {
  private byId = new Map<number, JournalEntry>();
  private byPath = new Map<string, JournalEntry>();
  private byDomain = new Map<string, JournalEntry>();
  private pathAliases = new Map<string, JournalEntry>();
  private domainAliases = new Map<string, JournalEntry>();
  /** Journals' paths on the OJS sites they moved from (legacy_paths), lower-case. */
  private legacyPaths = new Map<string, JournalEntry>();
  private root: JournalEntry | null = null;
  private loaded = false;

  constructor(
    private readonly db: Db,
    /** The site's own address (PUBLIC_URL): protocol, host and port the journals' addresses are made on. */
    private readonly siteUrl: string,
  ) {}

  /** Reads the journals (at start-up, and after a change to them). */
  async load(): Promise<void> {
    const rows = await this.db.select().from(journals).orderBy(asc(journals.id));
    const aliases = await this.db.select().from(journalAliases);
    const legacy = await this.db.select().from(legacyPaths);
    this.install(rows, aliases, legacy);
  }

  private install(
    rows: (typeof journals.$inferSelect)[],
    aliases: (typeof journalAliases.$inferSelect)[],
    legacy: (typeof legacyPaths.$inferSelect)[],
  ): void {
    const byId = new Map<number, JournalEntry>();
    const byPath = new Map<string, JournalEntry>();
    const byDomain = new Map<string, JournalEntry>();
    let root: JournalEntry | null = null;
    for (const row of rows) {
      const entry: JournalEntry = {
        id: row.id,
        title: row.title,
        path: row.path?.toLowerCase() ?? null,
        domain: row.domain?.toLowerCase() ?? null,
        status: row.status,
      };
      byId.set(entry.id, entry);
      if (entry.path) byPath.set(entry.path, entry);
      if (entry.domain) byDomain.set(entry.domain, entry);
      if (!entry.path && !entry.domain && !root) root = entry;
    }
    const pathAliases = new Map<string, JournalEntry>();
    const domainAliases = new Map<string, JournalEntry>();
    for (const alias of aliases) {
      const target = byId.get(alias.journalId);
      if (!target) continue;
      const value = alias.value.toLowerCase();
      if (alias.kind === 'path' && !byPath.has(value)) pathAliases.set(value, target);
      if (alias.kind === 'domain' && !byDomain.has(value)) domainAliases.set(value, target);
    }
    const legacyByPath = new Map<string, JournalEntry>();
    for (const row of legacy) {
      const target = byId.get(row.journalId);
      if (target) legacyByPath.set(row.path.toLowerCase(), target);
    }
    this.legacyPaths = legacyByPath;
    this.byId = byId;
    this.byPath = byPath;
    this.byDomain = byDomain;
    this.pathAliases = pathAliases;
    this.domainAliases = domainAliases;
    this.root = root;
    this.loaded = true;
  }

  /** Every journal, in the order they were made. */
  list(): JournalEntry[] {
    return [...this.byId.values()];
  }

  get(id: number): JournalEntry | undefined {
    return this.byId.get(id);
  }

  /** The journal at the site's root, if one is (a one-journal installation's). */
  rootJournal(): JournalEntry | null {
    return this.root;
  }

  /**
   * Where a request for `url` (path and query) on `host` goes. A journal's own domain serves it at the root;
   * on the site's host, `/{path}/…` serves the journal at that path, and anything else the journal at the root
   * (or the site's own pages when no journal is there). Old paths and domains answer a 301 to the same page
   * at the journal's address now.
   */
  resolve(host: string | undefined, url: string): Destination {
    if (!this.loaded) return { kind: 'journal', journal: this.fallback(), prefix: '', url };
    const name = hostName(host);
    const { segment, rest } = firstSegment(url);
    // An OJS address under `index.php` is nothing of ours, on any host: read before anything else.
    if (segment === 'index.php' && this.legacyPaths.size) {
      const legacy = this.legacy(url, ALL_TARGETS);
      if (legacy) return legacy;
    }
    if (name) {
      const own = this.byDomain.get(name);
      if (own)
        return (
          (this.legacyPaths.has(segment) ? this.legacy(url, ALL_TARGETS) : null) ?? {
            kind: 'journal',
            journal: own,
            prefix: '',
            url,
          }
        );
      const moved = this.domainAliases.get(name);
      if (moved) return { kind: 'redirect', location: this.baseUrl(moved) + (url === '/' ? '/' : url) };
    }
    if (segment && (this.byPath.size || this.pathAliases.size || this.legacyPaths.size)) {
      const journal = this.byPath.get(segment);
      if (journal) {
        // A journal's own path wins; when it is also the path it had on OJS, only OJS's addresses that are
        // no page of ours are read as old ones (`/{path}/article/view/12`, not `/{path}/oai` or `/about`).
        if (this.legacyPaths.get(segment) === journal) {
          const legacy = this.legacy(url, NOT_OWN_PAGES);
          if (legacy) return legacy;
        }
        return { kind: 'journal', journal, prefix: `/${journal.path}`, url: rest || '/' };
      }
      const moved = this.pathAliases.get(segment);
      if (moved) return { kind: 'redirect', location: this.baseUrl(moved) + (rest || '/') };
      const legacy = this.legacyPaths.has(segment) ? this.legacy(url, ALL_TARGETS, true) : null;
      if (legacy) return legacy;
    }
    if (this.root) return { kind: 'journal', journal: this.root, prefix: '', url };
    return { kind: 'site', url };
  }

  /**
   * An old OJS address (`/index.php/{old}/…` or `/{old}/…`) of a journal that moved here, as a journal's
   * destination carrying what it asked for: `url` stays the address as it was, so that an old id the journal
   * does not know reaches its not-found page. `bare`: `/{old}` alone is the journal's home too.
   */
  private legacy(url: string, kinds: ReadonlySet<LegacyTarget['kind']>, bare = false): Destination | null {
    if (!this.legacyPaths.size) return null;
    const query = url.indexOf('?');
    const pathname = query < 0 ? url : url.slice(0, query);
    const search = new URLSearchParams(query < 0 ? '' : url.slice(query + 1));
    const read = legacyRequest(pathname, search, (p) => this.legacyPaths.has(p));
    const target: LegacyTarget | null =
      read?.target ?? (bare && /^\/[^/]+\/?$/.test(pathname) ? { kind: 'home' } : null);
    if (!target || !kinds.has(target.kind)) return null;
    const oldPath = read?.oldPath ?? firstSegment(pathname).segment;
    const journal = this.legacyPaths.get(oldPath);
    if (!journal) return null;
    const prefix = journal.path && !journal.domain ? `/${journal.path}` : '';
    return { kind: 'journal', journal, prefix, url, legacy: { target, search } };
  }

  /** A journal's address, without a trailing slash: its domain, or the site's address and its path. */
  baseUrl(journal: JournalEntry | number): string {
    const entry = typeof journal === 'number' ? this.byId.get(journal) : journal;
    if (!entry) return this.siteUrl;
    if (entry.domain) {
      const site = new URL(this.siteUrl);
      return `${site.protocol}//${entry.domain}${site.port ? `:${site.port}` : ''}`;
    }
    return entry.path ? `${this.siteUrl}/${entry.path}` : this.siteUrl;
  }

  /** Before the first load (tests that build an app without a database's journals): the first journal. */
  private fallback(): JournalEntry {
    return this.byId.get(1) ?? { id: 1, title: '', path: null, domain: null, status: 'open' };
  }
}
