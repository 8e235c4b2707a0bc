import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { ArticleType } from '../../common/limits.ts';
import { RESET_JOB } from '../accounts/password-reset.ts';
import { noPassword } from '../accounts/passwords.ts';
import { journalMemberships, users } from '../accounts/tables.ts';
import { CATALOG_INDEX, issueArticlesTag, issueTag, volumeTag } from '../cache/dependencies.ts';
import { articleChanged, catalogChanged, issuesChanged } from '../catalog/context.ts';
import type { ArticleFields, ArticleAuthorFields } from '../catalog/articles.ts';
import type { CatalogService } from '../catalog/service.ts';
import { articleFiles, articles, issues, volumes } from '../catalog/tables.ts';
import type { ChangeFeed } from '../cache/changes.ts';
import type { Clock } from '../clock.ts';
import type { Db, Tx } from '../db/client.ts';
import { asSite, requireJournalId } from '../db/scope.ts';
import type { FileOnDisk, FileService, StoredFile } from '../files/service.ts';
import type { JobQueue } from '../jobs/queue.ts';
import { reviewerProfiles } from '../review/tables.ts';
import { FileRefused, checkedImage, checkedPdf, localFileOf, otherFile } from './files.ts';
import { type OjsArticle, type OjsGalley, type OjsIssue, type OjsSection, inLocale } from './native.ts';
import {
  type ImportCounts,
  type ImportedKind,
  type ImportReport,
  PDF_GALLEY,
  importedRecords,
} from './tables.ts';
import { type OjsGroup, type OjsUser, roleOf } from './users.ts';

/**
 * Writing what an OJS export holds (issue 26, decision 0066): one issue, one article, one user at a time,
 * each whole in one transaction of its own (an article with its files, through the catalog's own insert and
 * its `article.changed` event, so the cache, search, similarity, DOI and preservation follow as after any
 * change). Every record made keeps its OJS id and a fingerprint of what was imported (imported_records): the
 * same record again is left alone, a changed one is written again. A dry run plans the same and writes nothing.
 */

export type Outcome = 'created' | 'updated' | 'unchanged' | 'refused';

export type ApplyDeps = {
  db: Db;
  catalog: CatalogService;
  files: FileService;
  jobs: JobQueue;
  clock: Clock;
  /** Kept answers and the journal directory, in every process: told when a journal gains an old path. */
  changes?: Pick<ChangeFeed, 'publish'>;
};

export type ApplyOptions = {
  runId: number | null;
  dryRun: boolean;
  filesFrom: string | null;
  sendPasswordLinks: boolean;
};

export type Place = { file: string; path: string; line: number };

/** What a run has found so far: the counts and notices of its report. */
export class Tally {
  readonly report: ImportReport = {
    issues: counts(),
    articles: counts(),
    users: counts(),
    notices: [],
    unmappedGroups: {},
  };

  count(kind: 'issues' | 'articles' | 'users', outcome: Outcome) {
    this.report[kind][outcome] += 1;
  }

  warn(at: Place, message: string) {
    this.report.notices.push({ ...at, message, level: 'warning' });
  }

  refuse(at: Place, message: string) {
    this.report.notices.push({ ...at, message, level: 'refused' });
  }
}

function counts(): ImportCounts {
  return { created: 0, updated: 0, unchanged: 0, refused: 0 };
}

/** A hash of what was imported (fields in a fixed order), so the same export again finds it unchanged. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * OJS's HTML abstract as our abstract field keeps it: plain text, paragraphs apart by a blank line (the
 * article page splits them there), no markup, entities read.
 */
