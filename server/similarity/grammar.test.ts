import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestContext, createTestContext, silentLog } from '../testing/harness.ts';
import { defaultPrepareOptions, prepareText } from './engine.ts';
import {
  type RawIssue,
  bodySentences,
  grammarBody,
  grammarChunks,
  isRegionalVariant,
  scoreGrammar,
  variantKey,
} from './grammar.ts';
import { WorkerPool } from './pool.ts';
import { SimilarityService } from './service.ts';
import { textPdf } from './testing.ts';
import { normalizeText } from './text.ts';

const issue = (over: Partial<RawIssue>): RawIssue => ({
  start: 0,
  end: 1,
  kind: 'Grammar',
  rule: 'Rule',
  message: 'm',
  text: 'x',
  suggestions: [],
  ...over,
});

describe('the grammar measure', () => {
  const body = 'One good sentence. Another with an error here. Dr. Okafor measured it. A third one. LoRaWAN is fine.';
  const sentences = bodySentences(body);

  it('is the share of sentences without a counted issue', () => {
    expect(sentences).toHaveLength(5);
    const at = (s: string) => body.indexOf(s);
    const r = scoreGrammar(
      body,
      sentences,
      [
        issue({ start: at('error'), end: at('error') + 5, kind: 'Agreement' }),
        issue({ start: at('error'), end: at('error') + 5, kind: 'Spelling', text: 'error', suggestions: ['errors'] }),
        issue({ start: at('third'), end: at('third') + 5, kind: 'Style' }), // not counted
        issue({ start: at('Okafor'), end: at('Okafor') + 6, kind: 'Spelling', text: 'Okafor' }), // a name
        issue({ start: at('LoRaWAN'), end: at('LoRaWAN') + 7, kind: 'Spelling', text: 'LoRaWAN' }), // acronym
      ],
      new Set(),
    );
    expect(r.sentences).toBe(5);
    expect(r.sentencesWithIssues).toBe(1);
    expect(r.grammarQualityPercentage).toBe(80);
    expect(r.issues.map((i) => i.kind)).toEqual(['Agreement', 'Spelling']);
  });

  it('does not count words the corpus knows, nor British or American variants', () => {
    const at = body.indexOf('good');
    const known = scoreGrammar(body, sentences, [issue({ start: at, end: at + 4, kind: 'Spelling', text: 'good' })], new Set(['good']));
    expect(known.issues).toEqual([]);
    for (const [word, suggestion] of [
      ['optimisation', 'optimization'],
      ['colour', 'color'],
      ['centre', 'center'],
      ['modelling', 'modeling'],
      ['acknowledgement', 'acknowledgment'],
    ]) {
      expect(variantKey(word), word).toBe(variantKey(suggestion));
    }
    expect(isRegionalVariant(issue({ text: 'discretise', suggestions: ['discrete'] }))).toBe(true);
    expect(isRegionalVariant(issue({ text: 'recieve', suggestions: ['receive'] }))).toBe(false);
  });

  it('reads the body only, with offsets of the full text, in chunks cut at sentence ends', () => {
    const text = `First line\nsame sentence. Second sentence.\n\nReferences\n[1] A. B.`;
    const body2 = grammarBody(text, text.indexOf('References'));
    expect(body2).toBe('First line same sentence. Second sentence.\n\n');
    const chunks = grammarChunks(body2, bodySentences(body2), 3);
    expect(chunks.map((c) => c.text.trim())).toEqual(['First line same sentence.', 'Second sentence.']);
    expect(chunks.every((c) => body2.slice(c.offset, c.offset + c.text.length) === c.text)).toBe(true);
  });
});

describe('harper.js in a worker thread', () => {
  const text =
    'The gateways send their readings to an server every minute. Their is no buffer on the the device, so a lost packet is gone. We recieve about forty packets an hour from each node. The geofencing module and the backhaul link use a LoRaWAN radio. We characterise the optimisation as a trade-off. Dr. Okafor wrote the firmware in Lagos.';
  let pool: WorkerPool;
  beforeAll(() => {
    pool = new WorkerPool({
      name: 'grammar',
      entry: new URL('./grammar-worker.ts', import.meta.url),
      size: 1,
      maxQueue: 8,
      idleMs: 2000,
    });
  });
  afterAll(() => pool.close());

  it('finds a/an, their/there, doubled words and misspellings, and only those', async () => {
    const raw = await pool.run<RawIssue[]>('lint', { text });
    for (const i of raw) expect(text.slice(i.start, i.end)).toBe(i.text);
    const sentences = bodySentences(text);
    const r = scoreGrammar(text, sentences, raw, new Set(['backhaul', 'geofencing']));
    const found = r.issues.map((i) => i.text.toLowerCase());
    expect(found).toEqual(expect.arrayContaining(['an', 'their', 'the the', 'recieve']));
    for (const fine of ['lorawan', 'characterise', 'optimisation', 'okafor', 'backhaul', 'geofencing']) {
      expect(found, fine).not.toContain(fine);
    }
    expect(r.sentences).toBe(6);
    expect(r.sentencesWithIssues).toBe(3);
    expect(r.grammarQualityPercentage).toBeCloseTo(50, 5);
  });
});

