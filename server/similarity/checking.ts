/**
 * Checking a file against the corpus (and its grammar): extraction and fingerprinting in a worker, candidates
 * from the inverted index, alignment in a worker, crediting, the grammar measure, the report. Also what the
 * corpus covers, said in every report (decision 0037).
 */
import { sql } from 'drizzle-orm';
import type { CorpusCoverage } from '../../common/similarity.ts';
import { rowsOf } from '../db/client.ts';
import { currentJournalId } from '../db/scope.ts';
import type { AlignParams } from './align.ts';
import { readFile, type SimilarityContext, submissionFileRow } from './context.ts';
import type { PreparedText, PrepareOptions, SourcePassages } from './engine.ts';
import {
  bodySentences,
  CORE_RULES,
  type GrammarResult,
  grammarBody,
  grammarChunks,
  type RawIssue,
  scoreGrammar,
  spellingWords,
} from './grammar.ts';
import type { CheckOptions } from './options.ts';
import {
  buildReport,
  GRAMMAR_MEASURE,
  type GrammarReport,
  type MatchedSource,
  type SimilarityReport,
} from './report.ts';
import { creditWords } from './score.ts';
import type { CandidateQuery, SimilarityStore } from './store.ts';
import { similarityDocuments, similarityUnreadable } from './tables.ts';
import { tokenize } from './text.ts';

/**
 * The similarity step proper, on an already prepared manuscript: candidates from the inverted index,
 * alignment with each (by `alignFn`: a worker in the service, a direct call in the benchmark), crediting.
 */
export async function matchAgainstCorpus(
  store: SimilarityStore,
  prepared: Pick<PreparedText, 'wordHashes' | 'mask' | 'wordCount' | 'fingerprints'>,
  opts: {
    maxCandidates: number;
    query: CandidateQuery;
    excludeGroup: string | null;
    align: AlignParams;
    /** Candidates sharing at most this many fingerprints are read as windows around them. */
    weakShared?: number;
    windowRadius?: number;
  },
  alignFn: (payload: {
    manuscript: { wordHashes: Uint32Array; mask: Uint8Array };
    sources: { key: number; hashes: Uint32Array; offset: number }[];
    params: AlignParams;
  }) => Promise<SourcePassages[]> | SourcePassages[],
) {
  const t0 = performance.now();
  const candidates = await store.candidates(prepared.fingerprints.hashes, {
    limit: opts.maxCandidates,
    excludeGroup: opts.excludeGroup,
    query: opts.query,
    weak: opts.weakShared ?? 3,
  });
  const words = await store.loadWords(candidates, opts.windowRadius ?? 150);
  const candidatesMs = performance.now() - t0;
  const t1 = performance.now();
  const matches = await alignFn({
    manuscript: { wordHashes: prepared.wordHashes, mask: prepared.mask },
    sources: words.map((w) => ({ key: w.documentId, hashes: w.wordHashes, offset: w.offset })),
    params: opts.align,
  });
  const alignMs = performance.now() - t1;
  const docs = await store.describe(matches.map((m) => m.key));
  const published = new Map(docs.map((d) => [d.id, d.published]));
  const score = creditWords(
    prepared.wordCount,
    prepared.mask,
    matches.map((m) => ({ key: m.key, published: published.get(m.key) ?? false, passages: m.passages })),
  );
  return { candidates, docs, matches, score, candidatesMs, alignMs };
}

/** An editor's report on one stored version of a submission: the other versions are not sources. */
export async function checkSubmissionFile(
  ctx: SimilarityContext,
  submissionFileId: number,
  opts: Omit<CheckOptions, 'excludeDocument'> = { viewer: 'editor' },
) {
  const row = await submissionFileRow(ctx, submissionFileId);
  if (!row) throw new Error(`No submission file ${submissionFileId}`);
  const data = await readFile(ctx, row.fileId);
  return ctx.gate.run(() => runCheck(ctx, data, { ...opts, excludeGroup: `submission:${row.submissionId}` }));
}

