/**
 * OJS's addresses (issue 26): what an old link into a journal that moved here asks for. OJS writes
 * `/index.php/{journal}/{page}/{op}/{args…}`, or without `index.php` when its restful URLs are on; links from
 * Google Scholar, Crossref and citing papers use both. `legacyRequest` reads one; the redirects
 * (server/ojs/redirects.ts) find what it became here.
 */

export type LegacyTarget =
  | { kind: 'home' }
  | { kind: 'article'; id: string; galley: string | null; file: string | null; download: boolean }
  | { kind: 'issue'; id: string }
  | { kind: 'current-issue' }
  | { kind: 'archive' }
  | { kind: 'oai' }
  | { kind: 'search'; query: string }
  | { kind: 'about' };

export type LegacyRequest = { oldPath: string; target: LegacyTarget };

const SEGMENT = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The old journal path and what is asked for, or null when the address is not an OJS one (the request then
 * goes on as any other). `knownPath` says whether a first segment is a journal path the site kept from OJS:
 * without `index.php`, only those are read (a journal's own `/article/…` stays its own).
 */
export function legacyRequest(
  pathname: string,
  search: URLSearchParams,
  knownPath: (path: string) => boolean,
): LegacyRequest | null {
  let parts: string[];
  try {
    parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
  let index = false;
  if (parts[0] === 'index.php') {
    index = true;
    parts = parts.slice(1);
  }
  const [oldPath, page = 'index', op = 'index', ...args] = parts;
  if (!oldPath || !SEGMENT.test(oldPath)) return null;
  const path = oldPath.toLowerCase();
  if (!knownPath(path)) return null;
  if (!index && parts.length === 1) return null; // `/{path}` alone is the journal's own address here, if any
  const target = targetOf(page, op, args, search);
  return target ? { oldPath: path, target } : null;
}

function targetOf(page: string, op: string, args: string[], search: URLSearchParams): LegacyTarget | null {
  const arg = (i: number) => (args[i] && SEGMENT.test(args[i]) ? args[i] : null);
  switch (page) {
    case 'index':
      return { kind: 'home' };
    case 'article': {
      if (op !== 'view' && op !== 'download' && op !== 'viewFile') return null;
      const id = arg(0);
      if (!id) return null;
      return { kind: 'article', id, galley: arg(1), file: arg(2), download: op !== 'view' };
    }
    case 'issue':
      if (op === 'archive') return { kind: 'archive' };
      if (op === 'current') return { kind: 'current-issue' };
      // `/issue/view/{id}/{galley}`: an issue's own galley (a whole-issue PDF) is the issue here.
      if (op === 'view' && arg(0)) return { kind: 'issue', id: arg(0)! };
      return op === 'index' ? { kind: 'archive' } : null;
    case 'oai':
      return { kind: 'oai' };
    case 'search':
      return { kind: 'search', query: search.get('query') ?? '' };
    case 'about':
      return { kind: 'about' };
    default:
      return null;
  }
}

/**
 * An OAI-PMH request of the old endpoint, in the new one's terms: its record identifiers
 * (`oai:{host}:article/{id}`) name the old ids, so they are translated (`articleOf` gives the new id, or
 * null) and the rest is passed on as it was.
 */
export function oaiQuery(
  search: URLSearchParams,
  articleOf: (ojsId: string) => number | null,
  identifierOf: (articleId: number) => string,
): URLSearchParams {
  const out = new URLSearchParams(search);
  const id = search.get('identifier');
  const m = id ? /^oai:[^:]+:article\/([A-Za-z0-9._-]+)$/.exec(id) : null;
  if (m) {
    const article = articleOf(m[1]);
    if (article !== null) out.set('identifier', identifierOf(article));
  }
  return out;
}
