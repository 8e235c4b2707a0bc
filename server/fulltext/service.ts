import type { Readable } from 'node:stream';
import { eq, inArray } from 'drizzle-orm';
import { ARTICLE_WORD_RULE } from '../../common/upload-rules.ts';
import type { SessionUser } from '../accounts/service.ts';
import type { AuditService } from '../audit/service.ts';
import { articleTag, dependsOn } from '../cache/dependencies.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import type { Db, Tx } from '../db/client.ts';
import { JATS_DOCTYPE, jatsArticle } from '../discovery/jats.ts';
import type { WorkReader } from '../discovery/works.ts';
import { type XmlElement, renderXml } from '../discovery/xml.ts';
import type { EventBus } from '../events/bus.ts';
import type { FileService, StoredFile } from '../files/service.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import { invalid, notFound, unprocessable } from '../errors.ts';
import type { SettingsService } from '../settings/service.ts';
import { type Conversion, ConversionError, type KnownFront, convertDocx } from './convert.ts';
import { ZipError, guardZip } from '../content/zip.ts';
import { type FullTextDocument, type Problem, problemsOf } from './document.ts';
import { fullTextHtml } from './html.ts';
import { jatsBody } from './jats.ts';
import { fullTexts } from './tables.ts';

/**
 * Whose full text: an accepted submission's before publishing, a published article's (what readers see), or the
 * replacement waiting for the editor's preview beside an article's (decision 0035).
 */
export type FullTextOwner = { submissionId: number } | { articleId: number } | { pendingArticleId: number };

/** What the editor sees of a stored full text. */
export interface FullTextView {
  id: number;
  document: FullTextDocument;
  problems: Problem[];
  /** The Word file's name, as uploaded. */
  sourceName: string;
  /** Readers see it (every figure has its alt text). */
  ready: boolean;
}

/** The row of this owner. */
const ownerIs = (owner: FullTextOwner) =>
  'submissionId' in owner
    ? eq(fullTexts.submissionId, owner.submissionId)
    : 'articleId' in owner
      ? eq(fullTexts.articleId, owner.articleId)
      : eq(fullTexts.pendingArticleId, owner.pendingArticleId);

/** The audit log's name for the owner. */
const auditTarget = (owner: FullTextOwner) =>
  'submissionId' in owner
    ? { type: 'submission' as const, id: owner.submissionId }
    : { type: 'article' as const, id: 'articleId' in owner ? owner.articleId : owner.pendingArticleId };

/** A DOI as the forms take it: bare, or written as a doi.org address or "doi:…". */
const DOI_IN_FIELD = /^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)?(10\.\d{4,9}\/\S+)$/i;

/** Alt text may be long enough for a chart's description, not for an essay. */
export const ALT_TEXT_MAX = 1000;

/** The address of a published article's figure (stable: the name is its place in the text). */
export const figurePath = (articleId: number, name: string) => `/article/${articleId}/figures/${name}`;
export const jatsPath = (articleId: number) => `/article/${articleId}/jats.xml`;

/** Every figure has alt text: the only problem that keeps a full text from readers (nothing is hidden in silence). */
export function isReady(doc: FullTextDocument): boolean {
  return doc.figures.every((f) => f.alt.trim() !== '');
}

export class FullTextService {
  constructor(
    private readonly db: Db,
    private readonly deps: {
      files: FileService;
      audit: AuditService;
      settings: SettingsService;
      works: WorkReader;
      baseUrl: () => string;
      changes?: Pick<ChangeFeed, 'publish'>;
      /** The outbox: `fulltext.changed` in the change's transaction (decision 0031). */
      events?: Pick<EventBus, 'emit'>;
    },
  ) {}

  /** Converts a checked .docx; a file that cannot be converted is refused (422) with the reason, nothing stored. */
  async convert(upload: CheckedUpload, known: KnownFront): Promise<Conversion> {
    if (upload.kind !== 'docx')
      throw invalid(ARTICLE_WORD_RULE.wrongType, { word: ARTICLE_WORD_RULE.wrongType });
    try {
      await guardZip(upload.data); // measured before it is opened (decision 0034)
      return await convertDocx(upload.data, known);
    } catch (err) {
      if (err instanceof ConversionError || err instanceof ZipError)
        throw unprocessable(err.message, { word: err.message });
      throw err;
    }
  }