export function abstractText(html: string): string {
  const text = html
    .replace(/<\s*(script|style)\b[\s\S]*?<\s*\/\s*\1\s*>/gi, '')
    .replace(/<\s*br\s*\/?\s*>/gi, '\n')
    .replace(/<\s*\/\s*(p|div|li|h[1-6]|blockquote|tr)\s*>/gi, '\n\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .replace(/[ \t\r\f\v\u00a0]+/g, ' ')
        .replace(/ *\n */g, '\n')
        .trim(),
    )
    .filter(Boolean)
    .join('\n\n');
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, e: string) => {
    if (e[0] === '#') {
      const code = e[1].toLowerCase() === 'x' ? Number.parseInt(e.slice(2), 16) : Number(e.slice(1));
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '';
    }
    return NAMED[e.toLowerCase()] ?? whole;
  });
}

/** An OJS locale (`en_US`, `fr_CA`) as BCP 47 (`en-US`). */
export const bcp47 = (locale: string) => locale.replace('_', '-');

/** OJS's section as our article type: reviews, data papers, and research for the rest. */
export function articleTypeOf(section: string): ArticleType {
  if (/review/i.test(section)) return 'Review Article';
  if (/\bdata\b/i.test(section)) return 'Novel Data Collection Article';
  return 'Research Article';
}

/** "12-25" as its first and last page; a single page as both; anything else none. */
export function pagesOf(pages: string): { first: number; last: number } | null {
  const range = /^\s*(\d{1,6})\s*[-–—]\s*(\d{1,6})\s*$/.exec(pages);
  if (range && Number(range[1]) <= Number(range[2]))
    return { first: Number(range[1]), last: Number(range[2]) };
  const single = /^\s*(\d{1,6})\s*$/.exec(pages);
  return single ? { first: Number(single[1]), last: Number(single[1]) } : null;
}

/** The issue number OJS wrote: an integer, or its leading integer (with a warning), or none. */
export function issueNumberOf(text: string): { number: number | null; warning: string | null } {
  const t = text.trim();
  if (/^\d{1,6}$/.test(t)) return { number: Number(t), warning: null };
  const lead = /^(\d{1,6})\D/.exec(t);
  if (lead) return { number: Number(lead[1]), warning: `The issue number "${t}" is read as ${lead[1]}.` };
  return {
    number: null,
    warning: t ? `The issue number "${t}" is not a number: the next free number is given.` : null,
  };
}

async function recordOf(tx: Tx, kind: ImportedKind, sourceId: string) {
  const [row] = await tx
    .select()
    .from(importedRecords)
    .where(
      and(
        eq(importedRecords.source, 'ojs'),
        eq(importedRecords.kind, kind),
        eq(importedRecords.sourceId, sourceId),
      ),
    );
  return row ?? null;
}

async function keepRecord(
  tx: Tx,
  kind: ImportedKind,
  sourceId: string,
  localId: number,
  print: string,
  runId: number | null,
) {
  await tx
    .insert(importedRecords)
    .values({ kind, sourceId, localId, fingerprint: print, runId })
    .onConflictDoUpdate({
      target: [
        importedRecords.journalId,
        importedRecords.source,
        importedRecords.kind,
        importedRecords.sourceId,
      ],
      set: { localId, fingerprint: print, runId, updatedAt: sql`now()` },
    });
}

// ---- Issues ------------------------------------------------------------------------------------------------

export type IssueContext = {
  /** The local issue the articles go in; null in a dry run when it would be made. */
  issueId: number | null;
  published: boolean;
  datePublished: string | null;
  sections: OjsSection[];
};