describe('grammar in a check', () => {
  let t: TestContext;
  let sim: SimilarityService;
  beforeAll(async () => {
    t = await createTestContext();
    sim = new SimilarityService(t.services.db, {
      files: t.services.files,
      log: silentLog,
      options: { vocabularyMinDocs: 1 },
    });
    // A journal document that uses the technical term "backhaul".
    const known = prepareText(
      normalizeText('Each cell tower needs a backhaul link to the core network. The backhaul carries all traffic.'),
      defaultPrepareOptions({ excludeBibliography: false, vocabulary: true }),
    );
    await sim.store.upsert({
      sourceKind: 'article',
      sourceId: 1,
      groupKey: 'article:1',
      title: 'Towers',
      published: true,
      text: known.text,
      wordHashes: known.wordHashes,
      fingerprints: known.fingerprints,
      vocabulary: known.vocabulary ?? [],
      contentSha256: 'x',
    });
  });
  afterAll(async () => {
    await sim?.close();
    await t?.close();
  });

  it('reports grammarQualityPercentage with the issues and their positions', async () => {
    const pdf = await textPdf([
      'The backhaul link was slow. We recieve forty packets an hour. The sensors report every minute.',
      'References',
      '[1] A. Author, an paper with teh errors, 2020.',
    ]);
    const report = await sim.check({ data: pdf }, { viewer: 'reader' });
    expect(report.grammar.available).toBe(true);
    expect(report.grammar.measure).toMatch(/Share of the sentences/);
    expect(report.grammar.issues.map((i) => i.text)).toEqual(['recieve']);
    const [i] = report.grammar.issues;
    expect(report.text.slice(i.start, i.end)).toBe('recieve');
    expect(i.suggestions).toContain('receive');
    expect(report.grammar.sentences).toBe(3);
    expect(report.grammarQualityPercentage).toBeCloseTo(66.67, 2);
  });

  it("does not let the checked work's own indexed versions vouch for its spelling", async () => {
    const body = 'The backhaul link was slow. We recieve forty packets an hour. The sensors report every minute.';
    const pdf = await textPdf([body, 'The gateway stores each reading until the link comes back.']);
    const own = prepareText(
      normalizeText(`${body}\n\nThe gateway stores each reading until the link comes back.`),
      defaultPrepareOptions({ excludeBibliography: false, vocabulary: true }),
    );
    await sim.store.upsert({
      sourceKind: 'submission_version',
      sourceId: 77,
      groupKey: 'submission:7',
      title: 'Slow links',
      published: false,
      text: own.text,
      wordHashes: own.wordHashes,
      fingerprints: own.fingerprints,
      vocabulary: own.vocabulary ?? [],
      contentSha256: 'own',
    });
    // "recieve" is now in one indexed document (the manuscript itself): a reader's check of the same text,
    // which is not that document, takes it as the journal's word (vocabularyMinDocs is 1 here)...
    const reader = await sim.check({ data: pdf }, { viewer: 'reader' });
    expect(reader.grammar.issues.map((i) => i.text)).toEqual([]);
    // ...but the check of that submission does not count its own version.
    const own7 = await sim.check({ data: pdf }, { viewer: 'editor', excludeGroup: 'submission:7' });
    expect(own7.grammar.issues.map((i) => i.text)).toEqual(['recieve']);
    await sim.store.remove('submission_version', 77);
  });
});

describe('the grammar checker in memory', () => {
  // harper.js holds about 0.5 GB while loaded: it is loaded by the first check that measures grammar and let
  // go after `grammarIdleSeconds` without one (the idle timer is moved here with Vitest's fake timers).
  let t: TestContext;
  let sim: SimilarityService;
  const idleSeconds = 60;
  beforeAll(async () => {
    t = await createTestContext();
    sim = new SimilarityService(t.services.db, {
      files: t.services.files,
      log: silentLog,
      options: { grammarIdleSeconds: idleSeconds },
    });
  });
  afterAll(async () => {
    vi.useRealTimers();
    await sim?.close();
    await t?.close();
  });

  it('is loaded by the first check that needs it, let go when idle, and loaded again by the next', async () => {
    const pdf = await textPdf([
      'The sensors report every minute. We recieve forty packets an hour from each node in the field.',
      'The gateway stores each reading until the link comes back, and then it sends them all at once.',
    ]);
    expect(sim.stats().grammar.workers).toBe(0);
    // A check without grammar leaves it unloaded.
    await sim.check({ data: pdf }, { viewer: 'reader', grammar: false });
    expect(sim.stats().grammar.workers).toBe(0);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const first = await sim.check({ data: pdf }, { viewer: 'reader' });
    expect(first.grammar.issues.map((i) => i.text)).toEqual(['recieve']);
    expect(sim.stats().grammar.workers).toBe(1);

    vi.advanceTimersByTime((idleSeconds - 1) * 1000);
    expect(sim.stats().grammar.workers).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(sim.stats().grammar.workers).toBe(0);
    expect(sim.stats().pool.workers).toBe(0);

    const again = await sim.check({ data: pdf }, { viewer: 'reader' });
    expect(again.grammarQualityPercentage).toBeCloseTo(first.grammarQualityPercentage!, 5);
    expect(again.grammar.issues.map((i) => i.text)).toEqual(['recieve']);
    expect(sim.stats().grammar.workers).toBe(1);
    vi.useRealTimers();
  });
});
