/**
 * The corpus in the database: documents, the inverted index of fingerprints, and the vocabulary. The same
 * SQL runs on PGlite (Postgres 18) and PostgreSQL 15.
 */
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { currentJournalId } from '../db/scope.ts';
import { bytesToHashes, hashesToBytes } from './engine.ts';
import { toInt4 } from './fingerprint.ts';
import { type SourceKind, similarityDocuments, similarityFingerprints } from './tables.ts';
import { tokenize, vocabularyWords } from './text.ts';

export interface NewDocument {
  sourceKind: SourceKind;
  sourceId: number;
  groupKey: string;
  title: string;
  published: boolean;
  text: string;
  wordHashes: Uint32Array;
  fingerprints: { hashes: Uint32Array; positions: Int32Array };
  vocabulary: string[];
  contentSha256: string;
  /** The journal of its source (default: the journal of the work at hand; null: none). */
  journalId?: number | null;
}

export interface Candidate {
  documentId: number;
  /** Fingerprints the manuscript shares with this document. */
  shared: number;
  /** Word positions of the shared fingerprints, for weak candidates (few shared); null otherwise. */
  positions: number[] | null;
}

/** A stretch of a candidate's words: the whole document, or a window around a few shared fingerprints. */
export interface CandidateWords {
  documentId: number;
  /** Position of the first word of `wordHashes` in the document. */
  offset: number;
  wordHashes: Uint32Array;
}

/**
 * The documents the work at hand looks after (removes, lists for a re-index): its journal's, or every one in
 * the site's scope. The corpus has no row-level security (a check reads every journal's documents): a
 * journal's upkeep must not drop another's (decision 0058).
 */
function ofTheScope() {
  const journal = currentJournalId();
  return journal === null ? undefined : eq(similarityDocuments.journalId, journal);
}

export interface CandidateDocument {
  id: number;
  sourceKind: SourceKind;
  sourceId: number;
  groupKey: string;
  title: string;
  published: boolean;
  wordCount: number;
  wordHashes: Uint32Array;
}

/** Rows per INSERT: large enough to be fast, small enough for any driver's message size. */
const BATCH = 20_000;

type Rows<T> = { rows: T[] };
const rowsOf = <T>(result: unknown) => (result as Rows<T>).rows;

export type CandidateQuery = 'any' | 'unnest';

/** The first key of the advisory lock taken while one source's document is written (any fixed number). */
const DOCUMENT_LOCK = 51_230;

export class SimilarityStore {
  constructor(
    private readonly db: Db,
    /**
     * Told in the transaction of each change of the indexed text (search reads it: kept answers go when it
     * commits, decisions 0018 and 0031).
     */
    private readonly textChanged: (tx: Tx) => Promise<void> = async () => {},
  ) {}

