import { Form, Link, useLocation } from 'react-router';
import { articleUploadFieldsSchema, parseId } from '../../common/schemas.ts';
import { ARTICLE_PDF_RULE, ARTICLE_WORD_RULE, fileLimit, formatBytes } from '../../common/upload-rules.ts';
import { altFields, presentFullText, saveFixes, storeWordFile } from '../../server/fulltext/routes.ts';
import { fullTextHtml } from '../../server/fulltext/html.ts';
import { FigureAltFields } from '../components/fulltext/FigureAltFields.tsx';
import { ReferenceDoiFields } from '../components/fulltext/ReferenceDoiFields.tsx';
import articleCss from '../styles/article.css?url';
import { ProblemList, WordFileField } from '../components/fulltext/WordFileParts.tsx';
import { checkUpload } from '../../server/files/uploads.ts';
import { ActionResult, refusalFor } from '../components/dashboard/ActionResult.tsx';
import { ArticleFields } from '../components/dashboard/ArticleFields.tsx';
import { FileField } from '../components/FileField.tsx';
import { Pagination } from '../components/dashboard/Pagination.tsx';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
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
/** Beside a file field after a refused post: the browser does not keep a chosen file when the page is shown again. */
const CHOOSE_AGAIN = 'If you chose a PDF, please choose it again.';
const AUTHOR_FIELDS = ['name', 'email', 'affiliation', 'superscript', 'orcid'] as const;

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
  for (const key of ['id', 'title', 'abstract', 'keywords', 'pages', 'doi', 'issue_id'])
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
    ['edit', 'replace-pdf', 'unpublish', 'republish', 'fulltext', 'alt', 'pending-fix', 'pending-publish'].includes(
      intent,
    ) &&
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
        const input = Object.fromEntries(
          Object.entries({ ...values, authors: JSON.stringify(authors) }).filter(([, v]) => v.trim() !== ''),
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

function editValues(a: NonNullable<Route.ComponentProps['loaderData']['editing']>): Record<string, string> {
  const values: Record<string, string> = {
    id: String(a.id),
    title: a.title,
    abstract: a.abstract,
    keywords: a.keywords,
    pages: a.pages ?? '',
    doi: a.doi ?? '',
    issue_id: String(a.issue_id),
    author_count: String(a.authors.length),
  };
  a.authors.forEach((au, i) => {
    for (const f of AUTHOR_FIELDS) values[`author_${f}_${i}`] = au[f] ?? '';
  });
  return values;
}

export default function Articles({ loaderData, actionData }: Route.ComponentProps) {
  const { articles, total, page, size, issues, editing, maxPdfBytes, maxWordBytes, fullText, pending } =
    loaderData;
  const location = useLocation();
  const upload = refusalFor(actionData, 'upload');
  const edit = refusalFor(actionData, 'edit');
  const replace = refusalFor(actionData, 'replace-pdf');
  const convert = refusalFor(actionData, 'fulltext');
  const alt = refusalFor(actionData, 'alt');
  const pendingFix = refusalFor(actionData, 'pending-fix');
  const pendingPublish = refusalFor(actionData, 'pending-publish');
  const pendingRefused = Object.keys(pendingPublish.values).length ? pendingPublish : pendingFix;
  // An author row added or removed is an answer without a message: nothing to show, and the form is not re-keyed.
  const shown = actionData?.message ? actionData : undefined;
  const round = shown?.at ?? 0;
  return (
    <section aria-labelledby="articles-title">
      <h1 id="articles-title">Articles</h1>
      <ActionResult result={shown} />

      {editing ? (
        <div className="panel">
          <h2 id="edit-article-heading">Edit “{editing.title}”</h2>
          <p>
            <Link to={{ search: page > 1 ? `?page=${page}` : '' }}>Close the editor</Link>
          </p>
          <Form
            method="post"
            noValidate
            aria-labelledby="edit-article-heading"
            key={`edit-${editing.id}-${round}`}
          >
            <input type="hidden" name="form" value="edit" />
            <input type="hidden" name="id" value={editing.id} />
            <ArticleFields
              prefix="edit-article"
              values={Object.keys(edit.values).length ? edit.values : editValues(editing)}
              errors={edit.errors}
              issues={issues}
            />
            <button type="submit" name="intent" value="edit" className="button button--primary">
              Save the article
            </button>
          </Form>
          <Form
            method="post"
            encType="multipart/form-data"
            noValidate
            aria-labelledby="replace-pdf-title"
            className="dash-replace"
            key={`pdf-${editing.id}-${round}`}
          >
            <h3 id="replace-pdf-title">Replace the PDF</h3>
            <input type="hidden" name="id" value={editing.id} />
            <FileField
              id="replace-pdf"
              rule={ARTICLE_PDF_RULE}
              maxBytes={maxPdfBytes}
              label="New PDF"
              required
              hint={`A PDF, up to ${formatBytes(maxPdfBytes)}.`}
              error={replace.errors.pdf}
              reminder={replace.errors.pdf ? CHOOSE_AGAIN : undefined}
            />
            <button type="submit" name="intent" value="replace-pdf" className="button">
              Replace the PDF
            </button>
          </Form>
          <Form
            method="post"
            encType="multipart/form-data"
            noValidate
            aria-labelledby="fulltext-title"
            className="dash-replace"
            key={`word-${editing.id}-${round}`}
          >
            <h3 id="fulltext-title">Full text from the Word file</h3>
            <p>
              {fullText
                ? fullText.ready
                  ? `Shown on the article page and in its JATS XML (from ${fullText.source}, ${fullText.words.toLocaleString('en')} words).`
                  : `Not shown to readers until every figure has alt text (from ${fullText.source}).`
                : 'None yet: the final Word file (.docx) becomes the full text on the article page and in its JATS XML.'}{' '}
              A new Word file is converted for you to preview first: readers keep the published full text until you
              publish the new one.
            </p>
            <input type="hidden" name="id" value={editing.id} />
            <WordFileField
              source={fullText?.source ?? null}
              maxBytes={maxWordBytes}
              error={convert.errors.word}
              chooseAgain={Boolean(convert.errors.word)}
            />
          </Form>
          {pending ? (
            <section className="dash-replace" aria-labelledby="pending-title">
              <h3 id="pending-title">New full text, not published yet</h3>
              <p>
                From {pending.source} ({pending.words.toLocaleString('en')} words). Check it as readers will see it,
                fix what is listed, then publish it in place of {fullText ? 'the live one' : 'none'}.
              </p>
              <ProblemList
                problems={pending.problems}
                title="Needs a person"
                level={4}
                id="pending-problems-title"
              />
              <details className="desk-fulltext__preview">
                <summary>Preview the new full text as readers will see it</summary>
                <div
                  className="article-page"
                  // biome-ignore lint/security/noDangerouslySetInnerHtml: made from the structured document and sanitised on the server.
                  dangerouslySetInnerHTML={{ __html: pending.html }}
                />
              </details>
              <Form
                method="post"
                noValidate
                aria-labelledby="pending-title"
                key={`pending-${editing.id}-${pending.source}-${pending.words}`}
              >
                <input type="hidden" name="id" value={editing.id} />
                {pending.figures.length ? (
                  <fieldset className="form-box">
                    <legend>Alt text of the new figures</legend>
                    <FigureAltFields
                      figures={pending.figures}
                      idPrefix="pending-alt"
                      figureUrl={(name) => `/api/editor/articles/${editing.id}/fulltext/pending/figures/${name}`}
                      values={pendingRefused.values}
                      errors={pendingRefused.errors}
                    />
                  </fieldset>
                ) : null}
                {pending.references.some((r) => !r.doi) ? (
                  <ReferenceDoiFields
                    references={pending.references.filter((r) => !r.doi)}
                    idPrefix="pending-doi"
                    values={pendingRefused.values}
                    errors={pendingRefused.errors}
                  />
                ) : null}
                <div className="dash-actions">
                  {pending.figures.length || pending.references.some((r) => !r.doi) ? (
                    <button type="submit" name="intent" value="pending-fix" className="button">
                      Save the fixes
                    </button>
                  ) : null}
                  <button type="submit" name="intent" value="pending-publish" className="button button--primary">
                    Publish the new full text
                  </button>
                </div>
              </Form>
            </section>
          ) : null}
          {fullText ? (
            <>
              <ProblemList
                problems={fullText.problems}
                title="Needs a person in the published full text"
                level={4}
              />
              {fullText.figures.length ? (
                <Form method="post" noValidate aria-labelledby="alt-title" key={`alt-${editing.id}-${round}`}>
                  <h4 id="alt-title">Alt text of the published figures</h4>
                  <input type="hidden" name="id" value={editing.id} />
                  <FigureAltFields
                    figures={fullText.figures}
                    idPrefix="article-alt"
                    figureUrl={(name) => `/api/editor/articles/${editing.id}/fulltext/figures/${name}`}
                    values={alt.values}
                    errors={alt.errors}
                  />
                  <button type="submit" name="intent" value="alt" className="button">
                    Save the alt text
                  </button>
                </Form>
              ) : null}
            </>
          ) : null}
        </div>
      ) : null}

      <TableScroll labelledBy="articles-caption">
        <table className="dash-table dash-articles">
          <caption id="articles-caption">
            Articles, newest first ({total}){total > size ? `, page ${page}` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Title and DOI</th>
              <th scope="col">Volume / issue, pages</th>
              <th scope="col">Status</th>
              <th scope="col" className="dash-table__number">
                Views
              </th>
              <th scope="col" className="dash-table__number">
                Downloads
              </th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {articles.map((a) => (
              <tr key={a.id}>
                <td>{a.id}</td>
                <th scope="row" className="dash-articles__title">
                  {a.status === 'published' ? <Link to={`/article/${a.id}`}>{a.title}</Link> : a.title}
                  {a.doi ? <span className="dash-table__sub">{a.doi}</span> : null}
                </th>
                <td>
                  {a.volume_number} / {a.issue_number}
                  {a.pages ? <span className="dash-table__sub">pp. {a.pages}</span> : null}
                </td>
                <td>{a.status === 'published' ? 'Published' : 'Unpublished'}</td>
                <td className="dash-table__number">
                  {a.usage ? a.usage.views.toLocaleString('en-GB') : '–'}
                </td>
                <td className="dash-table__number">
                  {a.usage ? a.usage.downloads.toLocaleString('en-GB') : '–'}
                </td>
                <td>
                  <div className="dash-actions">
                    <Link
                      className="button button--small button--secondary"
                      to={`?${new URLSearchParams({ ...(page > 1 ? { page: String(page) } : {}), edit: String(a.id) })}`}
                    >
                      Edit<span className="visually-hidden"> “{a.title}”</span>
                    </Link>
                    <Form method="post" action={`${location.pathname}${location.search}`}>
                      <input type="hidden" name="id" value={a.id} />
                      <button
                        type="submit"
                        name="intent"
                        value={a.status === 'published' ? 'unpublish' : 'republish'}
                        className="button button--small"
                      >
                        {a.status === 'published' ? 'Unpublish' : 'Republish'}
                        <span className="visually-hidden"> “{a.title}”</span>
                      </button>
                    </Form>
                    {a.status === 'published' && a.doi ? (
                      <a
                        href={`/api/editor/export/crossref/article/${a.id}`}
                        download
                        className="button button--small button--secondary"
                      >
                        Crossref XML<span className="visually-hidden"> of “{a.title}”</span>
                      </a>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Pagination page={page} total={total} size={size} search={location.search} label="Article pages" />

      <Form
        method="post"
        encType="multipart/form-data"
        noValidate
        className="panel"
        aria-labelledby="upload-heading"
        key={`upload-${upload.values.title === undefined ? round : 'kept'}-${upload.values.author_count ?? ''}`}
      >
        <h2 id="upload-heading">Upload an article</h2>
        <p className="field__hint">
          All fields are required. The article appears on the reader site at once.
        </p>
        <input type="hidden" name="form" value="upload" />
        <ArticleFields prefix="upload" values={upload.values} errors={upload.errors} issues={issues} />
        <FileField
          id="upload-pdf"
          rule={ARTICLE_PDF_RULE}
          maxBytes={maxPdfBytes}
          label="Article PDF"
          required
          hint={`A PDF, up to ${formatBytes(maxPdfBytes)}.`}
          error={upload.errors.pdf}
          reminder={upload.values.title !== undefined ? CHOOSE_AGAIN : undefined}
        />
        <FileField
          id="upload-word"
          rule={ARTICLE_WORD_RULE}
          maxBytes={maxWordBytes}
          label="Word file"
          hint={`The final .docx, up to ${formatBytes(maxWordBytes)}: it becomes the full text on the article page and in JATS XML once you have previewed and published it under Edit.`}
          error={upload.errors.word}
          reminder={
            upload.values.title !== undefined
              ? 'If you chose a Word file, please choose it again.'
              : undefined
          }
        />
        <button type="submit" name="intent" value="upload" className="button button--primary">
          Upload and publish
        </button>
      </Form>
    </section>
  );
}
