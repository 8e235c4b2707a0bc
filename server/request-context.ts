import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Scope } from './db/scope.ts';

/**
 * Which request a piece of work is for, carried through everything that request causes (decision 0030):
 * its services' and mail's log lines, and the jobs it enqueues (kept in `jobs.request_id`, restored when
 * the job runs, in whichever process). Every log line written inside it says `reqId`.
 */
export interface RequestContext {
  /** Absent for work no request caused (a recurring job, start-up). */
  requestId?: string;
  /** The journal (or the whole site) the work is for: server/db/scope.ts. */
  scope?: Scope;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The request the current work is for, if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}

/** Runs `fn` outside any request: timers and loops started there serve everyone, not the request at hand. */
export function outsideRequests<T>(fn: () => T): T {
  return requestContext.exit(fn);
}

/** An incoming `X-Request-Id` we keep: a plain token (no spaces or control characters), at most 128 long. */
const SANE_ID = /^[A-Za-z0-9][A-Za-z0-9._:@+=/-]{0,127}$/;

/**
 * The request's id: the `X-Request-Id` a proxy or client sent, when it is a sane token (so one id follows the
 * request from the load balancer to our logs), else a new UUID. Fastify's `genReqId`.
 */
export function requestIdOf(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  return typeof sent === 'string' && SANE_ID.test(sent) ? sent : randomUUID();
}

/** Marks the loggers Fastify makes per request: they carry `reqId` already, as a binding. */
const PER_REQUEST = Symbol('colophon.perRequestLogger');

/** Fastify's `childLoggerFactory`: the request's logger, marked so the mixin does not repeat its id. */
export function requestLogger<L extends { child(bindings: object, opts?: object): L }>(
  logger: L,
  bindings: object,
  opts: object,
): L {
  const child = logger.child(bindings, opts);
  (child as Record<symbol, unknown>)[PER_REQUEST] = true;
  return child;
}

/** pino's `mixin`: every line logged inside a request's work (a job it caused too) names the request. */
export function logMixin(_obj: object, _level: number, logger?: object): object {
  if (logger && (logger as Record<symbol, unknown>)[PER_REQUEST]) return {};
  const requestId = currentRequestId();
  return requestId ? { reqId: requestId } : {};
}