  /**
   * Adds or replaces a document with its fingerprints and vocabulary, in one transaction. Returns
   * `unchanged` when the same file is already indexed under the same source (only title and published
   * flag are refreshed then), unless `force` (a re-index after the engine's text handling changed).
   */
  async upsert(
    doc: NewDocument,
    opts: { force?: boolean } = {},
  ): Promise<{ id: number; status: 'created' | 'replaced' | 'unchanged' }> {
    const journalId = doc.journalId === undefined ? currentJournalId() : doc.journalId;
    return this.write(async (tx) => {
      // Two indexers of one source at once (the event's job and a catch-up pass on another process) would both
      // find no row and both insert it: the second one waits here, then finds the first one's row.
      await tx.execute(sql`select pg_advisory_xact_lock(${DOCUMENT_LOCK}, hashtext(${`${doc.sourceKind}:${doc.sourceId}`}))`);
      const [existing] = await tx
        .select({ id: similarityDocuments.id, sha: similarityDocuments.contentSha256, text: similarityDocuments.text })
        .from(similarityDocuments)
        .where(and(eq(similarityDocuments.sourceKind, doc.sourceKind), eq(similarityDocuments.sourceId, doc.sourceId)))
        .for('update');
      if (existing && existing.sha === doc.contentSha256 && !opts.force) {
        await tx
          .update(similarityDocuments)
          .set({ title: doc.title, published: doc.published, groupKey: doc.groupKey, journalId, updatedAt: new Date() })
          .where(eq(similarityDocuments.id, existing.id));
        return { id: existing.id, status: 'unchanged' as const };
      }
      let id: number;
      const values = {
        journalId,
        sourceKind: doc.sourceKind,
        sourceId: doc.sourceId,
        groupKey: doc.groupKey,
        title: doc.title,
        published: doc.published,
        wordCount: doc.wordHashes.length,
        fingerprintCount: doc.fingerprints.hashes.length,
        text: doc.text,
        wordHashes: hashesToBytes(doc.wordHashes),
        contentSha256: doc.contentSha256,
      };
      if (existing) {
        id = existing.id;
        await this.vocabularyDelta(tx, await this.vocabularyOfStored(tx, id), -1);
        await tx.delete(similarityFingerprints).where(eq(similarityFingerprints.documentId, id));
        await tx
          .update(similarityDocuments)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(similarityDocuments.id, id));
      } else {
        const [row] = await tx.insert(similarityDocuments).values(values).returning({ id: similarityDocuments.id });
        id = row.id;
      }
      await this.insertFingerprints(tx, id, doc.fingerprints);
      await this.vocabularyDelta(tx, doc.vocabulary, +1);
      return { id, status: existing ? ('replaced' as const) : ('created' as const) };
    });
  }

  /** Bulk insert through unnest: one statement per batch, whatever the number of rows. */
  private async insertFingerprints(tx: Tx, documentId: number, fp: { hashes: Uint32Array; positions: Int32Array }) {
    for (let at = 0; at < fp.hashes.length; at += BATCH) {
      const hashes = Array.from(fp.hashes.subarray(at, at + BATCH), toInt4);
      const positions = Array.from(fp.positions.subarray(at, at + BATCH));
      await tx.execute(sql`
        insert into similarity_fingerprints (document_id, position, hash)
        select ${documentId}, p, h from unnest(${sql.param(positions)}::int4[], ${sql.param(hashes)}::int4[]) as t(p, h)`);
    }
  }

  private async vocabularyDelta(tx: Tx, words: string[], delta: 1 | -1) {
    for (let at = 0; at < words.length; at += BATCH) {
      const batch = words.slice(at, at + BATCH);
      if (delta > 0) {
        await tx.execute(sql`
          insert into similarity_vocabulary (word, documents)
          select w, 1 from unnest(${sql.param(batch)}::text[]) as t(w)
          on conflict (word) do update set documents = similarity_vocabulary.documents + 1`);
      } else {
        await tx.execute(sql`
          update similarity_vocabulary set documents = greatest(documents - 1, 0)
          where word = any(${sql.param(batch)}::text[])`);
      }
    }
  }

  private async vocabularyOfStored(tx: Tx, id: number): Promise<string[]> {
    const [row] = await tx.select({ text: similarityDocuments.text }).from(similarityDocuments).where(eq(similarityDocuments.id, id));
    if (!row) return [];
    return vocabularyWords(tokenize(row.text).words);
  }

  async remove(sourceKind: SourceKind, sourceId: number): Promise<boolean> {
    return this.write(async (tx) => {
      const [row] = await tx
        .select({ id: similarityDocuments.id })
        .from(similarityDocuments)
        .where(
          and(eq(similarityDocuments.sourceKind, sourceKind), eq(similarityDocuments.sourceId, sourceId), ofTheScope()),
        );
      if (!row) return false;
      await this.vocabularyDelta(tx, await this.vocabularyOfStored(tx, row.id), -1);
      await tx.delete(similarityDocuments).where(eq(similarityDocuments.id, row.id));
      return true;
    });
  }

  async setPublished(sourceKind: SourceKind, sourceId: number, published: boolean, title?: string) {
    await this.write((tx) =>
      tx
        .update(similarityDocuments)
        .set({ published, ...(title ? { title } : {}), updatedAt: new Date() })
        .where(and(eq(similarityDocuments.sourceKind, sourceKind), eq(similarityDocuments.sourceId, sourceId))),
    );
  }

  /** A write in one transaction that also says the indexed text changed. */
  private write<T>(fn: (tx: Tx) => PromiseLike<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      const result = await fn(tx);
      await this.textChanged(tx);
      return result;
    });
  }

  async find(sourceKind: SourceKind, sourceId: number) {
    const [row] = await this.db
      .select({
        id: similarityDocuments.id,
        groupKey: similarityDocuments.groupKey,
        wordCount: similarityDocuments.wordCount,
        fingerprintCount: similarityDocuments.fingerprintCount,
        published: similarityDocuments.published,
        title: similarityDocuments.title,
        contentSha256: similarityDocuments.contentSha256,
      })
      .from(similarityDocuments)
      .where(and(eq(similarityDocuments.sourceKind, sourceKind), eq(similarityDocuments.sourceId, sourceId)));
    return row ?? null;
  }

  async refresh(id: number, values: { title: string; published: boolean; groupKey: string }) {
    await this.write((tx) =>
      tx.update(similarityDocuments).set({ ...values, updatedAt: new Date() }).where(eq(similarityDocuments.id, id)),
    );
  }

  /**
   * Documents sharing fingerprints with the manuscript, most shared first. `any` looks each hash up with
   * `hash = ANY($1)`; `unnest` joins the index with the unnested array (the benchmark measures both).
   */
  async candidates(
    hashes: Uint32Array,
    opts: { limit: number; excludeGroup?: string | null; query?: CandidateQuery; weak?: number },
  ): Promise<Candidate[]> {
    const weak = opts.weak ?? 0;
    if (!hashes.length) return [];
    const distinct = [...new Set(Array.from(hashes, toInt4))];
    const param = sql.param(distinct);
    const exclude = opts.excludeGroup
      ? sql`and f.document_id not in (select id from similarity_documents where group_key = ${opts.excludeGroup})`
      : sql``;
    const query =
      (opts.query ?? 'any') === 'any'
        ? sql`
          select f.document_id as "documentId", count(*)::int as shared,
                 case when count(*) <= ${weak} then array_agg(f.position) end as positions
          from similarity_fingerprints f
          where f.hash = any(${param}::int4[]) ${exclude}
          group by f.document_id
          order by shared desc, f.document_id
          limit ${opts.limit}`
        : sql`
          select f.document_id as "documentId", count(*)::int as shared,
                 case when count(*) <= ${weak} then array_agg(f.position) end as positions
          from unnest(${param}::int4[]) as q(hash)
          join similarity_fingerprints f on f.hash = q.hash
          where true ${exclude}
          group by f.document_id
          order by shared desc, f.document_id
          limit ${opts.limit}`;
    return rowsOf<Candidate>(await this.db.execute(query)).map((r) => ({
      documentId: Number(r.documentId),
      shared: Number(r.shared),
      positions: r.positions ? r.positions.map(Number) : null,
    }));
  }

  /**
   * The words to align with: whole documents for strong candidates, and for weak ones (a few shared
   * fingerprints, usually a common phrase) only windows of `radius` words around each shared fingerprint.
   * A passage behind so few fingerprints is short, so the window holds it; reading 300 words instead of a
   * whole document keeps the step fast when a manuscript shares a stock phrase with a hundred documents.
   */
  async loadWords(candidates: Candidate[], radius: number): Promise<CandidateWords[]> {
    const whole = candidates.filter((c) => !c.positions).map((c) => c.documentId);
    const ids: number[] = [];
    const starts: number[] = [];
    const lengths: number[] = [];
    for (const c of candidates) {
      if (!c.positions) continue;
      // Merge overlapping windows of one document.
      let from = -1;
      let to = -1;
      for (const p of [...c.positions].sort((a, b) => a - b)) {
        const a = Math.max(0, p - radius);
        const b = p + radius;
        if (from >= 0 && a <= to) to = b;
        else {
          if (from >= 0) {
            ids.push(c.documentId);
            starts.push(from);
            lengths.push(to - from);
          }
          from = a;
          to = b;
        }
      }
      if (from >= 0) {
        ids.push(c.documentId);
        starts.push(from);
        lengths.push(to - from);
      }
    }
    const out: CandidateWords[] = [];
    if (whole.length) {
      const rows = await this.db
        .select({ id: similarityDocuments.id, wordHashes: similarityDocuments.wordHashes })
        .from(similarityDocuments)
        .where(inArray(similarityDocuments.id, whole));
      for (const r of rows) out.push({ documentId: r.id, offset: 0, wordHashes: bytesToHashes(r.wordHashes) });
    }
    if (ids.length) {
      const rows = rowsOf<{ id: number; start: number; bytes: Uint8Array | string }>(
        await this.db.execute(sql`
          select w.id, w.start, substring(d.word_hashes from w.start * 4 + 1 for w.len * 4) as bytes
          from unnest(${sql.param(ids)}::int4[], ${sql.param(starts)}::int4[], ${sql.param(lengths)}::int4[]) as w(id, start, len)
          join similarity_documents d on d.id = w.id`),
      );
      for (const r of rows) {
        const bytes = typeof r.bytes === 'string' ? Buffer.from(r.bytes.replace(/^\\x/, ''), 'hex') : r.bytes;
        out.push({ documentId: Number(r.id), offset: Number(r.start), wordHashes: bytesToHashes(bytes) });
      }
    }
    return out;
  }

  /** Metadata of candidate documents (no words). */
  async describe(ids: number[]) {
    if (!ids.length) return [];
    return this.db
      .select({
        id: similarityDocuments.id,
        journalId: similarityDocuments.journalId,
        sourceKind: similarityDocuments.sourceKind,
        sourceId: similarityDocuments.sourceId,
        groupKey: similarityDocuments.groupKey,
        title: similarityDocuments.title,
        published: similarityDocuments.published,
        wordCount: similarityDocuments.wordCount,
      })
      .from(similarityDocuments)
      .where(inArray(similarityDocuments.id, ids));
  }

  async loadCandidates(ids: number[]): Promise<CandidateDocument[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .select({
        id: similarityDocuments.id,
        sourceKind: similarityDocuments.sourceKind,
        sourceId: similarityDocuments.sourceId,
        groupKey: similarityDocuments.groupKey,
        title: similarityDocuments.title,
        published: similarityDocuments.published,
        wordCount: similarityDocuments.wordCount,
        wordHashes: similarityDocuments.wordHashes,
      })
      .from(similarityDocuments)
      .where(inArray(similarityDocuments.id, ids));
    return rows.map((r) => ({ ...r, wordHashes: bytesToHashes(r.wordHashes) }));
  }

  async texts(ids: number[]): Promise<Map<number, string>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .select({ id: similarityDocuments.id, text: similarityDocuments.text })
      .from(similarityDocuments)
      .where(inArray(similarityDocuments.id, ids));
    return new Map(rows.map((r) => [r.id, r.text]));
  }

  /** Of the given words, those used by at least `minDocuments` indexed documents. */
  async knownWords(words: string[], minDocuments: number): Promise<Set<string>> {
    if (!words.length) return new Set();
    const rows = rowsOf<{ word: string }>(
      await this.db.execute(sql`
        select word from similarity_vocabulary
        where word = any(${sql.param(words)}::text[]) and documents >= ${minDocuments}`),
    );
    return new Set(rows.map((r) => r.word));
  }

  /** How many indexed documents belong to a group (the versions of one submission, and its article). */
  async groupSize(groupKey: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(similarityDocuments)
      .where(eq(similarityDocuments.groupKey, groupKey));
    return Number(row?.n ?? 0);
  }

  async stats() {
    const [row] = rowsOf<{ documents: number; fingerprints: number; words: number }>(
      await this.db.execute(sql`
        select (select count(*)::int from similarity_documents) as documents,
               (select count(*)::int from similarity_fingerprints) as fingerprints,
               (select count(*)::int from similarity_vocabulary where documents > 0) as words`),
    );
    return { documents: Number(row.documents), fingerprints: Number(row.fingerprints), words: Number(row.words) };
  }

  /** Every indexed source of the journal of the work at hand (all in the site's scope), for re-indexing. */
  async sources() {
    return this.db
      .select({ id: similarityDocuments.id, sourceKind: similarityDocuments.sourceKind, sourceId: similarityDocuments.sourceId })
      .from(similarityDocuments)
      .where(ofTheScope());
  }
}
