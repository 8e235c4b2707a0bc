import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Services } from '../services.ts';
import type { Api } from './api.ts';

/**
 * The process's own state for load balancers and orchestrators (decision 0030): draining after SIGTERM, and
 * the requests it is answering. `begin()` is called by the shutdown in server/main.ts; from then on /readyz
 * answers 503, so a balancer that asks it stops sending requests here, and every answer (those under way
 * too) carries `Connection: close`, so clients and balancers leave this process. What still arrives before
 * the balancer notices is answered as usual (a refusal would be an error for the reader, the listener closing
 * one the balancer retries elsewhere). `before()` resolves when the requests taken before the drain began
 * have ended: then server/main.ts closes the listener.
 */
export class Drain {
  private drainingSince: number | null = null;
  /** The answers under way (the probes not counted). */
  private readonly answers = new Set<ServerResponse>();
  /** Waiting for the answers under way when the drain began. */
  private waiting: { left: Set<ServerResponse>; done: () => void }[] = [];

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  /** Requests being answered now (the probes not counted). */
  get requests(): number {
    return this.answers.size;
  }

  begin(): void {
    this.drainingSince ??= Date.now();
    // Answers already under way end their connection too (`Connection: close`), whoever writes their head.
    for (const res of this.answers) if (!res.headersSent) res.shouldKeepAlive = false;
  }

  /** Resolves once every request being answered now has ended (later ones are not waited for). */
  before(): Promise<void> {
    if (this.answers.size === 0) return Promise.resolve();
    return new Promise((done) => this.waiting.push({ left: new Set(this.answers), done }));
  }

  /**
   * The onRequest hook: counts the request until its answer ends; while draining, closes its connection.
   * Synchronous, and one listener shared by every answer: a kept page pays a set insertion for it.
   */
  install(app: FastifyInstance): void {
    const drain = this;
    // 'close' comes once per answer: sent in full, or cut off by the client.
    function ended(this: ServerResponse) {
      drain.answers.delete(this);
      if (drain.waiting.length) drain.ended(this);
    }
    app.addHook('onRequest', (request, reply, done) => {
      const res = reply.raw;
      // Set on the raw answer, so that the pages' hijacked answers close their connection too.
      if (this.draining) res.shouldKeepAlive = false;
      if (!isProbe(request.url)) {
        this.answers.add(res);
        res.on('close', ended);
      }
      done();
    });
  }

  private ended(res: ServerResponse): void {
    this.waiting = this.waiting.filter((w) => {
      w.left.delete(res);
      if (w.left.size) return true;
      w.done();
      return false;
    });
  }
}

const PROBES = new Set(['/healthz', '/readyz']);

function isProbe(url: string): boolean {
  if (url.charCodeAt(1) !== 104 && url.charCodeAt(1) !== 114) return false; // neither /h… nor /r…
  const query = url.indexOf('?');
  return PROBES.has(query < 0 ? url : url.slice(0, query));
}

const healthResponse = z.object({ status: z.literal('ok') });
const check = z.enum(['ok', 'failing']);
const readyResponse = z.object({
  status: z.enum(['ok', 'draining', 'unavailable']),
  database: check,
  files: check,
});

/** How long /readyz waits for the database and the file store before calling them failing. */
const CHECK_TIMEOUT_MS = 3000;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * GET /healthz: the process answers (no database, nothing else: a liveness probe that restarts a process
 * only for its own sake). GET /readyz: the database answers a query and the file store its check; 503 when
 * either does not (within 3 s), or while draining. Never cached, never rate limited.
 */
export function healthRoutes(api: Api, services: Services) {
  const noStore = { 'cache-control': 'no-store' };
  let failing = '';
  api.route({
    method: 'GET',
    path: '/healthz',
    tag: 'Operations',
    summary: 'Liveness: the process is running and answering (the database is not asked)',
    auth: 'none',
    responses: { 200: { description: 'Alive', schema: healthResponse } },
    handler: async ({ reply }) => {
      reply.headers(noStore);
      return { status: 'ok' as const };
    },
  });
  api.route({
    method: 'GET',
    path: '/readyz',
    tag: 'Operations',
    summary: 'Readiness: the database and the file store answer, and the process is not shutting down',
    description:
      'A load balancer sends requests only to processes answering 200. 503 while the process drains after SIGTERM (it answers the requests it has, then exits), or when the database or the file store does not answer within 3 seconds.',
    auth: 'none',
    responses: {
      200: { description: 'Ready', schema: readyResponse },
      503: { description: 'Draining, or the database or file store is not answering', schema: readyResponse },
    },
    handler: async ({ reply }) => {
      reply.headers(noStore);
      const probe = async (what: string, run: () => Promise<unknown>) => {
        try {
          await within(run(), CHECK_TIMEOUT_MS, what);
          return { ok: true, what, err: null };
        } catch (err) {
          return { ok: false, what, err };
        }
      };
      const [db, files] = await Promise.all([
        probe('the database', () => services.db.execute(sql`select 1`)),
        probe('the file store', () => services.files.blobs.check()),
      ]);
      // Said in the log when it starts and stops failing, not at every probe.
      const now = [db, files]
        .filter((c) => !c.ok)
        .map((c) => c.what)
        .join(' and ');
      if (now !== failing) {
        if (now) services.log.warn({ err: db.err ?? files.err }, `readyz: ${now} not answering: not ready`);
        else services.log.info({}, 'readyz: the database and the file store answer again');
        failing = now;
      }
      const status = services.drain.draining ? 'draining' : db.ok && files.ok ? 'ok' : 'unavailable';
      if (status !== 'ok') reply.code(503);
      return {
        status,
        database: db.ok ? ('ok' as const) : ('failing' as const),
        files: files.ok ? ('ok' as const) : ('failing' as const),
      };
    },
  });
}
