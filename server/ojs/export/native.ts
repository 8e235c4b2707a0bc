import type { Readable } from 'node:stream';
import { asc, eq, inArray } from 'drizzle-orm';
import { keywordList } from '../../../common/citation.ts';
import { articleAuthors, articleFiles, articles, issues, volumes } from '../../catalog/tables.ts';
import type { Db } from '../../db/client.ts';
import { splitName } from '../../discovery/names.ts';
import type { FileService, StoredFile } from '../../files/service.ts';
import { unprocessable } from '../../errors.ts';
import { storedFiles } from '../../files/tables.ts';
import { PKP_NS } from '../native.ts';
import { type Sink, attr, el, text, writeBase64 } from './sink.ts';

/**
 * A journal's issues and articles as OJS 3.4 Native XML (issue 26, decision 0068): what OJS's own export
 * writes, valid against its schema, and everything `readIssue` (server/ojs/native.ts) reads back. Written
 * issue by issue to a sink: one issue's metadata is read at a time, and each file is streamed from the blob
 * store into base64 (embedded) or into a file of its own beside the XML (referenced by `<href>`).
 */

export type FilesMode =
  | { mode: 'embed' }
  /** Each file written by `write` at `relPath` (under `files/`), the XML naming it by that path. */
  | { mode: 'href'; write: (relPath: string, stream: Readable) => Promise<void> };

export interface NativeDeps {
  files: Pick<FileService, 'open'>;
  /** The journal's language (its articles' unless one says otherwise) and licence. */
  journal: () => Promise<{ language: string; license: { url: string } }>;
}

export type NativeCounts = { issues: number; articles: number; files: number; bytes: number };

/** A BCP 47 tag (`pt-BR`) as an OJS locale (`pt_BR`); `fallback` when it is not one OJS accepts. */
export function ojsLocale(tag: string, fallback = 'en'): string {
  const t = tag.trim().replace('-', '_');
  const m = /^([a-zA-Z]{2,3})(?:_([a-zA-Z]{2}))?$/.exec(t);
  if (!m) return fallback;
  return m[2] ? `${m[1].toLowerCase()}_${m[2].toUpperCase()}` : m[1].toLowerCase();
}

