import type { DoajArticle } from '../discovery/doaj.ts';

/**
 * DOAJ's article API (decision 0064): `POST {base}/articles?api_key=…` with the article's JSON (201 with its
 * id), `PUT {base}/articles/{id}?api_key=…` to update it. The key is in the address, as DOAJ asks: never in
 * a message we keep or a log line.
 */

export type DoajOutcome = { kind: 'done'; id: string | null } | { kind: 'refused'; message: string };

export class TransientDoajError extends Error {}

export class DoajClient {
  constructor(private readonly opts: { timeoutMs?: number } = {}) {}

  async upload(
    base: string,
    apiKey: string,
    article: DoajArticle,
    existingId: string | null,
  ): Promise<DoajOutcome> {
    const root = base.replace(/\/+$/, '');
    const url = existingId
      ? `${root}/articles/${encodeURIComponent(existingId)}?api_key=${encodeURIComponent(apiKey)}`
      : `${root}/articles?api_key=${encodeURIComponent(apiKey)}`;
    let res: Response;
    let body: string;
    try {
      res = await fetch(url, {
        method: existingId ? 'PUT' : 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(article),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 60_000),
        redirect: 'error',
      });
      body = await res.text();
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      throw new TransientDoajError(
        e.name === 'TimeoutError'
          ? 'DOAJ did not answer in time'
          : `DOAJ could not be reached (${e.cause?.code ?? 'network error'})`,
      );
    }
    if (res.status >= 500 || res.status === 429)
      throw new TransientDoajError(`DOAJ answered HTTP ${res.status}; trying again later`);
    if (res.status === 401)
      return { kind: 'refused', message: 'DOAJ refused the API key: check it in the DOI settings.' };
    if (res.status >= 400) {
      let msg = '';
      try {
        const parsed = JSON.parse(body) as { error?: string };
        msg = parsed.error ?? '';
      } catch {}
      return {
        kind: 'refused',
        message: `DOAJ refused the article (HTTP ${res.status})${msg ? `: ${msg}` : '.'}`,
      };
    }
    let id: string | null = existingId;
    try {
      id = (JSON.parse(body) as { id?: string }).id ?? existingId;
    } catch {}
    return { kind: 'done', id };
  }
}
