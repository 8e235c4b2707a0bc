import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake DOAJ article API on loopback (decision 0064): `POST /api/articles?api_key=…` with the article's JSON
 * → 201 `{ id, location, status }`; `PUT /api/articles/{id}?api_key=…` → 204; a wrong key → 401.
 */
export interface FakeDoaj {
  /** The API's base (…/api). */
  endpoint: string;
  received: { method: string; id: string | null; body: unknown }[];
  /** The next answers' statuses (201/204 when none is left). */
  script(...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startFakeDoaj(apiKey = 'doaj-key'): Promise<FakeDoaj> {
  const received: FakeDoaj['received'] = [];
  const queue: number[] = [];
  let next = 1;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {}
      const m = /^\/api\/articles(?:\/([\w-]+))?$/.exec(url.pathname);
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (!m) return json(404, { error: 'Not found' });
      received.push({ method: req.method ?? '', id: m[1] ?? null, body });
      const scripted = queue.shift();
      if (scripted && scripted >= 500) return json(scripted, { error: 'Server error' });
      if (url.searchParams.get('api_key') !== apiKey || scripted === 401)
        return json(401, { error: 'An API key is required to access this.' });
      const bib = (body as { bibjson?: { title?: string } } | null)?.bibjson;
      if (!bib?.title) return json(400, { error: 'Article must have a title' });
      if (req.method === 'PUT' && m[1]) {
        res.writeHead(204);
        return res.end();
      }
      const id = `doaj${next++}`;
      return json(201, { id, location: `/api/articles/${id}`, status: 'created' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/api`,
    received,
    script: (...s) => queue.push(...s),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
