import type { HeadersFunction } from 'react-router';

/**
 * How long a browser or a CDN may reuse a reader page (decision 0018): a minute fresh, then ten more while
 * it fetches the new one. The server keeps its own copy and drops it the moment what it shows changes.
 */
export const PUBLIC_PAGE_CACHE = 'public, max-age=60, stale-while-revalidate=600';

/**
 * The `headers` of a page that is the same for every signed-out reader (given its address): the page
 * bridge keeps it (server/http/ssr.ts) and browsers and CDNs may reuse it. Signed-in readers get their own
 * copy, never shared (`private, no-store`, decision 0015). Only for pages whose loaders read nothing but the
 * address, the account and services that name what they read (server/cache/dependencies.ts).
 */
export const publicPage: HeadersFunction = () => ({ 'Cache-Control': PUBLIC_PAGE_CACHE });
