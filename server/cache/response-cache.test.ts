import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { dependsOn, validUntil } from './dependencies.ts';
import { matchesEtag, ResponseCache } from './response-cache.ts';

const clock = () => new ManualClock(new Date('2026-01-01T00:00:00Z'));
const cacheOf = (c = clock(), maxBytes = 1 << 20) =>
  new ResponseCache({ clock: c, maxBytes, maxAgeMs: 60_000 });
const page =
  (text: string, ...tags: string[]) =>
  async () => {
    dependsOn(...tags);
    return {
      keep: {
        status: 200,
        headers: [['content-type', 'text/html']] as [string, string][],
        body: Buffer.from(text),
      },
    };
  };

describe('ResponseCache', () => {
  it('keeps an answer compressed both ways, and serves it again without rendering', async () => {
    const cache = cacheOf();
    const first = await cache.serve('a', page('<p>hello</p>'.repeat(100), 'x'));
    let rendered = false;
    const second = await cache.serve('a', async () => {
      rendered = true;
      return { pass: null };
    });
    expect(rendered).toBe(false);
    expect('answer' in second && 'answer' in first && second.answer.etag === first.answer.etag).toBe(true);
    if (!('answer' in second)) throw new Error('not kept');
    const plain = (await cache.bodyOf(second.answer, null)).toString();
    expect(plain).toBe('<p>hello</p>'.repeat(100));
    expect(second.answer.br.length).toBeLessThan(plain.length);
  });

  it('keeps the plain bytes once clients without compression asked for them twice, counted in the budget', async () => {
    const cache = cacheOf();
    const text = '<p>plain</p>'.repeat(400);
    const served = await cache.serve('a', page(text, 'x'));
    if (!('answer' in served)) throw new Error('not kept');
    const answer = served.answer;
    // Brotli and gzip are at hand at once (no promise); the plain bytes are unzipped on first demand.
    expect(Buffer.isBuffer(cache.bodyOf(answer, 'br'))).toBe(true);
    expect(Buffer.isBuffer(cache.bodyOf(answer, 'gzip'))).toBe(true);
    const before = cache.size.bytes;
    // Asked for once (a crawler going through every page): unzipped for it, not kept.
    expect((await cache.bodyOf(answer, null)).toString()).toBe(text);
    expect(cache.bodyOf(answer, null)).toBeInstanceOf(Promise);
    // Asked for again: kept, and the requests meanwhile share the one unzipping.
    const [one, two] = await Promise.all([cache.bodyOf(answer, null), cache.bodyOf(answer, null)]);
    expect(one.toString()).toBe(text);
    expect(two).toBe(one);
    // Kept from then on: the next plain request is answered from memory, and the budget knows it.
    const again = cache.bodyOf(answer, null);
    expect(Buffer.isBuffer(again) && again === one).toBe(true);
    expect(cache.size.bytes).toBe(before + text.length);
    // Dropped with its answer.
    cache.invalidate(['j1:x']);
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('lets the plain bytes push older answers out when they overflow the budget', async () => {
    const text = (n: number) => `<p>${n}</p>`.repeat(600);
    const cache = cacheOf(clock(), 5_000);
    const a = await cache.serve('a', page(text(1), 'x'));
    await cache.serve('b', page(text(2), 'y'));
    if (!('answer' in a)) throw new Error('not kept');
    expect(cache.size.entries).toBe(2);
    // The 4.8 KB of plain bytes do not fit beside both: the least recently used answer goes (here, itself).
    await cache.bodyOf(a.answer, null);
    expect(cache.size.entries).toBe(2);
    await cache.bodyOf(a.answer, null);
    expect(cache.size.bytes).toBeLessThanOrEqual(5_000);
    expect(cache.size.entries).toBe(1);
    expect(cache.get('b')).toBeDefined();
  });

  it('drops exactly the answers that show a changed name', async () => {
    const cache = cacheOf();
    await cache.serve('a', page('A', 'article:1', 'site'));
    await cache.serve('b', page('B', 'article:2', 'site'));
    cache.invalidate(['j1:article:1']);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
    cache.invalidate(['j1:site']);
    expect(cache.get('b')).toBeUndefined();
  });

  it('does not keep a render that began before an invalidation (it may show the old state)', async () => {
    const cache = cacheOf();
    let release!: () => void;
    const slow = cache.serve('a', async () => {
      await new Promise<void>((r) => (release = r));
      return page('old', 'article:1')();
    });
    await new Promise((r) => setImmediate(r));
    cache.invalidate(['j1:article:1']);
    release();
    expect('answer' in (await slow)).toBe(true);
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps a render during which only something else changed', async () => {
    const cache = cacheOf();
    let release!: () => void;
    const slow = cache.serve('a', async () => {
      await new Promise<void>((r) => {
        release = r;
      });
      return page('A', 'article:1')();
    });
    await new Promise((r) => setImmediate(r));
    cache.invalidate(['j1:article:2']);
    release();
    await slow;
    expect(cache.get('a')).toBeDefined();
  });

  it('renders once for concurrent misses of one key', async () => {
    const cache = cacheOf();
    let renders = 0;
    const render = async () => {
      renders++;
      await new Promise((r) => setTimeout(r, 10));
      return page('P')();
    };
    await Promise.all([cache.serve('k', render), cache.serve('k', render), cache.serve('k', render)]);
    expect(renders).toBe(1);
  });

  it('lets an answer go at its time limit, or at the validity its render declared', async () => {
    const c = clock();
    const cache = cacheOf(c);
    await cache.serve('long', page('L'));
    await cache.serve('short', async () => {
      validUntil(c.now() + 5_000);
      return page('S')();
    });
    c.advance(5_000);
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('long')).toBeDefined();
    c.advance(55_000);
    expect(cache.get('long')).toBeUndefined();
  });

  it('stays within its memory budget, least recently used first', async () => {
    const body = Buffer.from('x'.repeat(2_000));
    const keep = async () => ({ keep: { status: 200, headers: [] as [string, string][], body } });
    const probe = cacheOf();
    await probe.serve('one', keep);
    const cache = cacheOf(clock(), Math.floor(probe.size.bytes * 3.5));
    for (const key of ['a', 'b', 'c', 'd', 'e']) {
      await cache.serve(key, keep);
      cache.get('a');
    }
    expect(cache.size.entries).toBe(3);
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('b')).toBeUndefined();
  });

  it('passes an answer that may not be kept to its own request only', async () => {
    const cache = cacheOf();
    const served = await cache.serve('p', async () => ({ pass: 'mine' }));
    expect(served).toEqual({ pass: 'mine' });
    expect(cache.get('p')).toBeUndefined();
  });

  it('keeps nothing with a budget of 0', async () => {
    const cache = cacheOf(clock(), 0);
    expect(cache.enabled).toBe(false);
  });
});

describe('matchesEtag', () => {
  it('matches the validator in any encoding, weakly, in a list, or *', () => {
    expect(matchesEtag('"abc"', 'abc')).toBe(true);
    expect(matchesEtag('"abc-br"', 'abc')).toBe(true);
    expect(matchesEtag('W/"abc-gzip"', 'abc')).toBe(true);
    expect(matchesEtag('"x", "abc"', 'abc')).toBe(true);
    expect(matchesEtag('*', 'abc')).toBe(true);
    expect(matchesEtag('"abd"', 'abc')).toBe(false);
    expect(matchesEtag('abc', 'abc')).toBe(false);
    expect(matchesEtag(undefined, 'abc')).toBe(false);
  });
});
