import { useEffect, useRef, useState } from 'react';
import { Link, data, redirect } from 'react-router';
import { MESSAGES } from '../../common/messages.ts';
import { can } from '../../common/roles.ts';
import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { downloadPdf } from '../lib/download.ts';
import { asClientError } from '../lib/forms.server.ts';
import { pageTitle } from '../lib/meta.ts';
import { readerLinks } from '../lib/reader-page.ts';
import { idParam } from '../lib/route-params.ts';
import type { Route } from './+types/download';
import { useJournalHref } from '../lib/journal-href.ts';

export const links: Route.LinksFunction = readerLinks;

/**
 * /download/{id}: starts the article's download on load. Signed-out visitors are sent to log in first (the
 * spec's guard) unless the journal lets anyone download; accounts that may not download are told why here,
 * decided on the server, so the page says the same with or without scripts.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const { catalog, settings } = context.services;
  const journal = await settings.journal();
  const user = context.auth?.user;
  const open = journal.downloads === 'open';
  if (!open && !user) throw redirect(`/login?redirectTo=${encodeURIComponent(`/download/${id}`)}`);

  const href = `/api/articles/${id}/download`;
  const fail = (status: number, message: string, title: string | null = null) =>
    data({ id, href, title, failure: message, signedIn: Boolean(user) }, { status });

  let article: Awaited<ReturnType<typeof catalog.article>>;
  try {
    article = await catalog.article(id);
  } catch (err) {
    const refused = asClientError(err);
    if (refused?.status === 404) return fail(404, refused.message);
    throw err;
  }
  if (!open && !can('download', user)) return fail(403, MESSAGES.downloadNeedsApproval, article.title);
  if (!article.public_pdf_url) return fail(404, 'This article has no PDF yet.', article.title);
  return data({ id, href, title: article.title as string | null, failure: null as string | null, signedIn: Boolean(user) });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => [
  { title: pageTitle(matches, loaderData?.title ? `Download: ${loaderData.title}` : 'Download') },
  { name: 'robots', content: 'noindex' },
];

type Phase = { kind: 'preparing' } | { kind: 'started'; filename: string } | { kind: 'failed'; message: string };

export default function DownloadPage({ loaderData }: Route.ComponentProps) {
  const { id, title, failure, signedIn } = loaderData;
  const href = useJournalHref()(loaderData.href);
  const [phase, setPhase] = useState<Phase>(
    failure ? { kind: 'failed', message: failure } : { kind: 'preparing' },
  );
  // Once per article: effects run twice in development, and a download must not.
  const started = useRef<number | null>(null);

  useEffect(() => {
    if (failure || started.current === id) return;
    started.current = id;
    setPhase({ kind: 'preparing' });
    void downloadPdf(href, `article-${id}.pdf`).then((result) => {
      if (result.ok) setPhase({ kind: 'started', filename: result.filename });
      else setPhase({ kind: 'failed', message: result.message || MESSAGES.accessDenied });
    });
  }, [id, href, failure]);

  return (
    <JournalPageLayout title="Download" lead={title ?? undefined} className="download-page">
      {phase.kind === 'failed' ? (
        <div role="alert" className="alert alert--error">
          <p className="alert__message">
            {MESSAGES.downloadFailedPrefix}
            {phase.message}
          </p>
          {!signedIn ? (
            <p>
              <Link to="/regist">Register</Link> or{' '}
              <Link to={`/login?redirectTo=${encodeURIComponent(`/download/${id}`)}`}>log in</Link>.
            </p>
          ) : null}
        </div>
      ) : (
        <>
          <div role="status" className="alert download-status">
            <p className="alert__status">
              {phase.kind === 'started' ? `Your download has started: ${phase.filename}` : MESSAGES.preparingDownload}
            </p>
          </div>
          {/* Without scripts, the browser fetches the PDF itself. */}
          <noscript>
            <meta httpEquiv="refresh" content={`0;url=${href}`} />
          </noscript>
          <p>
            If the download does not start, <a href={href}>download the PDF directly</a>.
          </p>
        </>
      )}
      <p>
        <Link to={`/article/${id}`}>Back to the article</Link>
      </p>
    </JournalPageLayout>
  );
}
