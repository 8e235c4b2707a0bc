import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext } from '../testing/harness.ts';
import { defaultPrepareOptions, prepareText } from './engine.ts';
import { SimilarityStore } from './store.ts';
import { similarityDocuments } from './tables.ts';
import { normalizeText } from './text.ts';

let t: TestContext;
let store: SimilarityStore;

beforeAll(async () => {
  t = await createTestContext();
  store = new SimilarityStore(t.services.db);
});
afterAll(() => t?.close());

function document(sourceId: number, sentence: string) {
  const prepared = prepareText(
    normalizeText(sentence),
    defaultPrepareOptions({ excludeBibliography: false, vocabulary: true }),
  );
  return {
    sourceKind: 'submission_version' as const,
    sourceId,
    groupKey: `submission:${sourceId}`,
    title: `Version ${sourceId}`,
    published: false,
    text: prepared.text,
    wordHashes: prepared.wordHashes,
    fingerprints: prepared.fingerprints,
    vocabulary: prepared.vocabulary ?? [],
    contentSha256: `sha-${sourceId}`,
  };
}

describe('the similarity store', () => {
  // The event's indexing job and a catch-up pass on another process indexed one manuscript version at once:
  // both found no row, both inserted, and one job failed on the unique key (seen in the cluster suite).
  it('writes one document when two indexers of the same source run at once', async () => {
    const doc = document(
      7,
      'Gateways running on batteries decide for each inference task whether to run it locally or to send it away.',
    );
    const results = await Promise.all([store.upsert(doc), store.upsert(doc), store.upsert(doc)]);
    expect(results.map((r) => r.status).sort()).toEqual(['created', 'unchanged', 'unchanged']);
    const rows = await t.services.db
      .select({ id: similarityDocuments.id })
      .from(similarityDocuments)
      .where(
        and(eq(similarityDocuments.sourceKind, 'submission_version'), eq(similarityDocuments.sourceId, 7)),
      );
    expect(rows).toHaveLength(1);
    expect(new Set(results.map((r) => r.id))).toEqual(new Set([rows[0].id]));
  });
});
