import { Form, Link, type ShouldRevalidateFunction } from 'react-router';
import { issueLabel } from '../../common/issues.ts';
import { publishSubmissionSchema } from '../../common/submissions.ts';
import { ARTICLE_PDF_RULE, ARTICLE_WORD_RULE, fileLimit, formatBytes } from '../../common/upload-rules.ts';
import { fullTextHtml } from '../../server/fulltext/html.ts';
import { saveFixes } from '../../server/fulltext/editing.ts';
import { presentFullText } from '../../server/fulltext/present.ts';
import { preparePublication, publicationPreview } from '../../server/submissions/publication.ts';
import { articleAuthorsHtml } from '../components/article-authors.server.tsx';
import { ActionResult, refusalFor } from '../components/dashboard/ActionResult.tsx';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { PrepareFilesForm } from '../components/desk/PublishPanel.tsx';
import { FigureAltFields } from '../components/fulltext/FigureAltFields.tsx';
import { ReferenceDoiFields } from '../components/fulltext/ReferenceDoiFields.tsx';
import { ProblemList } from '../components/fulltext/WordFileParts.tsx';
import { SelectField, TextField } from '../components/FormField.tsx';
import type { FormResult } from '../lib/form-result.ts';
import { useJournalPrefix, withPrefixedLinks } from '../lib/journal-href.ts';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { orNotFound } from '../lib/not-found.server.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../lib/reply.server.ts';
import { idParam } from '../lib/route-params.ts';
import { pageTitle } from '../lib/meta.ts';
import articleCss from '../styles/article.css?url';
import submissionCss from '../styles/submission.css?url';
import type { Route } from './+types/editor-dashboard.submissions.$id.publish';

/**
 * Publishing an accepted submission (issue 22, decision 0035): the final PDF and the Word file, then the article
 * as readers will see it with what needs a person, the fixes (alt text, references' DOIs), and Publish. Nothing
 * is on the reader site before that button.
 */

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: submissionCss },
  // The preview is styled as readers will see it.
  { rel: 'stylesheet', href: articleCss },
];

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  {
    title: pageTitle(
      matches,
      loaderData
        ? `Publish ${loaderData.submission.reference} · Editorial dashboard`
        : 'Publish · Editorial dashboard',
    ),
  },
  { name: 'robots', content: 'noindex' },
];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const auth = requireEditor(context, request);
  const id = idParam(params.id);
  const preview = await orNotFound(publicationPreview(context.services, auth.user, id));
  const { detail: s, fullText } = preview;
  const issues = s.status === 'accepted' && !s.articleId ? await context.services.catalog.editorIssues() : [];
  const latest = s.files.find((f) => f.kind === 'manuscript');
  return {
    submission: {
      id: s.id,
      reference: s.reference,
      title: s.title,
      status: s.status,
      articleType: s.articleType,
      abstract: s.abstract,
      keywords: s.keywords,
      articleId: s.articleId,
      latest: latest ? { name: latest.name, version: latest.version, mediaType: latest.mediaType } : undefined,
    },
    authorsHtml: articleAuthorsHtml(s.authors),
    pdf: preview.pdf,
    pdfHref: s.finalPdf
      ? `/api/editor/submissions/${id}/final-pdf`
      : latest
        ? `/api/submissions/${id}/files/${latest.id}`
        : null,
    warnings: preview.warnings,
    fullText: fullText
      ? {
          ...presentFullText(fullText),
          html: fullTextHtml(fullText.document, {
            figureUrl: (name) => `/api/editor/submissions/${id}/fulltext/figures/${name}`,
            level: 3,
          }),
        }
      : null,
    issues: issues.map((i) => ({
      value: String(i.id),
      label: issueLabel(i),
    })),
    maxPdfBytes: context.services.config.MAX_ARTICLE_PDF_SIZE,
    maxWordBytes: context.services.config.MAX_MANUSCRIPT_SIZE,
  };
}