/** An issue's volume, number and facts: made, updated, or found unchanged. */
export async function applyIssue(
  deps: ApplyDeps,
  options: ApplyOptions,
  tally: Tally,
  issue: OjsIssue,
  at: Place,
): Promise<IssueContext> {
  const ctx: IssueContext = {
    issueId: null,
    published: issue.published,
    datePublished: issue.datePublished,
    sections: issue.sections,
  };
  let volumeNumber = issue.volume;
  const year = issue.year ?? (issue.datePublished ? Number(issue.datePublished.slice(0, 4)) : null);
  if (volumeNumber === null) {
    volumeNumber = year ?? new Date(deps.clock.now()).getUTCFullYear();
    tally.warn(at, `The issue names no volume: it goes in volume ${volumeNumber} (its year).`);
  }
  const volumeYear = year ?? new Date(deps.clock.now()).getUTCFullYear();
  const { number, warning } = issueNumberOf(issue.number);
  if (warning) tally.warn(at, warning);
  else if (number === null) tally.warn(at, 'The issue has no number: the next free number is given.');
  let cover: FileOnDisk | null = null;
  if (issue.cover) {
    cover = await checkedImage(issue.cover.embedded, issue.cover.name);
    if (!cover) tally.warn(at, `The cover “${issue.cover.name}” is not a PNG or JPEG image: left out.`);
  }
  const values = {
    title: inLocale(issue.title) || '',
    description: abstractText(inLocale(issue.description)),
    publicationDate: issue.datePublished,
    publicationMonth: issue.datePublished ? Number(issue.datePublished.slice(5, 7)) : null,
  };
  const print = fingerprint({ volumeNumber, volumeYear, number, ...values, cover: cover?.sha256 ?? null });
  const sourceId = issue.ojsId !== null ? String(issue.ojsId) : null;

  // Found: by its OJS id, else by its volume and number (an issue already on the site).
  const found = async (tx: Tx) => {
    const record = sourceId ? await recordOf(tx, 'issue', sourceId) : null;
    if (record) {
      const [row] = await tx.select({ id: issues.id }).from(issues).where(eq(issues.id, record.localId));
      if (row) return { id: row.id, print: record.fingerprint };
    }
    if (number === null) return null;
    const [row] = await tx
      .select({ id: issues.id })
      .from(issues)
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .where(and(eq(volumes.volumeNumber, volumeNumber!), eq(issues.issueNumber, number)));
    return row ? { id: row.id, print: null } : null;
  };

  if (options.dryRun) {
    const existing = await found(deps.db);
    ctx.issueId = existing?.id ?? null;
    tally.count('issues', !existing ? 'created' : existing.print === print ? 'unchanged' : 'updated');
    return ctx;
  }

  const before = await found(deps.db);
  if (before && before.print === print) {
    ctx.issueId = before.id;
    tally.count('issues', 'unchanged');
    return ctx;
  }
  const catalog = deps.catalog;
  const work = async (tx: Tx, stored: StoredFile[]) => {
    const coverFileId = stored[0]?.id ?? null;
    const existing = await found(tx);
    let issueId: number;
    if (existing) {
      issueId = existing.id;
      await tx
        .update(issues)
        .set({ ...values, title: values.title || `Issue ${number ?? ''}`.trim(), coverFileId })
        .where(eq(issues.id, issueId));
      // Its articles' records change with it (OAI-PMH datestamps): as an editor's edit of an issue does.
      await tx
        .update(articles)
        .set({ updatedAt: new Date(deps.clock.now()) })
        .where(eq(articles.issueId, issueId));
    } else {
      await tx
        .insert(volumes)
        .values({ title: `Volume ${volumeNumber}`, volumeNumber: volumeNumber!, year: volumeYear })
        .onConflictDoNothing();
      const [volume] = await tx.select().from(volumes).where(eq(volumes.volumeNumber, volumeNumber!));
      let issueNumber = number;
      if (issueNumber === null) {
        const [{ next }] = await tx
          .select({ next: sql<number>`coalesce(max(${issues.issueNumber}), 0)::int + 1` })
          .from(issues)
          .where(eq(issues.volumeId, volume.id));
        issueNumber = next;
      }
      const [row] = await tx
        .insert(issues)
        .values({
          volumeId: volume.id,
          issueNumber,
          ...values,
          title: values.title || `Issue ${issueNumber}`,
          coverFileId,
        })
        .returning({ id: issues.id });
      issueId = row.id;
      await catalogChanged(catalog, tx, volumeTag(volume.id));
    }
    if (sourceId) await keepRecord(tx, 'issue', sourceId, issueId, print, options.runId);
    await deps.catalog.deps.audit.record(
      tx,
      null,
      existing ? 'issue.update' : 'issue.create',
      { type: 'issue', id: issueId },
      { source: 'ojs', ojsId: issue.ojsId, runId: options.runId },
    );
    await catalogChanged(catalog, tx, CATALOG_INDEX, issueTag(issueId));
    await issuesChanged(catalog, tx, [issueId]);
    return { issueId, updated: !!existing };
  };
  const result = await deps.files.withStoredFiles(cover ? [cover] : [], work);
  ctx.issueId = result.issueId;
  tally.count('issues', result.updated ? 'updated' : 'created');
  return ctx;
}

