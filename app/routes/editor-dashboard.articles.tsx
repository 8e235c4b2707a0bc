import { ARTICLE_FACT_FIELDS, articleUploadFieldsSchema, parseId } from '../../common/schemas.ts';
import { ARTICLE_PDF_RULE, ARTICLE_WORD_RULE, fileLimit } from '../../common/upload-rules.ts';
import { altFields, saveFixes, storeWordFile } from '../../server/fulltext/editing.ts';
import { presentFullText } from '../../server/fulltext/present.ts';
import { fullTextHtml } from '../../server/fulltext/html.ts';
import articleCss from '../styles/article.css?url';
import { checkUpload } from '../../server/files/uploads.ts';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { ArticleEditor } from '../components/articles/ArticleEditor.tsx';
import { ArticlesTable } from '../components/articles/ArticlesTable.tsx';
import { UploadArticleForm } from '../components/articles/UploadArticleForm.tsx';
import { AUTHOR_FIELDS } from '../components/articles/article-form-values.ts';
import { pageOf, requireEditor } from '../components/dashboard/guard.server.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import { type PostedForm, asClientError, validateForm } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/editor-dashboard.articles';

// A new full text's preview is styled as readers will see it.
export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: articleCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Articles · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const PAGE_SIZE = 20;

export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const url = new URL(request.url);
  const { page, limit, offset } = pageOf(url, PAGE_SIZE);
  const editId = parseId(url.searchParams.get('edit'));
  const [list, issues, editing, fullText, pending] = await Promise.all([
    context.services.catalog.editorArticles({ limit, offset }),
    context.services.catalog.editorIssues(),
    editId !== null
      ? context.services.catalog.article(editId, { includeUnpublished: true }).catch(() => null)
      : Promise.resolve(null),
    editId !== null ? context.services.fulltext.of({ articleId: editId }) : Promise.resolve(null),
    // A replaced Word file waits here for its preview; readers keep the live one (decision 0035).
    editId !== null ? context.services.fulltext.of({ pendingArticleId: editId }) : Promise.resolve(null),
  ]);
  // Usage counts beside each article; the list still shows if they cannot be read.
  const usage = await context.services.metrics
    .totals(list.articles.map((a) => a.id))
    .catch((err: unknown) => {
      context.services.log.warn({ err }, 'Usage counts could not be read');
      return null;
    });
  return {
    ...list,
    articles: list.articles.map((a) => ({ ...a, usage: usage?.get(a.id) ?? null })),
    page,
    size: PAGE_SIZE,
    issues,
    editing,
    maxPdfBytes: context.services.config.MAX_ARTICLE_PDF_SIZE,
    maxWordBytes: context.services.config.MAX_MANUSCRIPT_SIZE,
    fullText: editing && fullText ? presentFullText(fullText) : null,
    pending:
      editing && pending
        ? {
            ...presentFullText(pending),
            html: fullTextHtml(pending.document, {
              figureUrl: (name) => `/api/editor/articles/${editing.id}/fulltext/pending/figures/${name}`,
              level: 4,
            }),
          }
        : null,
  };
}

/** The text fields of a posted article form, author rows included (with one added or removed on request). */
function articleValues(form: PostedForm, intent: string) {
  const values: Record<string, string> = {};
  for (const key of [
    'id',
    'title',
    'abstract',
    'keywords',
    'pages',
    'doi',
    'issue_id',
    ...ARTICLE_FACT_FIELDS,
  ])
    values[key] = form.text(key);
  let rows = Array.from(
    { length: Math.max(1, Math.min(30, parseId(form.text('author_count')) ?? 1)) },
    (_, i) => Object.fromEntries(AUTHOR_FIELDS.map((f) => [f, form.text(`author_${f}_${i}`)])),
  );
  if (intent === 'add-author') rows.push(Object.fromEntries(AUTHOR_FIELDS.map((f) => [f, ''])));
  if (intent.startsWith('remove-author:') && rows.length > 1) {
    const at = Number(intent.slice('remove-author:'.length));
    rows = rows.filter((_, i) => i !== at);
  }
  rows.forEach((row, i) => {
    for (const f of AUTHOR_FIELDS) values[`author_${f}_${i}`] = row[f];
  });
  values.author_count = String(rows.length);
  return { values, authors: rows };
}