/** After every post, refused ones included, the page reads the preview again (it may have changed). */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, defaultShouldRevalidate }) =>
  formMethod?.toUpperCase() === 'POST' ? true : defaultShouldRevalidate;

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const id = idParam(params.id);
  const { services } = context;
  const read = await readIntentForm(request, {
    files: {
      pdf: fileLimit(ARTICLE_PDF_RULE, services.config.MAX_ARTICLE_PDF_SIZE),
      word: fileLimit(ARTICLE_WORD_RULE, services.config.MAX_MANUSCRIPT_SIZE),
    },
  });
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(form.values()))
    if (/^(alt|doi)-\d{1,4}$/.test(name) || ['issue_id', 'pages', 'doi'].includes(name)) values[name] = value;
  try {
    if (intent === 'prepare') {
      await preparePublication(services, auth.user, id, {
        pdf: form.file('pdf') ?? undefined,
        word: form.file('word') ?? undefined,
      });
      return replyDone(
        intent,
        'Files received. Check the article below as readers will see it, fix what is listed, then publish it.',
      );
    }
    if (intent === 'fix') {
      await saveFixes(services, auth.user, { submissionId: id }, values);
      return replyDone(intent, 'Saved. Nothing is published yet.');
    }
    if (intent === 'publish') {
      const parsed = validateForm(publishSubmissionSchema, values);
      // The fixes are kept even when publishing is refused: the editor need not type them again.
      let fixRefusal: Record<string, string> = {};
      try {
        await saveFixes(services, auth.user, { submissionId: id }, values);
      } catch (err) {
        const refused = asClientError(err);
        if (refused?.status !== 400) throw err;
        fixRefusal = refused.errors ?? {};
      }
      if (!parsed.ok || Object.keys(fixRefusal).length) {
        const errors = { ...(parsed.ok ? {} : parsed.refusal.errors), ...fixRefusal };
        const message = parsed.ok ? 'Please correct the marked fields.' : parsed.refusal.message;
        return replyRefused(intent, clientError(400, message, errors), values);
      }
      const articleId = await services.submissions.publish(
        auth.user,
        id,
        parsed.data,
        undefined,
        services.catalog,
        services.fulltext,
      );
      return replyDone(intent, `Published as article ${articleId}. It is on the reader site now.`);
    }
    return replyRefused(intent, clientError(400, 'Unknown action.'), values);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused, values);
  }
}

type Data = Route.ComponentProps['loaderData'];

