import { data } from 'react-router';

const MAX_ID = 2_147_483_647;

/** A database id from a URL segment ("12"), or null: no signs, no decimals, in the integer column's range. */
export function parseId(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/**
 * The 404 page (the root error boundary shows it), with the status a crawler needs to see: the one way a loader
 * or action says "no such thing" (`orNotFound` in `not-found.server.ts` turns a service's not-found into it).
 */
export function notFound(): never {
  throw data('Not found', { status: 404 });
}

/** The address of one issue's table of contents (docs/decisions/0006-volumes-urls.md). */
export function issueHref(volume: number, issue?: number): string {
  return issue === undefined ? `/volumes?volume=${volume}` : `/volumes?volume=${volume}&issue=${issue}`;
}

/** The id in a route's URL segment, or the 404 page. */
export function idParam(value: string | undefined): number {
  return parseId(value) ?? notFound();
}
