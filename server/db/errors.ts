/** The PostgreSQL error code of a failed query, whether it came through node-postgres or PGlite. */
export function pgErrorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The name of the constraint a query broke, where the driver tells it. */
export function pgConstraint(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const c = (e as { constraint?: unknown }).constraint;
    if (typeof c === 'string') return c;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown) => pgErrorCode(err) === '23505';

/**
 * Connection states of node-postgres that mean the connection went away under the query (a server restart,
 * a fail-over, pg_terminate_backend), not that the query was wrong.
 */
const CONNECTION_LOST = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
];
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

/**
 * The database is briefly unavailable, nobody's mistake (answered 503 with Retry-After): PostgreSQL's
 * "insufficient resources" class (53: disk full, out of memory, too many connections), a connection exception
 * (08), the server ending connections or starting up or shutting down (57P01-57P03: a restart, a fail-over),
 * or a connection that was lost or cannot be made. Looked for through the causes the ORM wraps it in.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = String((e as { code?: unknown }).code ?? '');
    if (/^(53...|08...|57P0[123])$/.test(code) || SOCKET_ERRORS.has(code)) return true;
    const message = String((e as { message?: unknown }).message ?? '');
    if (CONNECTION_LOST.some((m) => message.startsWith(m))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
