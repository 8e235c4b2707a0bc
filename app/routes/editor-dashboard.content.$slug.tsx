import { Form, Link } from 'react-router';
import { PAGE_SLUGS, type PageSlug, pageKey, pageMarkdownSchema } from '../../common/content.ts';
import { ActionResult } from '../components/dashboard/ActionResult.tsx';
import { TextAreaField } from '../components/FormField.tsx';
import { requireEditor } from '../components/dashboard/guard.server.ts';
import { Markdown } from '../components/Markdown.tsx';
import { asClientError, readForm, validateForm } from '../lib/forms.server.ts';
import { refusalOf } from '../lib/form-result.ts';
import { pageTitle } from '../lib/meta.ts';
import { clientError, replyDone, replyRefused } from '../lib/reply.server.ts';
import { notFound } from '../lib/route-params.ts';
import { contentLinks } from '../lib/content-page.ts';
import adminCss from '../styles/dashboard-admin.css?url';
import type { Route } from './+types/editor-dashboard.content.$slug';

export const links: Route.LinksFunction = () => [...contentLinks(), { rel: 'stylesheet', href: adminCss }];

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  { title: pageTitle(matches, `Edit ${loaderData?.label ?? 'page'} · Editorial dashboard`) },
  { name: 'robots', content: 'noindex' },
];

const LABELS: Record<PageSlug, string> = {
  about: 'About',
  overview: 'Journal Overview',
  indexing: 'Indexing & Abstracting',
  instructions: 'Instructions for Authors',
  apc: 'Article Processing Charge',
  ethics: 'Publication Ethics',
  copyright: 'Copyright',
};

function slugOf(raw: string | undefined): PageSlug {
  const slug = PAGE_SLUGS.find((s) => s === raw);
  return slug ?? notFound();
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  requireEditor(context, request);
  const slug = slugOf(params.slug);
  const { content } = context.services;
  const [markdown, base] = await Promise.all([content.pageSource(slug), content.version(pageKey(slug))]);
  return { slug, label: LABELS[slug], markdown: markdown ?? `# ${LABELS[slug]}\n\n`, base };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const auth = requireEditor(context, request);
  const slug = slugOf(params.slug);
  // A page may hold 200,000 characters (up to four bytes each).
  const read = await readForm(request, { maxTextBytes: 1024 * 1024, tooLarge: 'The page is too long.' });
  const { form } = read;
  const intent = form.text('intent');
  const markdown = form.text('markdown');
  const base = form.text('base');
  const values = { markdown, base };
  const refuse = (status: number, message: string, error?: string) =>
    replyRefused(intent, clientError(status, message, error === undefined ? {} : { markdown: error }), values);
  if (!read.ok) return refuse(read.refusal.status, read.refusal.message, read.refusal.errors.markdown);
  if (intent !== 'preview' && intent !== 'save') return refuse(400, 'Unknown action.');
  const parsed = validateForm(pageMarkdownSchema, markdown);
  if (!parsed.ok) return refuse(400, parsed.refusal.message, parsed.refusal.message);
  const { content } = context.services;
  if (intent === 'preview') {
    const page = await content.preview(parsed.data);
    return replyDone(intent, 'The preview is below. Nothing is saved until you press Save.', {
      values,
      payload: { preview: { title: page.title, html: page.html } },
    });
  }
  try {
    await content.editPage(auth.user, slug, parsed.data, base);
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return refuse(refused.status, refused.message);
  }
  return replyDone(intent, `Saved. /${slug} shows the new text now.`);
}

export default function EditPage({ loaderData, actionData }: Route.ComponentProps) {
  const { slug, label } = loaderData;
  // Drawn again as posted until saved (a refusal, a preview); then from what is stored.
  const markdown = actionData?.values?.markdown ?? loaderData.markdown;
  const base = actionData?.values?.base ?? loaderData.base;
  const error = refusalOf(actionData)?.errors.markdown;
  const preview = actionData?.ok && 'preview' in actionData ? actionData.preview : undefined;
  return (
    <section aria-labelledby="edit-page-title">
      <p className="content-editor__back">
        <Link to="/editor-dashboard/content">← Journal content</Link>
      </p>
      <h1 id="edit-page-title">Edit: {label}</h1>
      <p>
        Shown at <Link reloadDocument to={`/${slug}`}>/{slug}</Link>.
      </p>
      <ActionResult result={actionData} />
      <Form
        method="post"
        noValidate
        className="panel content-editor"
        aria-labelledby="edit-page-title"
        key={actionData?.at ?? 0}
      >
        <input type="hidden" name="base" value={base} />
        <TextAreaField
          id="page-markdown"
          name="markdown"
          label="Page text (Markdown)"
          marks
          required
          rows={24}
          spellCheck
          defaultValue={markdown}
          error={error}
          hint={
            <>
              The first line is the page's heading (<code># {label}</code>); the first paragraph after it is
              what search engines show. <code>## Section</code> starts a section, <code>**bold**</code>,{' '}
              <code>*italic*</code>, <code>[text](https://…)</code> a link, <code>- item</code> a list.{' '}
              <code>{'{{journal.name}}'}</code>, <code>{'{{journal.issnOnline}}'}</code> and the other journal
              settings are filled in when the page is shown.
            </>
          }
        />
        <div className="content-editor__actions">
          <button type="submit" name="intent" value="preview" className="button button--secondary">
            Preview
          </button>
          <button type="submit" name="intent" value="save" className="button button--primary">
            Save
          </button>
        </div>
      </Form>
      {preview ? (
        <section className="content-preview" aria-labelledby="preview-heading">
          <h2 id="preview-heading" className="content-preview__label">
            Preview (not saved)
          </h2>
          <div className="content-preview__page">
            <p className="content-preview__title">{preview.title}</p>
            <Markdown html={preview.html} />
          </div>
        </section>
      ) : null}
    </section>
  );
}