/**
 * The issue an article of an `<articles>` export names (volume, number, year): found, or made (with a
 * warning) when the site has none; null when it names none.
 */
export async function issueForArticle(
  deps: ApplyDeps,
  options: ApplyOptions,
  tally: Tally,
  article: OjsArticle,
  at: Place,
): Promise<IssueContext | null> {
  const ident = article.current.issue;
  if (!ident || (ident.volume === null && !ident.number)) return null;
  const { number } = issueNumberOf(ident.number);
  const volumeNumber = ident.volume ?? ident.year;
  if (volumeNumber !== null && number !== null) {
    const [row] = await deps.db
      .select({ id: issues.id, date: issues.publicationDate })
      .from(issues)
      .innerJoin(volumes, eq(volumes.id, issues.volumeId))
      .where(and(eq(volumes.volumeNumber, volumeNumber), eq(issues.issueNumber, number)));
    if (row) return { issueId: row.id, published: true, datePublished: row.date, sections: [] };
  }
  tally.warn(
    at,
    `Its issue (volume ${ident.volume ?? '?'}, number ${ident.number || '?'}) is not on the site: it is made.`,
  );
  const made = await applyIssue(
    deps,
    options,
    new Tally(),
    {
      ojsId: null,
      doi: null,
      urlPath: '',
      published: true,
      volume: ident.volume,
      number: ident.number,
      year: ident.year,
      title: {},
      description: {},
      datePublished: null,
      sections: [],
      cover: null,
      articles: [],
      path: article.path,
      line: article.line,
    },
    at,
  );
  return made;
}

// ---- Articles ----------------------------------------------------------------------------------------------

type Planned = {
  fields: Omit<ArticleFields, 'file'>;
  pdf: FileOnDisk | null;
  others: Array<{ label: string; locale: string; file: FileOnDisk | null; url: string | null }>;
  galleys: OjsGalley[];
  /** The galley that became the article's PDF (its old addresses lead to the PDF's download). */
  pdfGalley: OjsGalley | null;
  fileIds: number[];
};