export default function PublishSubmission({ loaderData, actionData }: Route.ComponentProps) {
  const { submission: s, fullText, pdf, warnings } = loaderData;
  const round = actionData?.at ?? 0;
  const published = s.articleId !== null;
  return (
    <article className="desk-submission desk-publish" aria-labelledby="publish-page-title">
      <p className="breadcrumb">
        <Link to={`/editor-dashboard/submissions/${s.id}`}>
          <span aria-hidden="true">← </span>
          {s.reference}
        </Link>
      </p>
      <header className="submission-detail__header">
        <p className="reference">{s.reference}</p>
        <h1 id="publish-page-title" className="submission-detail__title">
          Publish “{s.title}”
        </h1>
      </header>

      <ActionResult result={actionData} />

      {published ? (
        <section className="panel panel--action" aria-labelledby="done-title">
          <h2 id="done-title">Published</h2>
          <p>This submission is published as article {s.articleId}.</p>
          <p className="dash-inline-form">
            <Link to={`/article/${s.articleId}`} className="button button--primary button--small">
              View the article
            </Link>
            <Link
              to={`/editor-dashboard/articles?edit=${s.articleId}`}
              className="button button--secondary button--small"
            >
              Edit it in Articles
            </Link>
          </p>
        </section>
      ) : s.status !== 'accepted' ? (
        <p className="panel">Only an accepted submission can be published.</p>
      ) : (
        <>
          {warnings.length ? (
            <div className="alert alert--warning" role="note" aria-labelledby="publish-warnings-title">
              <h2 id="publish-warnings-title" className="alert__title">
                Before you publish
              </h2>
              <ul>
                {warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <section className="panel panel--action" aria-labelledby="files-step-title">
            <h2 id="files-step-title">1. The final PDF and the Word file</h2>
            <p>
              {pdf
                ? `PDF to publish: ${pdf.name} (${formatBytes(pdf.size)})${pdf.given ? '' : ', the latest manuscript'}.`
                : 'No PDF yet: give the final PDF.'}{' '}
              {fullText ? `Full text from ${fullText.source}.` : 'No Word file: the article is published with its PDF alone.'}
            </p>
            <PrepareFilesForm
              submissionId={s.id}
              latestManuscript={s.latest}
              prepared={{ pdf, word: fullText?.source ?? null }}
              maxPdfBytes={loaderData.maxPdfBytes}
              maxWordBytes={loaderData.maxWordBytes}
              result={actionData}
              round={round}
            />
          </section>
          <Preview data={loaderData} />
          <PublishForm data={loaderData} result={actionData} />
        </>
      )}
    </article>
  );
}

/** The article as readers will see it on its page. */
function Preview({ data: d }: { data: Data }) {
  const { submission: s, fullText } = d;
  // Server-made addresses (the PDF, the full text's figures) under the journal's path (decision 0056).
  const prefix = useJournalPrefix();
  return (
    <section className="panel desk-preview" aria-labelledby="preview-title">
      <h2 id="preview-title">2. The article as readers will see it</h2>
      <div className="article-page desk-preview__page">
        <p className="eyebrow">{s.articleType} · Open access</p>
        <p className="desk-preview__title">{s.title}</p>
        <div
          className="article-authors"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: made by React on the server, from escaped text.
          dangerouslySetInnerHTML={{ __html: d.authorsHtml }}
        />
        {d.pdfHref ? (
          <p>
            <a href={`${prefix}${d.pdfHref}`} className="button button--secondary button--small">
              Open the PDF<span className="visually-hidden"> to be published</span>
            </a>
          </p>
        ) : null}
        <h3>Abstract</h3>
        <p className="prose-text">{s.abstract}</p>
        <h3>Keywords</h3>
        <p>{s.keywords}</p>
        {fullText ? (
          <div
            // biome-ignore lint/security/noDangerouslySetInnerHtml: made from the structured document and sanitised on the server.
            dangerouslySetInnerHTML={{ __html: withPrefixedLinks(fullText.html, prefix) }}
          />
        ) : (
          <p className="muted">No full text: readers get the abstract and the PDF.</p>
        )}
      </div>
    </section>
  );
}

/** What needs a person, the fixes, and the issue, pages and DOI, with Publish. */
function PublishForm({ data: d, result }: { data: Data; result: FormResult | undefined }) {
  const { submission: s, fullText, issues } = d;
  const publishRefused = refusalFor(result, 'publish');
  const fixRefused = refusalFor(result, 'fix');
  const refused = Object.keys(publishRefused.values).length ? publishRefused : fixRefused;
  const missingDoi = fullText?.references.filter((r) => !r.doi) ?? [];
  return (
    <section className="panel panel--action" aria-labelledby="publish-step-title">
      <h2 id="publish-step-title">3. Fix and publish</h2>
      {fullText ? <ProblemList problems={fullText.problems} title="Needs a person" level={3} /> : null}
      {issues.length === 0 ? (
        <p>
          There is no issue yet. <Link to="/editor-dashboard/volumes">Create a volume and an issue</Link> first.
        </p>
      ) : null}
      {/* Keyed by the full text: what was typed stays after a post (issue, pages and DOI too, when the fixes
          are saved); a new Word file brings its own fields. */}
      <Form
        method="post"
        noValidate
        aria-labelledby="publish-step-title"
        key={`publish-${fullText?.source ?? ''}-${fullText?.words ?? 0}-${fullText?.figures.length ?? 0}`}
      >
        {fullText?.figures.length ? (
          <fieldset className="form-box">
            <legend>Alt text of the figures</legend>
            <p className="field__hint">
              What each figure shows, for readers who cannot see it. Every figure needs one before publishing.
            </p>
            <FigureAltFields
              figures={fullText.figures}
              idPrefix="publish-alt"
              figureUrl={(name) => `/api/editor/submissions/${s.id}/fulltext/figures/${name}`}
              values={refused.values}
              errors={refused.errors}
            />
          </fieldset>
        ) : null}
        {missingDoi.length ? (
          <ReferenceDoiFields references={missingDoi} idPrefix="publish-doi" values={refused.values} errors={refused.errors} />
        ) : null}
        {fullText?.figures.length || missingDoi.length ? (
          <p className="form-box__actions">
            <button type="submit" name="intent" value="fix" className="button">
              Save the fixes
            </button>
          </p>
        ) : null}
        {issues.length ? (
          <fieldset className="form-box">
            <legend>Where it is published</legend>
            <SelectField
              id="publish-issue"
              name="issue_id"
              label="Issue"
              marks
              required
              placeholder="Choose an issue"
              defaultValue={refused.values.issue_id ?? ''}
              error={publishRefused.errors.issue_id}
              options={issues}
            />
            <div className="dash-forms">
              <TextField
                id="publish-pages"
                name="pages"
                label="Pages"
                marks
                hint="First-last, e.g. 1-10."
                required
                defaultValue={refused.values.pages}
                error={publishRefused.errors.pages}
              />
              <TextField
                id="publish-doi"
                name="doi"
                label="DOI"
                marks
                hint="e.g. 10.1234/abc.2025.001. Leave it empty for the journal's DOI pattern to give one (the DOIs page)."
                defaultValue={refused.values.doi}
                error={publishRefused.errors.doi}
              />
            </div>
            <button type="submit" name="intent" value="publish" className="button button--primary">
              {fullText ? 'Publish the article with its full text' : 'Publish the article'}
            </button>
          </fieldset>
        ) : null}
      </Form>
    </section>
  );
}
