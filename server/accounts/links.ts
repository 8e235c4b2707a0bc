import { createHash, randomBytes } from 'node:crypto';
import type { LinkProblem } from '../../common/account.ts';

/**
 * The one-time secrets of e-mailed links (a forgotten password, a new e-mail address). The database keeps
 * only their SHA-256: the secret has 256 random bits, so a plain hash is enough (no salt or slow hash needed
 * against guessing), and a copy of the database opens nothing.
 */
export function newLinkSecret(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashLinkSecret(token) };
}

export function hashLinkSecret(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Why a stored link can no longer be used (never issued, used, expired), or null while it can. */
export function linkProblem(
  row: { usedAt: Date | null; expiresAt: Date } | undefined,
  now: number,
): LinkProblem | null {
  if (!row) return 'unknown';
  if (row.usedAt) return 'used';
  if (row.expiresAt.getTime() <= now) return 'expired';
  return null;
}

/** `?token=…` values in an address, hidden: the request log must never hold a working link. */
export function redactLinkSecrets(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[hidden]');
}

/**
 * The request log's view of a request (Fastify's own fields), with link secrets hidden. Given to the
 * logger as its `req` serializer in server/main.ts.
 */
export function logRequest(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactLinkSecrets(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