/** What an OJS article becomes here, its files checked; throws `FileRefused` for one that cannot come. */
async function planArticle(
  deps: ApplyDeps,
  options: ApplyOptions,
  tally: Tally,
  a: OjsArticle,
  issue: IssueContext,
  at: Place,
): Promise<Planned> {
  const p = a.current;
  const locale = a.locale || 'en';
  const title = [inLocale(p.prefix, locale), inLocale(p.title, locale)].filter(Boolean).join(' ');
  const section = inLocale(issue.sections.find((s) => s.ref === p.sectionRef)?.title ?? {}, locale);
  const keywordList = p.keywords[locale] ?? Object.values(p.keywords).find((k) => k.length) ?? [];
  const pages = pagesOf(p.pages);
  if (p.pages && !pages) tally.warn(at, `The pages "${p.pages}" are not a range: left out.`);
  const authors: ArticleAuthorFields[] = p.authors.map((au) => ({
    name: `${inLocale(au.given, locale)} ${inLocale(au.family, locale)}`.trim(),
    email: au.email,
    affiliation: au.affiliations
      .map((af) => inLocale(af.name, locale))
      .filter(Boolean)
      .join('; '),
    superscript: '',
    orcid: au.orcid || null,
    country: /^[A-Z]{2}$/.test(au.country) ? au.country : '',
    ror: au.affiliations.find((af) => af.ror)?.ror ?? null,
    primaryContact: au.primaryContact || (au.ojsId !== null && au.ojsId === p.primaryContactId),
  }));
  if (authors.length && !authors.some((au) => au.primaryContact)) authors[0].primaryContact = true;
  const published = issue.published && p.status === 3;
  const fields: Omit<ArticleFields, 'file'> = {
    issueId: issue.issueId ?? 0,
    title,
    subtitle: inLocale(p.subtitle, locale),
    abstract: abstractText(inLocale(p.abstract, locale)),
    keywords: keywordList.join(', '),
    firstPage: pages?.first ?? null,
    lastPage: pages?.last ?? null,
    doi: a.doi,
    articleType: articleTypeOf(section),
    section,
    language: bcp47(p.languages[0] ?? a.locale ?? ''),
    licenseUrl: /^https?:\/\//i.test(p.licenseUrl) ? p.licenseUrl : '',
    copyrightHolder: inLocale(p.copyrightHolder, locale),
    copyrightYear: p.copyrightYear,
    references: p.citations,
    status: published ? 'published' : 'unpublished',
    publicationDate:
      p.datePublished ?? issue.datePublished ?? new Date(deps.clock.now()).toISOString().slice(0, 10),
    authors,
  };
  const byId = new Map(a.files.map((f) => [f.id, f]));
  let pdf: FileOnDisk | null = null;
  let pdfGalley: OjsGalley | null = null;
  const others: Planned['others'] = [];
  for (const g of p.galleys) {
    if (g.fileRef === null) {
      if (g.remote && /^https?:\/\/\S+$/i.test(g.remote))
        others.push({ label: g.label, locale: g.locale, file: null, url: g.remote });
      else if (g.remote)
        tally.warn(at, `The galley “${g.label}” links to "${g.remote}", not a web address: left out.`);
      continue;
    }
    const f = byId.get(g.fileRef)!;
    const isPdf = f.extension === 'pdf' || f.mimeType === 'application/pdf' || /\.pdf$/i.test(f.name);
    const local = await localFileOf(f, options.filesFrom);
    if (isPdf && !pdf) {
      pdf = await checkedPdf(local, f.name);
      pdfGalley = g;
    } else others.push({ label: g.label, locale: g.locale, file: otherFile(local, f), url: null });
  }
  if (!pdf && p.galleys.length) tally.warn(at, 'It has no PDF galley: it is imported without a PDF.');
  return {
    fields,
    pdf,
    others,
    galleys: p.galleys,
    pdfGalley,
    fileIds: [...new Set(p.galleys.map((g) => g.fileRef).filter((id): id is number => id !== null))],
  };
}

