import type { Readable } from 'node:stream';
import { asc, eq } from 'drizzle-orm';
import { articleAuthors, articles, issues, volumes } from '../../catalog/tables.ts';
import type { Db } from '../../db/client.ts';
import type { FileService } from '../../files/service.ts';
import type { FullTextService } from '../../fulltext/service.ts';
import { safeName } from './native.ts';

/**
 * The whole journal as a folder of JATS (issue 26, decision 0068): a folder per issue and per article with its
 * `article.xml` (the same JATS the article page and the preservation bags serve: `FullTextService.jats`), its
 * PDF and its figures, and a top-level `manifest.json` listing every article, in order, with its files. One
 * article's files are read at a time, each streamed from the blob store to its file.
 */

export interface JatsDeps {
  files: Pick<FileService, 'get' | 'open'>;
  fulltext: Pick<FullTextService, 'jats' | 'readerDocument'>;
}

/** Writes one file of the folder (`relPath` under it). */
export type WriteFile = (relPath: string, data: string | Buffer | Readable) => Promise<void>;

export type JatsManifest = {
  journal: string;
  made_at: string;
  articles: Array<{
    id: number;
    title: string;
    authors: string[];
    doi: string | null;
    status: 'published' | 'unpublished';
    volume: number;
    issue: number;
    year: number;
    folder: string;
    files: { jats: string; pdf: string | null; figures: string[] };
  }>;
};

export async function writeJatsFolder(
  db: Db,
  deps: JatsDeps,
  write: WriteFile,
  about: { journal: string; madeAt: Date },
): Promise<JatsManifest> {
  const rows = await db
    .select({
      id: articles.id,
      title: articles.title,
      doi: articles.doi,
      status: articles.status,
      pdfFileId: articles.pdfFileId,
      volume: volumes.volumeNumber,
      issue: issues.issueNumber,
      year: volumes.year,
    })
    .from(articles)
    .innerJoin(issues, eq(issues.id, articles.issueId))
    .innerJoin(volumes, eq(volumes.id, issues.volumeId))
    .orderBy(asc(volumes.volumeNumber), asc(issues.issueNumber), asc(articles.firstPage), asc(articles.id));
  const manifest: JatsManifest = {
    journal: about.journal,
    made_at: about.madeAt.toISOString(),
    articles: [],
  };
  const position = new Map<string, number>();
  for (const a of rows) {
    const issueFolder = `v${a.volume}-i${a.issue}`;
    const n = (position.get(issueFolder) ?? 0) + 1;
    position.set(issueFolder, n);
    const folder = `${issueFolder}/${String(n).padStart(2, '0')}-article-${a.id}`;
    const files = { jats: `${folder}/article.xml`, pdf: null as string | null, figures: [] as string[] };
    await write(files.jats, await deps.fulltext.jats(a.id, { includeUnpublished: true }));
    if (a.pdfFileId !== null) {
      files.pdf = `${folder}/article.pdf`;
      await write(files.pdf, await deps.files.open(await deps.files.get(a.pdfFileId)));
    }
    const doc = await deps.fulltext.readerDocument(a.id);
    for (const figure of doc?.figures ?? []) {
      if (!figure.fileId) continue;
      const name = `${folder}/figures/${safeName(figure.name)}`;
      await write(name, await deps.files.open(await deps.files.get(figure.fileId)));
      files.figures.push(name);
    }
    const authors = await db
      .select({ name: articleAuthors.name })
      .from(articleAuthors)
      .where(eq(articleAuthors.articleId, a.id))
      .orderBy(asc(articleAuthors.position));
    manifest.articles.push({
      id: a.id,
      title: a.title,
      authors: authors.map((x) => x.name),
      doi: a.doi,
      status: a.status,
      volume: a.volume,
      issue: a.issue,
      year: a.year,
      folder,
      files,
    });
  }
  await write('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