export async function runCheck(
  ctx: SimilarityContext,
  data: Buffer,
  opts: CheckOptions,
): Promise<SimilarityReport> {
  const o = ctx.options;
  const t0 = performance.now();
  const settings = {
    excludeQuotes: opts.excludeQuotes ?? false,
    excludeBibliography: opts.excludeBibliography ?? true,
    minMatchWords: opts.minMatchWords ?? o.align.minMatchWords,
  };
  const progress = opts.onProgress ?? (() => undefined);
  progress({ stage: 'reading', done: 0, total: 1 });
  const prepared = await prepare(ctx, data, { ...settings, winnow: o.winnow });
  const tPrepared = performance.now();

  let excludeGroup = opts.excludeGroup ?? null;
  if (!excludeGroup && opts.excludeDocument) {
    excludeGroup =
      (await ctx.store.find(opts.excludeDocument.kind, opts.excludeDocument.id))?.groupKey ?? null;
  }
  const wantGrammar = opts.grammar ?? o.grammar;
  // The checked work's own indexed versions must not vouch for its spelling: each adds one to a word's count.
  const ownDocuments = wantGrammar && excludeGroup ? await ctx.store.groupSize(excludeGroup) : 0;
  const grammar = wantGrammar
    ? measureGrammar(ctx, prepared, progress, ownDocuments).then(
        (r) => ({ ok: true as const, r, ms: performance.now() - tPrepared }),
        (err: Error) => ({ ok: false as const, err, ms: performance.now() - tPrepared }),
      )
    : null;

  progress({ stage: 'matching', done: 0, total: 1 });
  // What this check is compared against, read before the candidates: said in the report (decision 0037).
  const corpus = await coverage(ctx);
  const tCandidates = performance.now();
  const { candidates, docs, matches, score, candidatesMs, alignMs } = await matchAgainstCorpus(
    ctx.store,
    prepared,
    {
      maxCandidates: o.maxCandidates,
      query: o.candidateQuery,
      excludeGroup,
      align: { ...o.align, minMatchWords: settings.minMatchWords },
    },
    (payload) => ctx.pool.run<SourcePassages[]>('align', payload),
  );
  const docById = new Map(docs.map((d) => [d.id, d]));
  const credited = new Set(score.credits.map((c) => c.key));
  const texts = await ctx.store.texts([...credited]);
  const sources: MatchedSource[] = matches
    .filter((m) => credited.has(m.key))
    .map((m) => {
      const d = docById.get(m.key)!;
      const text = texts.get(m.key) ?? '';
      const tokens = tokenize(text);
      return {
        documentId: d.id,
        journalId: d.journalId,
        sourceKind: d.sourceKind,
        sourceId: d.sourceId,
        title: d.title,
        published: d.published,
        passages: m.passages,
        text,
        starts: tokens.starts,
        ends: tokens.ends,
      };
    });
  progress({ stage: 'matching', done: 1, total: 1 });
  const tokens = tokenize(prepared.text);
  const similarityMs = performance.now() - tCandidates;

  let grammarReport: GrammarReport & { grammarQualityPercentage: number | null } = {
    measure: GRAMMAR_MEASURE,
    available: false,
    error: 'The grammar check was not requested.',
    sentences: 0,
    sentencesWithIssues: 0,
    issues: [],
    grammarQualityPercentage: null,
  };
  let grammarMs = 0;
  if (grammar) {
    const g = await grammar;
    grammarMs = g.ms;
    if (g.ok) {
      grammarReport = {
        measure: GRAMMAR_MEASURE,
        available: true,
        sentences: g.r.sentences,
        sentencesWithIssues: g.r.sentencesWithIssues,
        issues: g.r.issues,
        grammarQualityPercentage: g.r.grammarQualityPercentage,
      };
    } else {
      ctx.log.error({ err: g.err }, 'grammar check failed');
      grammarReport = { ...grammarReport, error: 'The grammar checker could not finish this file.' };
    }
  }
  progress({ stage: 'done', done: 1, total: 1 });
  return buildReport({
    viewer: opts.viewer,
    // Sources in another journal of the site are shown by the rule across journals (report.ts).
    journalId: currentJournalId(),
    journal: ctx.journal,
    settings,
    file: { kind: prepared.kind, pages: prepared.pages },
    text: prepared.text,
    starts: tokens.starts,
    ends: tokens.ends,
    mask: prepared.mask,
    owner: score.owner,
    credits: score.credits,
    sources,
    grammar: grammarReport,
    timings: {
      extractMs: prepared.timings.extractMs,
      fingerprintMs: prepared.timings.fingerprintMs,
      candidatesMs,
      alignMs,
      similarityMs,
      grammarMs,
      totalMs: performance.now() - t0,
      candidates: candidates.length,
      workerPid: prepared.ranIn.pid,
      workerThread: prepared.ranIn.threadId,
    },
    corpus,
  });
}