/** One article: planned, matched, then written whole with its files in one transaction (or left alone). */
export async function applyArticle(
  deps: ApplyDeps,
  options: ApplyOptions,
  tally: Tally,
  a: OjsArticle,
  issue: IssueContext,
  at: Place,
): Promise<Outcome> {
  let plan: Planned;
  try {
    plan = await planArticle(deps, options, tally, a, issue, at);
  } catch (err) {
    if (!(err instanceof FileRefused)) throw err;
    tally.refuse(at, `The article “${inLocale(a.current.title, a.locale)}” is not imported: ${err.message}`);
    tally.count('articles', 'refused');
    return 'refused';
  }
  const sourceId = a.ojsId !== null ? String(a.ojsId) : null;
  const journalId = requireJournalId();

  // Found: by its OJS id, else by its DOI (imported before under another id, or already here), else (no OJS
  // id) by its title in its issue.
  let localId: number | null = null;
  let previous: string | null = null;
  const record = sourceId ? await recordOf(deps.db, 'article', sourceId) : null;
  if (record) {
    const [row] = await deps.db
      .select({ id: articles.id })
      .from(articles)
      .where(eq(articles.id, record.localId));
    if (row) {
      localId = row.id;
      previous = record.fingerprint;
    }
  }
  if (plan.fields.doi) {
    const holders = await asSite(() =>
      deps.db
        .select({ id: articles.id, journalId: articles.journalId })
        .from(articles)
        .where(sql`lower(${articles.doi}) = lower(${plan.fields.doi})`),
    );
    const other = holders.find((h) => h.id !== localId);
    if (other && localId === null && other.journalId === journalId) localId = other.id;
    else if (other) {
      tally.warn(at, `The DOI ${plan.fields.doi} is another article’s on this site: left out.`);
      plan.fields.doi = null;
    }
  }
  if (localId === null && sourceId === null && issue.issueId !== null) {
    const [row] = await deps.db
      .select({ id: articles.id })
      .from(articles)
      .where(and(eq(articles.issueId, issue.issueId), eq(articles.title, plan.fields.title)));
    if (row) localId = row.id;
  }
  const print = fingerprint({
    ...plan.fields,
    issueId: issue.issueId,
    pdf: plan.pdf?.sha256 ?? null,
    others: plan.others.map((o) => ({
      label: o.label,
      locale: o.locale,
      sha: o.file?.sha256 ?? null,
      url: o.url,
    })),
    galleys: plan.galleys.map((g) => g.ojsId),
    fileIds: plan.fileIds,
  });
  const outcome: Outcome = localId === null ? 'created' : previous === print ? 'unchanged' : 'updated';
  if (options.dryRun || outcome === 'unchanged') {
    tally.count('articles', outcome);
    return outcome;
  }
  const uploads: FileOnDisk[] = [
    ...(plan.pdf ? [plan.pdf] : []),
    ...plan.others.flatMap((o) => (o.file ? [o.file] : [])),
  ];
  const catalog = deps.catalog;
  try {
    await deps.files.withStoredFiles(uploads, async (tx, stored) => {
      const pdfFile = plan.pdf ? stored[0] : null;
      const rest = stored.slice(plan.pdf ? 1 : 0);
      const fields: ArticleFields = { ...plan.fields, issueId: issue.issueId!, file: pdfFile };
      let id: number;
      let oldIssue: number | null = null;
      if (localId === null) id = await catalog.insertArticle(tx, null, fields);
      else {
        id = localId;
        const [before] = await tx
          .select({ issueId: articles.issueId })
          .from(articles)
          .where(eq(articles.id, id));
        oldIssue = before.issueId;
        await catalog.rewriteArticle(tx, null, id, fields);
        await tx.delete(articleFiles).where(eq(articleFiles.articleId, id));
      }
      let next = 0;
      const rows = plan.others.map((o) => ({
        articleId: id,
        position: ++next,
        label: o.label,
        locale: o.locale,
        fileId: o.file ? rest.shift()!.id : null,
        url: o.url,
      }));
      if (rows.length) await tx.insert(articleFiles).values(rows);
      if (sourceId) await keepRecord(tx, 'article', sourceId, id, print, options.runId);
      for (const g of plan.galleys)
        if (g.ojsId !== null)
          await keepRecord(
            tx,
            'galley',
            String(g.ojsId),
            id,
            g === plan.pdfGalley ? PDF_GALLEY : '',
            options.runId,
          );
      for (const f of plan.fileIds) await keepRecord(tx, 'file', String(f), id, '', options.runId);
      const tags = [CATALOG_INDEX, issueArticlesTag(issue.issueId!)];
      if (oldIssue !== null && oldIssue !== issue.issueId) tags.push(issueArticlesTag(oldIssue));
      await articleChanged(catalog, tx, id, ...tags);
    });
  } catch (err) {
    const message = (err as Error).message?.split('\n')[0] ?? String(err);
    tally.refuse(at, `The article “${plan.fields.title}” is not imported: ${message}`);
    tally.count('articles', 'refused');
    return 'refused';
  }
  tally.count('articles', outcome);
  return outcome;
}

// ---- Users -------------------------------------------------------------------------------------------------

