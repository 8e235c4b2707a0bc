/**
 * One request with exactly the given headers, and the answer's bytes as they came over the wire (no
 * decompression, unlike fetch): what the reference server replays.
 */
import http from 'node:http';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export function rawGet(url: string, headers: Record<string, string>): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`no answer from ${url} within 60 s`)));
  });
}

/** A browser's request headers (Chromium on Linux), compression included. */
export const BROWSER_HEADERS: Record<string, string> = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'accept-language': 'en-GB,en;q=0.9',
  'accept-encoding': 'gzip, deflate, br',
};

/** A script's request for JSON, compression accepted. */
export const JSON_HEADERS: Record<string, string> = {
  'user-agent': BROWSER_HEADERS['user-agent'],
  accept: 'application/json',
  'accept-encoding': 'gzip, deflate, br',
};