  /**
   * Converts the Word file and keeps it with its owner, replacing what was there: the Word file and the figures
   * are stored first, then the row, in one transaction (all or nothing). `alts` carries alt text the editor
   * already gave for figures of the same place (kept when the same file is sent again).
   */
  async store(
    actor: SessionUser | null,
    owner: FullTextOwner,
    upload: CheckedUpload,
    known: KnownFront,
    /** The conversion of this very upload, when the caller made it already (to refuse the file before anything else). */
    prepared?: Conversion,
  ): Promise<FullTextView> {
    const { document, images } = prepared ?? (await this.convert(upload, known));
    const figureUploads: CheckedUpload[] = images.map((data, i) => ({
      field: 'figure',
      filename: document.figures[i].name,
      data,
      kind: document.figures[i].mediaType === 'image/png' ? 'png' : 'jpeg',
      mediaType: document.figures[i].mediaType,
    }));
    const id = await this.deps.files.withStoredFiles(
      [upload, ...figureUploads],
      async (tx, [source, ...figures]) => {
        figures.forEach((f, i) => {
          document.figures[i].fileId = f.id;
        });
        const values = { sourceFileId: source.id, document };
        const [row] = await tx
          .insert(fullTexts)
          .values({ ...values, ...owner })
          .onConflictDoUpdate({
            target:
              'submissionId' in owner
                ? fullTexts.submissionId
                : 'articleId' in owner
                  ? fullTexts.articleId
                  : fullTexts.pendingArticleId,
            set: { ...values, updatedAt: new Date() },
          })
          .returning({ id: fullTexts.id });
        await this.deps.audit.record(tx, actor, 'fulltext.convert', auditTarget(owner), {
          file: { id: source.id, sha256: source.sha256, size: source.size },
          figures: figures.length,
          problems: problemsOf(document).map((p) => p.kind),
        });
        if ('articleId' in owner) await this.changed(tx, owner.articleId);
        return row.id;
      },
    );
    return this.view(id);
  }

  /**
   * In the change's transaction: the article's kept pages go when it commits (decisions 0018, 0031), and its
   * followers hear it (the issue's archive package holds its JATS and figures: decision 0065).
   */
  private async changed(tx: Tx, articleId: number) {
    await this.deps.changes?.publish(tx, [articleTag(articleId)]);
    await this.deps.events?.emit(tx, 'fulltext.changed', { articleId });
  }

  private async view(id: number): Promise<FullTextView> {
    const [row] = await this.db.select().from(fullTexts).where(eq(fullTexts.id, id));
    if (!row) throw notFound('No such full text.');
    const source = await this.deps.files.get(row.sourceFileId);
    return {
      id: row.id,
      document: row.document,
      problems: problemsOf(row.document),
      sourceName: source.originalName,
      ready: isReady(row.document),
    };
  }

  async of(owner: FullTextOwner): Promise<FullTextView | null> {
    const [row] = await this.db.select({ id: fullTexts.id }).from(fullTexts).where(ownerIs(owner));
    return row ? this.view(row.id) : null;
  }

