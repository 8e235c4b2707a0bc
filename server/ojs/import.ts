import { createReadStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { JOURNALS } from '../cache/dependencies.ts';
import { requireJournalId } from '../db/scope.ts';
import { fileEnds } from './files.ts';
import {
  type ApplyDeps,
  type ApplyOptions,
  type IssueContext,
  type Place,
  Tally,
  applyArticle,
  applyIssue,
  applyUser,
  issueForArticle,
} from './apply.ts';
import { PKP_NS, inLocale, isRefused, readArticle, readIssue } from './native.ts';
import { type ImportReport, legacyPaths } from './tables.ts';
import { type OjsGroup, readGroup, readUser } from './users.ts';
import { XmlReadError, countElements, readRecords, removeFiles } from './xml.ts';

/**
 * One import run over OJS export files into the journal at hand (issue 26, decision 0066): each file looked
 * at first (its root element, its namespace, whether it ends: a file that is not an OJS export, or was cut
 * off, refuses the whole run before anything is written), its records counted for the progress, then each
 * file streamed record by record and each record applied (apply.ts). The same code runs as the job and as
 * the CLI command; a run that died part-way is run again from the start, and what it had done is found
 * unchanged by the fingerprints.
 */

export type ExportKind = 'issues' | 'articles' | 'users';

export type ExportFile = { path: string; name: string };

export type RunOptions = ApplyOptions & {
  files: ExportFile[];
  /** The journal's path on the OJS site, for the redirects (legacy_paths). */
  oldPath: string | null;
  /** Where `<embed>` contents are decoded to (the import's own folder). */
  tmpDir: string;
  /** After each record: how far the run is. Thrown errors end the run (as a crash would). */
  onProgress?: (p: { done: number; total: number; current: string }) => Promise<void> | void;
  /** Aborted: the run stops between two records by throwing `signal.reason`. */
  signal?: AbortSignal;
};

/** A whole run refused: the files are not what an import reads (nothing was written). */
export class ImportRefused extends Error {}

const ROOTS: Record<string, ExportKind> = {
  issues: 'issues',
  issue: 'issues',
  articles: 'articles',
  article: 'articles',
  PKPUsers: 'users',
};

const RECORDS: Record<ExportKind, string[]> = {
  issues: ['issue'],
  articles: ['article'],
  users: ['user_group', 'user'],
};

const PEEK = 64 * 1024;

/**
 * What an export file is, from its first and last bytes (no parse of the whole): refused with the reason when
 * it is not XML, not an OJS export (root element, namespace), declares a DOCTYPE, or does not end with its
 * root element's end (cut off).
 */
export async function exportKind(file: ExportFile): Promise<ExportKind> {
  const refuse = (why: string): never => {
    throw new ImportRefused(`${file.name}: ${why}`);
  };
  let size: number;
  try {
    size = (await stat(file.path)).size;
  } catch {
    return refuse('the file cannot be read.');
  }
  if (size === 0) refuse('the file is empty.');
  const ends = await fileEnds(file.path, size, { head: PEEK, tail: 4096 });
  const head = ends.head.toString('utf8').replace(/^\uFEFF/, '');
  const tail = ends.tail.toString('latin1');
  // The prolog: an XML declaration, comments, processing instructions; a DOCTYPE is refused (xml.ts says why).
  const prolog = /^\s*(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*)*/.exec(head)![0];
  const rest = head.slice(prolog.length);
  if (/^<!DOCTYPE/i.test(rest))
    refuse(
      'the file declares a DOCTYPE: an OJS export has none, and entities it might declare are not read.',
    );
  const root = /^<(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)([^>]*)>/.exec(rest);
  if (!root) refuse('the file is not XML (it does not begin with an element).');
  const [, prefix, name, attrs] = root!;
  const kind = ROOTS[name];
  if (!kind)
    refuse(
      `the file is an XML file with <${name}> at its root, not an OJS export (issues, articles or users).`,
    );
  const ns =
    new RegExp(`\\sxmlns${prefix ? `:${prefix}` : ''}\\s*=\\s*["']([^"']*)["']`).exec(attrs)?.[1] ?? '';
  if (ns !== PKP_NS)
    refuse(`its <${name}> is ${ns ? `in the namespace ${ns}` : 'in no namespace'}, not OJS's (${PKP_NS}).`);
  const end = new RegExp(`</${prefix ? `${prefix}:` : ''}${name}\\s*>\\s*$`);
  if (!end.test(tail)) refuse(`the file ends before <${name}> is closed: it was cut off.`);
  return kind!;
}

/** How many records the files hold (issues, articles, users), by a cheap scan of their bytes. */
async function totalOf(files: Array<ExportFile & { kind: ExportKind }>): Promise<number> {
  let total = 0;
  for (const f of files) {
    const names = f.kind === 'users' ? ['user'] : ['issue', 'article'];
    const counts = await countElements(createReadStream(f.path), names);
    total += Object.values(counts).reduce((a, b) => a + b, 0);
  }
  return total;
}

/** A journal's old path on the OJS site: lower-case letters, digits, `.`, `_`, `-`. */
export const OLD_PATH = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * Runs an import in the journal at hand; returns its report. Throws `ImportRefused` (before anything is
 * written) when a file is not an OJS export or the old path is another journal's, or, part-way, when a file
 * turns out not to be well-formed (the records before it stay imported, each whole).
 */
export async function runImport(deps: ApplyDeps, options: RunOptions): Promise<ImportReport> {
  const journalId = requireJournalId();
  const tally = new Tally();
  const kinds = [];
  for (const f of options.files) kinds.push({ ...f, kind: await exportKind(f) });
  const oldPath = options.oldPath?.trim().toLowerCase() || null;
  if (oldPath) {
    if (!OLD_PATH.test(oldPath))
      throw new ImportRefused(
        `The old path "${options.oldPath}" is not a journal path (letters, digits, . _ -).`,
      );
    const [taken] = await deps.db.select().from(legacyPaths).where(eq(legacyPaths.path, oldPath));
    if (taken && taken.journalId !== journalId)
      throw new ImportRefused(`The old path "${oldPath}" is another journal's on this site.`);
    if (!taken && !options.dryRun) {
      // The directory reads old paths with the journals: every process hears of it by the change feed.
      await deps.db.transaction(async (tx) => {
        await tx.insert(legacyPaths).values({ path: oldPath, journalId }).onConflictDoNothing();
        await deps.changes?.publish(tx, [JOURNALS]);
      });
    }
  }
  // Users first: accounts exist before anything names them.
  kinds.sort((a, b) => Number(b.kind === 'users') - Number(a.kind === 'users'));
  const total = await totalOf(kinds);
  let done = 0;
  const progress = async (current: string) => {
    done += 1;
    await options.onProgress?.({ done: Math.min(done, total), total, current });
  };
  await options.onProgress?.({ done: 0, total, current: '' });
  await mkdir(options.tmpDir, { recursive: true });

  for (const file of kinds) {
    const groups = new Map<string, OjsGroup>();
    const records = readRecords(createReadStream(file.path, { highWaterMark: 256 * 1024 }), {
      records: new Set(RECORDS[file.kind]),
      tmpDir: options.tmpDir,
    });
    try {
      for await (const el of records) {
        try {
          options.signal?.throwIfAborted();
          const at: Place = { file: file.name, path: el.path, line: el.line };
          if (el.name === 'user_group') {
            const g = readGroup(el);
            if (g.key) groups.set(g.key, g);
            continue;
          }
          if (el.name === 'user') {
            const read = readUser(el);
            for (const n of read.notices) tally.warn({ file: file.name, ...n }, n.message);
            if (!read.value) tally.count('users', 'refused');
            else await applyUser(deps, options, tally, read.value, groups, at);
            await progress(`user ${read.value?.username ?? ''}`.trim());
            continue;
          }
          if (el.name === 'issue') {
            const read = readIssue(el);
            for (const n of read.notices) tally.warn({ file: file.name, ...n }, n.message);
            const issue = read.value;
            const issueCtx = await applyIssue(deps, options, tally, issue, at);
            await progress(`issue ${issue.volume ?? ''}.${issue.number}`);
            for (const a of issue.articles) {
              options.signal?.throwIfAborted();
              const aAt: Place = { file: file.name, path: a.path, line: a.line };
              if (isRefused(a)) {
                tally.refuse(aAt, `The article “${a.title || a.ojsId || '?'}” is not imported: ${a.refused}`);
                tally.count('articles', 'refused');
              } else await applyArticle(deps, options, tally, a, issueCtx, aAt);
              await progress(`article ${isRefused(a) ? a.title : inLocale(a.current.title, a.locale)}`);
            }
            continue;
          }
          if (el.name === 'article') {
            const read = readArticle(el);
            for (const n of read.notices) tally.warn({ file: file.name, ...n }, n.message);
            const a = read.value;
            if (isRefused(a)) {
              tally.refuse(at, `The article “${a.title || a.ojsId || '?'}” is not imported: ${a.refused}`);
              tally.count('articles', 'refused');
            } else {
              const issueCtx: IssueContext | null = await issueForArticle(deps, options, tally, a, at);
              if (!issueCtx) {
                tally.refuse(
                  at,
                  `The article “${inLocale(a.current.title, a.locale)}” names no issue: not imported.`,
                );
                tally.count('articles', 'refused');
              } else await applyArticle(deps, options, tally, a, issueCtx, at);
            }
            await progress(`article ${isRefused(a) ? a.title : inLocale(a.current.title, a.locale)}`);
          }
        } finally {
          removeFiles(el);
        }
      }
    } catch (err) {
      if (err instanceof XmlReadError)
        throw new ImportRefused(`${file.name}${err.line ? `:${err.line}` : ''}: ${err.message}`);
      throw err;
    }
  }
  return tally.report;
}

/** The report in lines: counts, then each notice with its file and line. */
export function reportLines(report: ImportReport, dryRun = false): string[] {
  const c = (k: 'issues' | 'articles' | 'users') => {
    const r = report[k];
    return `${k}: ${r.created} ${dryRun ? 'to create' : 'created'}, ${r.updated} ${dryRun ? 'to update' : 'updated'}, ${r.unchanged} unchanged, ${r.refused} refused`;
  };
  const lines = [c('issues'), c('articles'), c('users')];
  const groups = Object.entries(report.unmappedGroups);
  if (groups.length)
    lines.push(`OJS groups with no role here: ${groups.map(([g, n]) => `${g} (${n})`).join(', ')}`);
  for (const n of report.notices) lines.push(`${n.file}:${n.line}: ${n.level}: ${n.message}`);
  return lines;
}