/** One OJS account: matched by e-mail or username, or made; its role in this journal; a reviewer's profile. */
export async function applyUser(
  deps: ApplyDeps,
  options: ApplyOptions,
  tally: Tally,
  u: OjsUser,
  groups: Map<string, OjsGroup>,
  at: Place,
): Promise<Outcome> {
  const { role, reviewer, unmapped } = roleOf(u.groups, groups);
  for (const g of unmapped) tally.report.unmappedGroups[g] = (tally.report.unmappedGroups[g] ?? 0) + 1;
  const fullName = `${u.given} ${u.family}`.trim() || u.username;
  const passwordHash =
    u.password.kind === 'bcrypt'
      ? u.password.hash
      : noPassword(`ojs-${u.password.kind === 'legacy' ? u.password.scheme : u.password.kind}`);
  const status = u.disabled ? ('suspended' as const) : ('approved' as const);
  const print = fingerprint({
    username: u.username,
    email: u.email.toLowerCase(),
    fullName,
    affiliation: u.affiliation,
    orcid: u.orcid,
    role,
    reviewer,
    status,
    password: passwordHash,
    interests: u.interests,
  });
  const sourceId = u.username.toLowerCase();
  const record = await recordOf(deps.db, 'user', sourceId);
  const [existing] = await deps.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${u.email}) or lower(${users.username}) = lower(${u.username})`)
    .orderBy(sql`lower(${users.email}) = lower(${u.email}) desc`)
    .limit(1);
  const outcome: Outcome =
    record && existing && record.localId === existing.id
      ? record.fingerprint === print
        ? 'unchanged'
        : 'updated'
      : existing
        ? 'updated'
        : 'created';
  if (!role) {
    tally.warn(
      at,
      `The account ${u.username} has no role this journal has (${u.groups.join(', ') || 'none'}): only the account is imported.`,
    );
  }
  if (options.dryRun || outcome === 'unchanged') {
    tally.count('users', outcome);
    return outcome;
  }
  try {
    await deps.db.transaction(async (tx) => {
      let userId: number;
      if (existing) userId = existing.id;
      else {
        const [row] = await tx
          .insert(users)
          .values({
            username: u.username,
            passwordHash,
            email: u.email,
            fullName,
            contactNumber: '',
            institution: u.affiliation,
            orcid: u.orcid || null,
          })
          .returning({ id: users.id });
        userId = row.id;
      }
      if (role) {
        // An account already a member keeps its role here; one new to the journal comes in approved (it was
        // a member of the journal on OJS) or, disabled there, suspended.
        await tx
          .insert(journalMemberships)
          .values({ userId, role, status })
          .onConflictDoNothing({ target: [journalMemberships.journalId, journalMemberships.userId] });
      }
      if (reviewer) {
        const [profile] = await tx
          .select({ id: reviewerProfiles.id })
          .from(reviewerProfiles)
          .where(
            sql`${reviewerProfiles.userId} = ${userId} or lower(${reviewerProfiles.email}) = lower(${u.email})`,
          )
          .limit(1);
        if (!profile) {
          await tx.insert(reviewerProfiles).values({
            userId,
            name: fullName,
            email: u.email,
            affiliation: u.affiliation,
            interests: u.interests
              .split(/[,;]/)
              .map((s) => s.trim())
              .filter(Boolean),
            orcid: u.orcid || null,
            createdAt: deps.clock.date(),
          });
        }
      }
      await keepRecord(tx, 'user', sourceId, userId, print, options.runId);
      // A new account without a usable password gets the forgotten-password link, by the same job.
      if (!existing && options.sendPasswordLinks && u.password.kind !== 'bcrypt' && !u.disabled) {
        await deps.jobs.enqueue(
          tx,
          RESET_JOB,
          { identifier: u.username },
          { key: `ojs-password-link:${userId}` },
        );
      }
    });
  } catch (err) {
    tally.refuse(at, `The account ${u.username} is not imported: ${(err as Error).message.split('\n')[0]}`);
    tally.count('users', 'refused');
    return 'refused';
  }
  tally.count('users', outcome);
  return outcome;
}