  /**
   * Sets figures' alt text (figure number → text; an empty text is refused). Refusals name the field
   * (`alt-N`), as the forms show them.
   */
  async setAltText(
    actor: SessionUser,
    owner: FullTextOwner,
    alts: Map<number, string>,
    tx?: Tx,
  ): Promise<void> {
    const run = async (t: Tx | Db) => {
      const [row] = await t.select().from(fullTexts).where(ownerIs(owner));
      if (!row) throw notFound('There is no full text to describe.');
      const doc = structuredClone(row.document);
      const errors: Record<string, string> = {};
      for (const [n, text] of alts) {
        const figure = doc.figures[n - 1];
        if (!figure) continue;
        const value = text.trim();
        if (!value) errors[`alt-${n}`] = `Please describe figure ${n} for readers who cannot see it.`;
        else if (value.length > ALT_TEXT_MAX)
          errors[`alt-${n}`] =
            `The alt text of figure ${n} is too long (at most ${ALT_TEXT_MAX} characters).`;
        else figure.alt = value;
      }
      if (Object.keys(errors).length) throw invalid('Please correct the marked fields.', errors);
      const changed = doc.figures.filter((f, i) => f.alt !== row.document.figures[i].alt).length;
      if (!changed) return;
      await t.update(fullTexts).set({ document: doc }).where(eq(fullTexts.id, row.id));
      await this.deps.audit.record(t as Tx, actor, 'fulltext.alt_text', auditTarget(owner), {
        figures: changed,
      });
      if ('articleId' in owner) await this.changed(t as Tx, owner.articleId);
    };
    if (tx) await run(tx);
    else await this.db.transaction(run);
  }

