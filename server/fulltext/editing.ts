import { ARTICLE_WORD_RULE } from '../../common/upload-rules.ts';
import type { SessionUser } from '../accounts/service.ts';
import { conflict, invalid, isDomainError } from '../errors.ts';
import { type RawUpload, checkUpload } from '../files/uploads.ts';
import type { Services } from '../services.ts';
import type { KnownFront } from './convert.ts';
import type { FullTextOwner, FullTextView } from './service.ts';

/**
 * The editor's use cases around a full text that need more than the full-text service: what the journal
 * already knows of its owner (the submission, the article), and the fixes posted by the preview's forms. Page
 * actions and the API call the same functions.
 */

/** Reference number → DOI, from fields named `doi-N` (the forms' and the API's). */
export function doiFields(fields: Record<string, string | undefined>): Map<number, string> {
  const out = new Map<number, string>();
  for (const [name, value] of Object.entries(fields)) {
    const m = /^doi-(\d{1,4})$/.exec(name);
    if (m && value !== undefined) out.set(Number(m[1]), value);
  }
  return out;
}

/** Figure number → alt text, from fields named `alt-N` (the forms' and the API's). */
export function altFields(fields: Record<string, string | undefined>): Map<number, string> {
  const out = new Map<number, string>();
  for (const [name, value] of Object.entries(fields)) {
    const m = /^alt-(\d{1,4})$/.exec(name);
    if (m && value !== undefined) out.set(Number(m[1]), value);
  }
  return out;
}

/**
 * The editor's fixes from the preview, as posted (page forms and the API alike): alt text (`alt-N`) and
 * references' DOIs (`doi-N`). Both are tried, so one form shows every refusal at once.
 */
export async function saveFixes(
  services: Pick<Services, 'fulltext'>,
  actor: SessionUser,
  owner: FullTextOwner,
  fields: Record<string, string | undefined>,
): Promise<void> {
  const alts = altFields(fields);
  const dois = new Map([...doiFields(fields)].filter(([, v]) => v.trim() !== ''));
  const errors: Record<string, string> = {};
  for (const run of [
    alts.size ? () => services.fulltext.setAltText(actor, owner, alts) : null,
    dois.size ? () => services.fulltext.setReferenceDois(actor, owner, dois) : null,
  ]) {
    if (!run) continue;
    try {
      await run();
    } catch (err) {
      // By its shape (isDomainError): page actions run this from the pages' bundle, with its own classes.
      if (!isDomainError(err) || err.code !== 'invalid') throw err;
      Object.assign(errors, err.errors ?? {});
    }
  }
  if (Object.keys(errors).length) throw invalid('Please correct the marked fields.', errors);
}

/**
 * Checks a Word file field and stores its conversion for `owner`, against what the journal knows of it (page
 * actions and the API alike).
 */
export async function storeWordFile(
  services: Pick<Services, 'config' | 'fulltext' | 'submissions' | 'catalog'>,
  actor: SessionUser,
  owner: FullTextOwner,
  file: RawUpload | undefined,
): Promise<FullTextView> {
  if (!file)
    throw invalid('Please choose the Word file (.docx).', {
      word: 'Please choose the Word file (.docx).',
    });
  const word = await checkUpload(file, {
    ...ARTICLE_WORD_RULE,
    maxBytes: services.config.MAX_MANUSCRIPT_SIZE,
  });
  return services.fulltext.store(actor, owner, word, await knownFront(services, owner, actor));
}

/**
 * What the journal knows of an accepted submission or an article: the front matter the file's copy gives way
 * to. Only an accepted, unpublished submission takes a Word file (else `conflict`).
 */
export async function knownFront(
  services: Pick<Services, 'submissions' | 'catalog'>,
  owner: FullTextOwner,
  actor: SessionUser,
): Promise<KnownFront> {
  if ('submissionId' in owner) {
    const s = await services.submissions.detail(owner.submissionId, actor);
    if (s.status !== 'accepted' || s.articleId)
      throw conflict(
        s.articleId
          ? `This submission is already published as article ${s.articleId}: give the Word file to the article.`
          : 'Only an accepted submission gets its full text from a Word file.',
      );
    return { title: s.title, abstract: s.abstract, keywords: s.keywords, authors: s.authors };
  }
  const a = await services.catalog.article('articleId' in owner ? owner.articleId : owner.pendingArticleId, {
    includeUnpublished: true,
  });
  return { title: a.title, abstract: a.abstract, keywords: a.keywords, authors: a.authors };
}
