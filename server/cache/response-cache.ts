import { createHash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { compress, type Encoding, gunzipBody } from '../compress.ts';
import { collectDependencies, Dependencies } from './dependencies.ts';

/**
 * The cache of rendered answers (anonymous and per-session pages, public JSON): decision 0018.
 *
 * An answer is kept compressed (brotli and gzip, made once when it is stored; the plain bytes are unzipped
 * for a request that takes neither, and kept with the answer from the second such request on, counted in the
 * budget: decision 0040), with a strong ETag of its plain bytes, the names of what it
 * shows (server/cache/dependencies.ts) and how long it may live. `invalidate` drops every answer that shows
 * a name that changed, before the request that changed it returns. An answer whose render began before an
 * invalidation of something it shows is sent but not kept (it may show the old state). Entries beyond the memory budget
 * go, least recently used first. Concurrent misses of one key wait for one render.
 */

export interface StoredAnswer {
  status: number;
  /** The answer's own headers (lower-case names), without those of its encoding and length. */
  headers: [string, string][];
  /** The strong validator of the plain bytes (128 bits of the SHA-256 in hex, without quotes). */
  etag: string;
  br: Buffer;
  gzip: Buffer;
  /** Length of the plain bytes. */
  length: number;
  /** The plain bytes, once clients that take no encoding asked for them twice (or being unzipped to keep). */
  plain?: Buffer | Promise<Buffer>;
  /** How many requests took no encoding before the plain bytes were kept. */
  plainAsked?: number;
  /** The key it is kept under (none while it is not kept). */
  key?: string;
  tags: ReadonlySet<string>;
  /** Epoch ms after which it is made again. */
  expiresAt: number;
  /** Bytes held. */
  size: number;
  /**
   * The header lines as sent to each kind of request, put together on first use (server/http/ssr.ts): for a
   * 304, and for the answer in full (its encoding and length included). The request's id is added to them.
   */
  sendHeaders: Map<string, { notModified: string[]; full: string[] }>;
}

/** What a render hands the cache to keep. */
export interface FreshAnswer {
  status: number;
  headers: [string, string][];
  body: Buffer;
}

export type Rendered<R> = { keep: FreshAnswer } | { pass: R };
export type Served<R> = { answer: StoredAnswer } | { pass: R };

export interface CacheOptions {
  clock: Clock;
  /** Memory budget of the stored answers, bytes (0: nothing is kept). */
  maxBytes: number;
  /** Longest life of an answer, ms, whatever it shows. */
  maxAgeMs: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, StoredAnswer>();
  private readonly byTag = new Map<string, Set<string>>();
  private readonly inFlight = new Map<string, Promise<StoredAnswer | null>>();
  private bytes = 0;
  /** Counts invalidations; `changedAt` says when each name last changed, `clearedAt` when everything did. */
  private epoch = 0;
  private readonly changedAt = new Map<string, number>();
  private clearedAt = 0;
  readonly stats = { hits: 0, misses: 0, stored: 0, invalidated: 0, evicted: 0 };

  constructor(private readonly opts: CacheOptions) {}

  get enabled(): boolean {
    return this.opts.maxBytes > 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The stored answer for `key`, if it is still good (and now the most recently used). */
  get(key: string): StoredAnswer | undefined {
    const found = this.entries.get(key);
    if (!found) return undefined;
    if (found.expiresAt <= this.opts.clock.now()) {
      this.remove(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, found);
    return found;
  }

  /**
   * The answer for `key`: the stored one, the one being rendered for another request, or a new render.
   * `render` runs while recording what it reads; it says whether its result may be kept (`keep`) or is
   * this request's alone (`pass`, e.g. a redirect, an error, a page for one reader).
   */
  async serve<R>(key: string, render: () => Promise<Rendered<R>>): Promise<Served<R>> {
    const found = this.get(key);
    if (found) {
      this.stats.hits++;
      return { answer: found };
    }
    this.stats.misses++;
    const pending = this.inFlight.get(key);
    if (pending) {
      const shared = await pending;
      if (shared) return { answer: shared };
      return this.renderOnce(render);
    }
    let settle!: (answer: StoredAnswer | null) => void;
    this.inFlight.set(
      key,
      new Promise((resolve) => {
        settle = resolve;
      }),
    );
    try {
      const served = await this.renderOnce(render, key);
      settle('answer' in served ? served.answer : null);
      return served;
    } catch (err) {
      settle(null);
      throw err;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async renderOnce<R>(render: () => Promise<Rendered<R>>, key?: string): Promise<Served<R>> {
    const began = this.epoch;
    const deps = new Dependencies();
    const rendered = await collectDependencies(deps, render);
    if ('pass' in rendered) return rendered;
    const answer = await this.prepare(rendered.keep, deps);
    const now = this.opts.clock.now();
    if (key !== undefined && this.enabled && !this.changedSince(began, answer.tags) && answer.expiresAt > now)
      this.store(key, answer);
    return { answer };
  }

  /** Compresses a fresh answer both ways and gives it its validator. */
  async prepare(fresh: FreshAnswer, deps: Dependencies = new Dependencies()): Promise<StoredAnswer> {
    const [br, gzip] = await Promise.all([
      compress(fresh.body, 'br', 'best'),
      compress(fresh.body, 'gzip', 'best'),
    ]);
    const etag = createHash('sha256').update(fresh.body).digest('hex').slice(0, 32);
    const headerBytes = fresh.headers.reduce((n, [k, v]) => n + k.length + v.length, 0);
    return {
      status: fresh.status,
      headers: fresh.headers,
      etag,
      br,
      gzip,
      length: fresh.body.length,
      tags: deps.tags,
      expiresAt: Math.min(this.opts.clock.now() + this.opts.maxAgeMs, deps.validUntil),
      size: br.length + gzip.length + headerBytes + 200,
      sendHeaders: new Map(),
    };
  }

  /** Whether anything the answer shows changed after epoch `began` (its render may have read the old state). */
  private changedSince(began: number, tags: ReadonlySet<string>): boolean {
    if (began === this.epoch) return false;
    if (this.clearedAt > began) return true;
    for (const tag of tags) if ((this.changedAt.get(tag) ?? 0) > began) return true;
    return false;
  }

  private store(key: string, answer: StoredAnswer) {
    // One answer may not take more than half of the budget (it would push out everything else).
    if (answer.size > this.opts.maxBytes / 2) return;
    this.remove(key);
    this.entries.set(key, answer);
    answer.key = key;
    this.bytes += answer.size;
    for (const tag of answer.tags) {
      const keys = this.byTag.get(tag) ?? new Set<string>();
      this.byTag.set(tag, keys);
      keys.add(key);
    }
    this.stats.stored++;
    this.evict();
  }

  /** Least recently used first, until the answers fit the budget. */
  private evict() {
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.opts.maxBytes) break;
      this.remove(oldest);
      this.stats.evicted++;
    }
  }

  /**
   * The bytes of an answer in an encoding, or plain. Brotli and gzip are at hand (synchronously). The plain
   * bytes (unzipping them costs more than sending a kept page) are unzipped for the first request that takes
   * neither, and from the second one on kept with the answer, their size counted in the budget while it is
   * kept: an answer asked for plain again and again is sent as fast as a compressed one, and one asked for
   * plain once (a crawler going through every page) costs no memory (decision 0040).
   */
  bodyOf(answer: StoredAnswer, encoding: Encoding | null): Buffer | Promise<Buffer> {
    if (encoding === 'br') return answer.br;
    if (encoding === 'gzip') return answer.gzip;
    if (answer.plain) return answer.plain;
    answer.plainAsked = (answer.plainAsked ?? 0) + 1;
    const unzipping = gunzipBody(answer.gzip);
    if (answer.plainAsked < 2) return unzipping;
    answer.plain = unzipping;
    void unzipping.then(
      (plain) => {
        answer.plain = plain;
        answer.size += plain.length;
        if (answer.key !== undefined && this.entries.get(answer.key) === answer) {
          this.bytes += plain.length;
          this.evict();
        }
      },
      () => {
        answer.plain = undefined;
      },
    );
    return unzipping;
  }

  private remove(key: string) {
    const found = this.entries.get(key);
    if (!found) return;
    this.entries.delete(key);
    found.key = undefined;
    this.bytes -= found.size;
    for (const tag of found.tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys && !keys.size) this.byTag.delete(tag);
    }
  }

  /**
   * Drops every answer that shows one of `tags`. Called after the change has committed and before its
   * request answers; renders under way are not kept.
   */
  invalidate(tags: Iterable<string>): void {
    this.epoch++;
    for (const tag of tags) {
      this.changedAt.set(tag, this.epoch);
      for (const key of [...(this.byTag.get(tag) ?? [])]) {
        this.remove(key);
        this.stats.invalidated++;
      }
    }
  }

  /** Drops everything (a change whose reach is not known precisely). */
  clear(): void {
    this.epoch++;
    this.clearedAt = this.epoch;
    this.changedAt.clear();
    for (const key of [...this.entries.keys()]) this.remove(key);
  }
}

/**
 * Whether an `If-None-Match` header matches an answer's validator, in any of its encodings (`"tag"`,
 * `"tag-br"`, `"tag-gzip"`); weak comparison, as RFC 9110 13.1.2 asks for this header.
 */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  for (const part of ifNoneMatch.split(',')) {
    const m = /^\s*(?:W\/)?"([^"]*)"\s*$/.exec(part);
    if (!m) continue;
    const tag = m[1].replace(/-(br|gzip)$/, '');
    if (tag === etag) return true;
  }
  return false;
}

/** The ETag header value of an answer as sent in an encoding. */
export function etagHeader(etag: string, encoding: Encoding | null): string {
  return `"${encoding ? `${etag}-${encoding}` : etag}"`;
}