/**
 * What the corpus holds against what it should (decision 0037): every article PDF and every manuscript
 * version, less the files tried and found to have no readable text; a source not indexed yet (or indexed
 * from an older file) is work still to do, and while there is any the corpus is incomplete. Right after a
 * first start, a reindex, an import or a restore, a check must say so rather than look clean.
 */
export async function coverage(ctx: SimilarityContext): Promise<CorpusCoverage> {
  const [row] = rowsOf<{
    sources: number;
    pending: number;
    unreadable: number;
    newest: string | Date | null;
  }>(
    await ctx.db.execute(sql`
      with sources as (
        select 'article'::text as kind, a.id, f.sha256 from articles a join stored_files f on f.id = a.pdf_file_id
        union all
        select 'submission_version', s.id, f.sha256 from submission_files s join stored_files f on f.id = s.file_id
        where s.kind = 'manuscript'
      ), state as (
        select
          exists (select 1 from ${similarityUnreadable} u
                  where u.source_kind = s.kind and u.source_id = s.id and u.content_sha256 = s.sha256) as unreadable,
          exists (select 1 from ${similarityDocuments} d
                  where d.source_kind = s.kind and d.source_id = s.id and d.content_sha256 = s.sha256) as indexed
        from sources s
      )
      select count(*)::int as sources,
        (count(*) filter (where not indexed and not unreadable))::int as pending,
        (count(*) filter (where unreadable and not indexed))::int as unreadable,
        (select max(updated_at) from ${similarityDocuments}) as newest
      from state`),
  );
  const expected = row.sources - row.unreadable;
  const indexed = expected - row.pending;
  const complete = row.pending === 0;
  const newest = row.newest === null ? null : new Date(row.newest).toISOString();
  return {
    indexed,
    expected,
    complete,
    newestIndexedAt: newest,
    unreadable: row.unreadable,
    message: complete
      ? null
      : `The journal's corpus was still being indexed: this check compared the text with ${indexed} of ${expected} documents. A copy of a document not indexed yet is not found, so a low score does not mean the text is original: check again in a few minutes.`,
  };
}

/** Extraction and fingerprinting in a worker. The bytes are copied: the caller's buffer stays usable. */
export function prepare(
  ctx: SimilarityContext,
  data: Buffer,
  options: PrepareOptions,
): Promise<PreparedText> {
  const copy = new Uint8Array(data.byteLength);
  copy.set(data);
  return ctx.pool.run<PreparedText>('prepare', { data: copy, options }, [copy.buffer]);
}

/** `ownDocuments`: how many indexed documents are the checked work itself (left out of the vocabulary rule). */
async function measureGrammar(
  ctx: SimilarityContext,
  prepared: PreparedText,
  progress: NonNullable<CheckOptions['onProgress']>,
  ownDocuments: number,
): Promise<GrammarResult> {
  const body = grammarBody(prepared.text, prepared.bodyEnd);
  const sentences = bodySentences(body);
  const chunks = grammarChunks(body, sentences, ctx.options.grammarChunkWords);
  const rules = ctx.options.grammarRules === 'all' ? 'all' : [...CORE_RULES];
  let done = 0;
  progress({ stage: 'grammar', done, total: chunks.length });
  const results = await Promise.all(
    chunks.map((c) =>
      ctx.grammarPool.run<RawIssue[]>('lint', { text: c.text, rules }).then((issues) => {
        progress({ stage: 'grammar', done: ++done, total: chunks.length });
        return issues.map((i) => ({ ...i, start: i.start + c.offset, end: i.end + c.offset }));
      }),
    ),
  );
  const raw = results.flat();
  const known = await ctx.store.knownWords(
    spellingWords(body, sentences, raw),
    ctx.options.vocabularyMinDocs + ownDocuments,
  );
  return scoreGrammar(body, sentences, raw, known);
}
