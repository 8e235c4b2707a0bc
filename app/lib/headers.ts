/** Passes an action's Retry-After (a rate-limited form post) on to the page's response. */
export function retryAfterHeaders({ actionHeaders }: { actionHeaders: Headers }): HeadersInit {
  const retryAfter = actionHeaders.get('retry-after');
  return retryAfter ? { 'Retry-After': retryAfter } : {};
}