  /**
   * Gives references the DOI the Word file did not have (reference number → DOI; an empty text is left out).
   * The reference then links to doi.org, in the HTML and the JATS alike. Refusals name the field (`doi-N`).
   */
  async setReferenceDois(actor: SessionUser, owner: FullTextOwner, dois: Map<number, string>): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(fullTexts).where(ownerIs(owner));
      if (!row) throw notFound('There is no full text to change.');
      const doc = structuredClone(row.document);
      const errors: Record<string, string> = {};
      let changed = 0;
      for (const [n, text] of dois) {
        const ref = doc.references[n - 1];
        const value = text.trim();
        if (!ref || !value) continue;
        const doi = DOI_IN_FIELD.exec(value)?.[1];
        if (!doi || doi.length > 200) {
          errors[`doi-${n}`] = `The DOI of reference ${n} must look like 10.1234/abc.2025.001.`;
          continue;
        }
        if (ref.doi === doi) continue;
        // The link this form added before goes; the reference's own text stays as written.
        const old = ref.doi ? `https://doi.org/${ref.doi}` : null;
        const kept = ref.c.filter((x) => !(x.t === 'a' && old && x.href === old && x.c.length === 1));
        while (kept.at(-1)?.t === 'text' && (kept.at(-1) as { v: string }).v === ' ') kept.pop();
        const href = `https://doi.org/${doi}`;
        ref.c = [...kept, { t: 'text', v: ' ' }, { t: 'a', href, c: [{ t: 'text', v: href }] }];
        ref.doi = doi;
        changed++;
      }
      if (Object.keys(errors).length) throw invalid('Please correct the marked fields.', errors);
      if (!changed) return;
      await tx.update(fullTexts).set({ document: doc }).where(eq(fullTexts.id, row.id));
      await this.deps.audit.record(tx, actor, 'fulltext.reference_doi', auditTarget(owner), { references: changed });
      if ('articleId' in owner) await this.changed(tx, owner.articleId);
    });
  }

  /**
   * The editor publishes an article's pending full text (a replaced Word file, after its preview): it takes
   * the place of the live one in one transaction. Refused while a figure has no alt text, as at publishing.
   */
  async publishPending(actor: SessionUser, articleId: number): Promise<FullTextView> {
    const id = await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(fullTexts).where(eq(fullTexts.pendingArticleId, articleId)).for('update');
      if (!row) throw notFound('There is no new full text to publish: upload the Word file first.');
      this.assertDescribed(row.document);
      await tx.delete(fullTexts).where(eq(fullTexts.articleId, articleId));
      await tx
        .update(fullTexts)
        .set({ articleId, pendingArticleId: null, updatedAt: new Date() })
        .where(eq(fullTexts.id, row.id));
      await this.deps.audit.record(tx, actor, 'fulltext.publish', auditTarget({ articleId }), {
        problems: problemsOf(row.document).map((p) => p.kind),
      });
      await this.changed(tx, articleId);
      return row.id;
    });
    return this.view(id);
  }

  /** Refused (400, one field per figure) while a figure has no alt text. */
  private assertDescribed(doc: FullTextDocument) {
    const missing = doc.figures.flatMap((f, i) => (f.alt.trim() ? [] : [i + 1]));
    if (missing.length) {
      throw invalid(
        `Describe ${missing.length === 1 ? `figure ${missing[0]}` : `figures ${missing.join(', ')}`} (alt text) before publishing the full text.`,
        Object.fromEntries(
          missing.map((n) => [`alt-${n}`, `Please describe figure ${n} for readers who cannot see it.`]),
        ),
      );
    }
  }

  /**
   * Inside publishing's transaction: the submission's full text becomes the article's. Refused (400, naming
   * each field) while a figure has no alt text: a reader must never meet a figure nobody described.
   */
  async attach(tx: Tx, submissionId: number, articleId: number): Promise<void> {
    const [row] = await tx.select().from(fullTexts).where(eq(fullTexts.submissionId, submissionId));
    if (!row) return;
    this.assertDescribed(row.document);
    await tx.update(fullTexts).set({ articleId }).where(eq(fullTexts.id, row.id));
  }

  // ---- Readers -----------------------------------------------------------------------------------------

  /** A published article's document as readers get it: null without one, or while a figure lacks alt text. */
  async readerDocument(articleId: number): Promise<FullTextDocument | null> {
    dependsOn(articleTag(articleId));
    const [row] = await this.db
      .select({ document: fullTexts.document })
      .from(fullTexts)
      .where(eq(fullTexts.articleId, articleId));
    return row && isReady(row.document) ? row.document : null;
  }

  /**
   * The article page's full text (HTML, with its heading and the links to the PDF, when the reader may have
   * it, and to the JATS), or null.
   */
  async readerHtml(
    articleId: number,
    opts: { pdfHref: string | null } = { pdfHref: null },
  ): Promise<string | null> {
    const doc = await this.readerDocument(articleId);
    // Under the page's "Full text" heading (h2): sections start at h3.
    return doc
      ? fullTextHtml(doc, {
          figureUrl: (name) => figurePath(articleId, name),
          level: 3,
          page: { pdfHref: opts.pdfHref, jatsHref: jatsPath(articleId) },
        })
      : null;
  }

  /** JATS `<body>`/`<back>` of these articles (those with a full text for readers), for OAI-PMH. */
  async jatsBodies(articleIds: number[]): Promise<Map<number, XmlElement[]>> {
    if (!articleIds.length) return new Map();
    const rows = await this.db
      .select({ articleId: fullTexts.articleId, document: fullTexts.document })
      .from(fullTexts)
      .where(inArray(fullTexts.articleId, articleIds));
    return new Map(
      rows
        .filter((r) => r.articleId !== null && isReady(r.document))
        .map((r) => [
          r.articleId!,
          jatsBody(r.document, {
            figureUrl: (name) => `${this.deps.baseUrl()}${figurePath(r.articleId!, name)}`,
          }),
        ]),
    );
  }

  /** The standalone JATS file of a published article (front matter alone when it has no full text). */
  async jats(articleId: number, opts: { includeUnpublished?: boolean } = {}): Promise<string> {
    const work = await this.deps.works.work(articleId);
    if (!work || (work.status !== 'published' && !opts.includeUnpublished))
      throw notFound('Article not found.');
    const [journal, bodies] = await Promise.all([this.deps.settings.journal(), this.jatsBodies([articleId])]);
    const root = jatsArticle(work, journal, {
      namespace: null,
      dtdVersion: '1.1',
      fullText: bodies.get(articleId),
    });
    return `<?xml version="1.0" encoding="UTF-8"?>\n${JATS_DOCTYPE}\n${renderXml(root, { declaration: false })}`;
  }

  /** One figure of a published article (or, for editors, of an unpublished one or a submission's preview). */
  async figure(owner: FullTextOwner, name: string): Promise<{ file: StoredFile; stream: Readable }> {
    const [row] = await this.db
      .select({ document: fullTexts.document })
      .from(fullTexts)
      .where(ownerIs(owner));
    const figure = row?.document.figures.find((f) => f.name === name);
    if (!figure?.fileId) throw notFound('No such figure.');
    const file = await this.deps.files.get(figure.fileId);
    return { file, stream: await this.deps.files.open(file) };
  }
}
