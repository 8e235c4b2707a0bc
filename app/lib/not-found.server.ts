import { asClientError } from './forms.server.ts';
import { notFound } from './route-params.ts';

/** What a service answers, or the 404 page when it says there is no such thing (a domain `notFound`). */
export async function orNotFound<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    if (asClientError(err)?.status === 404) notFound();
    throw err;
  }
}
