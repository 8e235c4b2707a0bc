import type { Db } from '../db/client.ts';
import {
  insertArticle,
  publishNew,
  replaceArticlePdf,
  rewriteArticle,
  setArticleStatus,
  updateArticle,
  uploadArticle,
} from './articles.ts';
import type { CatalogContext, CatalogDeps } from './context.ts';
import {
  articleById,
  articleFile,
  issueCover,
  articlePdf,
  browseIndex,
  editorArticles,
  editorIssues,
  editorVolumes,
  issueArticles,
  latestArticles,
  papers,
  publicTree,
  publishedPage,
} from './read.ts';
import { createIssue, createVolume, updateIssue, updateVolume } from './volumes.ts';

/** A use case's arguments after the shared context. */
type Args<F> = F extends (ctx: CatalogContext, ...args: infer A) => unknown ? A : never;

/**
 * The catalog (volumes, issues, published articles): one object for the routes, pages, jobs and the seed to
 * call, each method one use case in its own file, sharing the context of context.ts: reading (read.ts), the
 * editors' changes to volumes and issues (volumes.ts) and to articles (articles.ts).
 */
export class CatalogService implements CatalogContext {
  constructor(
    readonly db: Db,
    readonly deps: CatalogDeps,
  ) {}

  // ---- Reading (read.ts) ------------------------------------------------------------------------

  /** Volumes, newest first, each with its issues and their published articles. */
  publicTree(...args: Args<typeof publicTree>) {
    return publicTree(this, ...args);
  }

  /** The browse tree without the articles: volumes, their issues, how many published articles each holds. */
  browseIndex(...args: Args<typeof browseIndex>) {
    return browseIndex(this, ...args);
  }

  /** One issue's published articles, in page order. */
  issueArticles(...args: Args<typeof issueArticles>) {
    return issueArticles(this, ...args);
  }

  /** One article as readers see it; unpublished articles only for `includeUnpublished` (editors). */
  article(...args: Args<typeof articleById>) {
    return articleById(this, ...args);
  }

  /** One page of the published articles, newest first. */
  publishedPage(...args: Args<typeof publishedPage>) {
    return publishedPage(this, ...args);
  }

  /** The latest published articles. */
  latest(...args: Args<typeof latestArticles>) {
    return latestArticles(this, ...args);
  }

  papers(...args: Args<typeof papers>) {
    return papers(this, ...args);
  }

  /** The stored PDF of an article, for the download route (which decides who may have it). */
  articlePdf(...args: Args<typeof articlePdf>) {
    return articlePdf(this, ...args);
  }

  /** One of an article's other files kept here, for its download route (which decides who may have it). */
  articleFile(...args: Args<typeof articleFile>) {
    return articleFile(this, ...args);
  }
  issueCover(...args: Args<typeof issueCover>) {
    return issueCover(this, ...args);
  }

  editorVolumes(...args: Args<typeof editorVolumes>) {
    return editorVolumes(this, ...args);
  }

  editorIssues(...args: Args<typeof editorIssues>) {
    return editorIssues(this, ...args);
  }

  editorArticles(...args: Args<typeof editorArticles>) {
    return editorArticles(this, ...args);
  }

  // ---- Volumes and issues (volumes.ts) ----------------------------------------------------------

  createVolume(...args: Args<typeof createVolume>) {
    return createVolume(this, ...args);
  }

  /** Creates the next issue of a volume: issue numbers are given in order (1, 2, 3, …). */
  createIssue(...args: Args<typeof createIssue>) {
    return createIssue(this, ...args);
  }

  /** Changes a volume's title, number and year. */
  updateVolume(...args: Args<typeof updateVolume>) {
    return updateVolume(this, ...args);
  }

  /** Changes an issue's title, description and month. */
  updateIssue(...args: Args<typeof updateIssue>) {
    return updateIssue(this, ...args);
  }

  // ---- Articles (articles.ts) -------------------------------------------------------------------

  /** Unpublishes (hidden from readers, kept for editors) or republishes an article. */
  setArticleStatus(...args: Args<typeof setArticleStatus>) {
    return setArticleStatus(this, ...args);
  }

  /** Edits an article's metadata and authors (its PDF stays). */
  updateArticle(...args: Args<typeof updateArticle>) {
    return updateArticle(this, ...args);
  }

  /** Replaces an article's PDF, all or nothing. */
  replaceArticlePdf(...args: Args<typeof replaceArticlePdf>) {
    return replaceArticlePdf(this, ...args);
  }

  uploadArticle(...args: Args<typeof uploadArticle>) {
    return uploadArticle(this, ...args);
  }

  /** Stores the PDF and publishes the article with its authors, all or nothing; returns its id. */
  publishNew(...args: Args<typeof publishNew>) {
    return publishNew(this, ...args);
  }

  /** Inserts an article and its authors inside the caller's transaction; returns its id. */
  insertArticle(...args: Args<typeof insertArticle>) {
    return insertArticle(this, ...args);
  }

  /** Replaces an article's fields, authors and PDF inside the caller's transaction (an import's update). */
  rewriteArticle(...args: Args<typeof rewriteArticle>) {
    return rewriteArticle(this, ...args);
  }
}