export async function action({ context, request }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const max = context.services.config.MAX_ARTICLE_PDF_SIZE;
  const read = await readIntentForm(request, {
    files: {
      pdf: fileLimit(ARTICLE_PDF_RULE, max),
      word: fileLimit(ARTICLE_WORD_RULE, context.services.config.MAX_MANUSCRIPT_SIZE),
    },
  });
  if (!read.ok) return read.answer;
  const { form, intent: button } = read;
  const { values, authors } = articleValues(form, button);
  // Adding or removing an author row belongs to the form it was pressed in.
  const intent = button === 'add-author' || button.startsWith('remove-author:') ? form.text('form') : button;
  const fail = (status: number, message: string, errors: Record<string, string> = {}) =>
    replyRefused(intent, clientError(status, message, errors), values);
  const done = (message: string) => replyDone(intent, message);
  const catalog = context.services.catalog;
  const id = parseId(values.id);
  if (
    [
      'edit',
      'replace-pdf',
      'unpublish',
      'republish',
      'fulltext',
      'alt',
      'pending-fix',
      'pending-publish',
    ].includes(intent) &&
    id === null
  ) {
    return fail(404, 'No such article.');
  }

  if (intent !== button) {
    // Not a refusal: the form comes back with one author more or less, as typed.
    return replyDone(intent, '', { values });
  }
  try {
    switch (intent) {
      case 'upload':
      case 'edit': {
        // An emptied article fact is posted as '' and clears it; the upload form has none of them.
        const facts: readonly string[] = intent === 'edit' ? ARTICLE_FACT_FIELDS : [];
        const input = Object.fromEntries(
          Object.entries({ ...values, authors: JSON.stringify(authors) }).filter(
            ([k, v]) => v.trim() !== '' || facts.includes(k),
          ),
        );
        const parsed = validateForm(articleUploadFieldsSchema, input);
        const errors: Record<string, string> = parsed.ok ? {} : { ...parsed.refusal.errors };
        authors.forEach((a, i) => {
          if (!a.superscript.trim()) errors[`authors.${i}.superscript`] ??= 'Author superscript is required.';
        });
        const pdfFile = intent === 'upload' ? form.file('pdf') : null;
        if (intent === 'upload' && !pdfFile) errors.pdf = 'Please choose the article PDF.';
        if (!parsed.ok || Object.keys(errors).length) {
          return fail(400, Object.values(errors)[0] ?? 'Invalid request.', errors);
        }
        if (intent === 'edit') {
          const article = await catalog.updateArticle(auth.user, id!, parsed.data);
          return done(`“${article.title}” updated.`);
        }
        const pdf = await checkUpload(pdfFile!, { ...ARTICLE_PDF_RULE, maxBytes: max });
        // The Word file (optional) is converted first: one that cannot be is refused before anything is published.
        const wordFile = form.file('word');
        const known = { ...parsed.data, authors: parsed.data.authors };
        const word = wordFile
          ? await checkUpload(wordFile, {
              ...ARTICLE_WORD_RULE,
              maxBytes: context.services.config.MAX_MANUSCRIPT_SIZE,
            })
          : null;
        const conversion = word ? await context.services.fulltext.convert(word, known) : undefined;
        const article = await catalog.uploadArticle(auth.user, parsed.data, pdf);
        // The full text waits for its preview under Edit: nothing of it is live before the editor publishes it.
        const view = word
          ? await context.services.fulltext.store(
              auth.user,
              { pendingArticleId: article.id },
              word,
              known,
              conversion,
            )
          : null;
        return done(
          `“${article.title}” published in volume ${article.volume_number}, issue ${article.issue_number}.${
            view ? ' Its full text is ready to preview and publish under Edit.' : ''
          }`,
        );
      }
      case 'replace-pdf': {
        const file = form.file('pdf');
        if (!file)
          return fail(400, 'Please choose the article PDF.', { pdf: 'Please choose the article PDF.' });
        const pdf = await checkUpload(file, { ...ARTICLE_PDF_RULE, maxBytes: max });
        const article = await catalog.replaceArticlePdf(auth.user, id!, pdf);
        return done(`The PDF of “${article.title}” was replaced.`);
      }
      case 'fulltext': {
        const view = await storeWordFile(
          context.services,
          auth.user,
          { pendingArticleId: id! },
          form.file('word') ?? undefined,
        );
        const n = view.problems.length;
        return done(
          `Word file converted: ${view.document.words.toLocaleString('en')} words. Readers still see the published full text until you publish this one below.${n ? ` ${n === 1 ? 'One thing needs' : `${n} things need`} a look.` : ''}`,
        );
      }
      case 'pending-fix':
      case 'pending-publish': {
        const fixes = form.values();
        for (const [name, value] of Object.entries(fixes))
          if (/^(alt|doi)-\d{1,4}$/.test(name)) values[name] = value;
        await saveFixes(context.services, auth.user, { pendingArticleId: id! }, fixes);
        if (intent === 'pending-fix') return done('Saved. The new full text is not published yet.');
        await context.services.fulltext.publishPending(auth.user, id!);
        return done('The new full text is on the article page.');
      }
      case 'alt': {
        await context.services.fulltext.setAltText(auth.user, { articleId: id! }, altFields(form.values()));
        return done('Alt text saved.');
      }
      case 'unpublish':
      case 'republish': {
        const article = await catalog.setArticleStatus(
          auth.user,
          id!,
          intent === 'unpublish' ? 'unpublished' : 'published',
        );
        return done(`“${article.title}” ${intent === 'unpublish' ? 'unpublished' : 'republished'}.`);
      }
      default:
        return fail(400, 'Unknown action.');
    }
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return fail(refused.status, refused.message, refused.errors);
  }
}

export default function Articles({ loaderData, actionData }: Route.ComponentProps) {
  const { articles, total, page, size, issues, editing, maxPdfBytes, maxWordBytes, fullText, pending } =
    loaderData;
  // An author row added or removed is an answer without a message: nothing to show, and the forms are not re-keyed.
  const shown = actionData?.message ? actionData : undefined;
  const round = shown?.at ?? 0;
  return (
    <section aria-labelledby="articles-title">
      <h1 id="articles-title">Articles</h1>
      <ActionResult result={shown} />
      {editing ? (
        <ArticleEditor
          editing={editing}
          page={page}
          issues={issues}
          maxPdfBytes={maxPdfBytes}
          maxWordBytes={maxWordBytes}
          fullText={fullText}
          pending={pending}
          result={actionData}
          round={round}
        />
      ) : null}
      <ArticlesTable articles={articles} total={total} page={page} size={size} />
      <UploadArticleForm
        issues={issues}
        maxPdfBytes={maxPdfBytes}
        maxWordBytes={maxWordBytes}
        result={actionData}
        round={round}
      />
    </section>
  );
}