/** Plain text as OJS's HTML: a paragraph per blank-line-separated block. */
export function paragraphs(plain: string): string {
  return plain
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${text(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** A short reference for each section title (its initials, numbered when two share them). */
export function sectionRefs(titles: string[]): Map<string, string> {
  const refs = new Map<string, string>();
  const used = new Set<string>();
  for (const title of titles) {
    if (refs.has(title)) continue;
    const initials =
      title
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .split(/[^A-Za-z0-9]+/)
        .filter(Boolean)
        .map((w) => w[0].toUpperCase())
        .join('')
        .slice(0, 6) || 'SEC';
    let ref = initials;
    for (let n = 2; used.has(ref); n++) ref = `${initials}${n}`;
    used.add(ref);
    refs.set(title, ref);
  }
  return refs;
}

/** An author's name as OJS's given and family names (OJS needs a given name: a single name is one). */
export function ojsName(full: string): { given: string; family: string } {
  const s = splitName(full);
  const family = [s.surname, s.suffix].filter(Boolean).join(' ');
  return s.given ? { given: s.given, family } : { given: family, family: '' };
}

/** A file name safe in a folder: letters, digits, dot, dash, underscore. */
export const safeName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 80) || 'file';

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};
const day = (d: Date) => d.toISOString().slice(0, 10);

type ArticleRow = typeof articles.$inferSelect;
type AuthorRow = typeof articleAuthors.$inferSelect;
type Galley = { label: string; locale: string; file: StoredFile | null; url: string | null };

export class NativeExport {
  readonly counts: NativeCounts = { issues: 0, articles: 0, files: 0, bytes: 0 };

  constructor(
    private readonly db: Db,
    private readonly deps: NativeDeps,
    private readonly files: FilesMode,
  ) {}

  /** The whole journal: `<issues>` with every issue, oldest first. */
  async write(sink: Sink): Promise<NativeCounts> {
    const journal = await this.deps.journal();
    const locale = ojsLocale(journal.language);
    const all = await this.db
      .select({ issue: issues, volume: volumes })
      .from(issues)
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .orderBy(asc(volumes.volumeNumber), asc(issues.issueNumber), asc(issues.id));
    // OJS's schema wants at least one issue: say so before anything is written.
    if (!all.length) throw unprocessable('This journal has no issue yet: there is nothing to export to OJS.');
    await sink.write(
      `<?xml version="1.0" encoding="utf-8"?>\n<issues xmlns="${PKP_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${PKP_NS} native.xsd">\n`,
    );
    for (const { issue, volume } of all) {
      await this.issue(sink, issue, volume, { locale, license: journal.license.url });
      this.counts.issues++;
    }
    await sink.write('</issues>\n');
    return this.counts;
  }

  private async issue(
    sink: Sink,
    issue: typeof issues.$inferSelect,
    volume: typeof volumes.$inferSelect,
    journal: { locale: string; license: string },
  ) {
    const l = journal.locale;
    const rows = await this.db
      .select()
      .from(articles)
      .where(eq(articles.issueId, issue.id))
      .orderBy(asc(articles.firstPage), asc(articles.id));
    const ids = rows.map((r) => r.id);
    const authors = ids.length
      ? await this.db
          .select()
          .from(articleAuthors)
          .where(inArray(articleAuthors.articleId, ids))
          .orderBy(asc(articleAuthors.articleId), asc(articleAuthors.position))
      : [];
    const others = ids.length
      ? await this.db
          .select({ row: articleFiles, file: storedFiles })
          .from(articleFiles)
          .leftJoin(storedFiles, eq(storedFiles.id, articleFiles.fileId))
          .where(inArray(articleFiles.articleId, ids))
          .orderBy(asc(articleFiles.articleId), asc(articleFiles.position))
      : [];
    const pdfIds = rows.map((r) => r.pdfFileId).filter((id): id is number => id !== null);
    const coverIds = issue.coverFileId === null ? [] : [issue.coverFileId];
    const stored = new Map(
      (pdfIds.length || coverIds.length
        ? await this.db
            .select()
            .from(storedFiles)
            .where(inArray(storedFiles.id, [...pdfIds, ...coverIds]))
        : []
      ).map((f) => [f.id, f]),
    );
    const published = rows.some((r) => r.status === 'published');
    const refs = sectionRefs(rows.map((r) => r.section || r.articleType));
    const ident = `<issue_identification>${el('volume', volume.volumeNumber)}${el('number', issue.issueNumber)}${el('year', volume.year)}${el('title', issue.title, { locale: l })}</issue_identification>`;

    await sink.write(
      `<issue published="${published ? 1 : 0}" current="0" access_status="1" url_path="">` +
        `<id type="internal" advice="ignore">${issue.id}</id>` +
        el('description', paragraphs(issue.description), { locale: l }) +
        ident +
        el('date_published', issue.publicationDate) +
        el('last_modified', day(issue.updatedAt)),
    );
    if (refs.size) {
      await sink.write('<sections>');
      for (const [title, ref] of refs) {
        await sink.write(
          `<section ref="${attr(ref)}" seq="0" editor_restricted="0" meta_indexed="1" meta_reviewed="1" abstracts_not_required="0" hide_title="0" hide_author="0" abstract_word_count="0">${el('abbrev', ref, { locale: l })}${el('title', title, { locale: l })}</section>`,
        );
      }
      await sink.write('</sections>');
    }
    const cover = issue.coverFileId === null ? undefined : stored.get(issue.coverFileId);
    if (cover) {
      // OJS's covers are embedded whatever the files option: its schema has no <href> for them.
      await sink.write(
        `<covers><cover locale="${l}">${el('cover_image', cover.originalName)}<cover_image_alt_text></cover_image_alt_text><embed encoding="base64" mime_type="${attr(cover.mediaType)}">`,
      );
      await this.base64(sink, cover);
      await sink.write('</embed></cover></covers>');
    }
    await sink.write('<articles>');
    for (const a of rows) {
      const galleys: Galley[] = [];
      const pdf = a.pdfFileId === null ? undefined : stored.get(a.pdfFileId);
      if (pdf) galleys.push({ label: 'PDF', locale: '', file: pdf, url: null });
      for (const o of others)
        if (o.row.articleId === a.id)
          galleys.push({ label: o.row.label, locale: o.row.locale, file: o.file, url: o.row.url });
      await this.article(sink, a, {
        authors: authors.filter((x) => x.articleId === a.id),
        galleys,
        sectionRef: refs.get(a.section || a.articleType)!,
        ident,
        locale: ojsLocale(a.language, l),
        license: a.licenseUrl || journal.license,
        issueDate: issue.publicationDate,
      });
      this.counts.articles++;
    }
    await sink.write('</articles></issue>\n');
  }

  private async article(
    sink: Sink,
    a: ArticleRow,
    ctx: {
      authors: AuthorRow[];
      galleys: Galley[];
      sectionRef: string;
      ident: string;
      locale: string;
      license: string;
      issueDate: string | null;
    },
  ) {
    const l = ctx.locale;
    const published = a.status === 'published';
    const status = published ? 3 : 1;
    const date = published ? (a.publicationDate ?? ctx.issueDate) : null;
    await sink.write(
      `<article xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" locale="${l}" date_submitted="${day(a.createdAt)}" status="${status}" submission_progress="" current_publication_id="${a.id}" stage="production">` +
        `<id type="internal" advice="ignore">${a.id}</id>`,
    );
    // One submission_file per stored file (its id the stored file's): what the galleys name.
    for (const g of ctx.galleys) {
      if (!g.file) continue;
      const f = g.file;
      await sink.write(
        `<submission_file id="${f.id}" created_at="${day(f.createdAt)}" file_id="${f.id}" stage="proof" viewable="false" genre="Article Text">` +
          el('name', f.originalName, { locale: l }) +
          `<file id="${f.id}" filesize="${f.size}" extension="${attr(extensionOf(f.originalName))}">`,
      );
      if (this.files.mode === 'embed') {
        await sink.write(`<embed encoding="base64" mime_type="${attr(f.mediaType)}">`);
        await this.base64(sink, f);
        await sink.write('</embed>');
      } else {
        const rel = `files/${a.id}/${f.id}-${safeName(f.originalName)}`;
        await this.files.write(rel, await this.deps.files.open(f));
        this.counts.files++;
        this.counts.bytes += f.size;
        await sink.write(`<href src="${attr(rel)}" mime_type="${attr(f.mediaType)}"/>`);
      }
      await sink.write('</file></submission_file>');
    }

    const primary = ctx.authors.find((x) => x.primaryContact) ?? ctx.authors[0];
    const pages =
      a.firstPage === null
        ? ''
        : a.lastPage === null || a.lastPage === a.firstPage
          ? String(a.firstPage)
          : `${a.firstPage}-${a.lastPage}`;
    const parts: string[] = [
      `<publication version="1" status="${status}" url_path="" seq="0"${date ? ` date_published="${date}"` : ''} section_ref="${attr(ctx.sectionRef)}" access_status="0"${primary ? ` primary_contact_id="${primary.id}"` : ''}>`,
      `<id type="internal" advice="ignore">${a.id}</id>`,
      a.doi ? `<id type="doi" advice="update">${text(a.doi)}</id>` : '',
      el('title', a.title, { locale: l }),
      el('subtitle', a.subtitle, { locale: l }),
      el('abstract', paragraphs(a.abstract), { locale: l }),
      el('licenseUrl', ctx.license),
      el('copyrightHolder', a.copyrightHolder, { locale: l }),
      el('copyrightYear', a.copyrightYear),
    ];
    const words = keywordList(a.keywords);
    if (words.length)
      parts.push(`<keywords locale="${l}">${words.map((w) => el('keyword', w)).join('')}</keywords>`);
    if (ctx.authors.length) {
      parts.push('<authors>');
      for (const [seq, x] of ctx.authors.entries()) {
        const name = ojsName(x.name);
        parts.push(
          `<author include_in_browse="true" user_group_ref="Author" seq="${seq}" id="${x.id}"${x === primary ? ' primary_contact="true"' : ''}>` +
            `<givenname locale="${l}">${text(name.given)}</givenname>` +
            el('familyname', name.family, { locale: l }) +
            el('affiliation', x.affiliation, { locale: l }) +
            el('country', x.country) +
            `<email>${text(x.email)}</email>` +
            el('orcid', x.orcid ? `https://orcid.org/${x.orcid}` : '') +
            '</author>',
        );
      }
      parts.push('</authors>');
    }
    for (const g of ctx.galleys) {
      if (!g.file && !g.url) continue;
      parts.push(
        `<article_galley${g.locale ? ` locale="${attr(ojsLocale(g.locale, l))}"` : ''} approved="true">` +
          el('name', g.label, { locale: l }) +
          '<seq>0</seq>' +
          (g.file ? `<submission_file_ref id="${g.file.id}"/>` : `<remote src="${attr(g.url!)}"/>`) +
          '</article_galley>',
      );
    }
    if (a.references.length)
      parts.push(`<citations>${a.references.map((c) => el('citation', c)).join('')}</citations>`);
    parts.push(ctx.ident, el('pages', pages), '</publication></article>');
    await sink.write(parts.join(''));
  }

  private async base64(sink: Sink, file: StoredFile) {
    this.counts.bytes += await writeBase64(sink, await this.deps.files.open(file));
    this.counts.files++;
  }
}
