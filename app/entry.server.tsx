import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable } from '@react-router/node';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import {
  type AppLoadContext,
  type EntryContext,
  type HandleErrorFunction,
  ServerRouter,
  isRouteErrorResponse,
} from 'react-router';
import { isDatabaseUnavailable } from '../server/db/errors.ts';
import { DocumentHtmlContext } from './lib/document-html.ts';
import { NonceContext } from './lib/nonce.ts';

/** How long deferred data may stream before React gives up on it (the render is aborted a second later). */
export const streamTimeout = 5_000;

/**
 * React Router's own logging of a loader's or action's error, plus one mark: an error that means the database
 * is briefly unavailable (a restart, a fail-over) makes the page a 503 with Retry-After (server/http/ssr.ts).
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (isDatabaseUnavailable(error) && context && typeof context === 'object') {
    (context as AppLoadContext).databaseUnavailable = true;
  }
  // A client's mistake answered 4xx (a form posted to a page that takes none: 405) is the answer, not a fault
  // of ours: the request's own log line has its status. Anything else is logged with the error it wraps
  // (as React Router's default: private, but logged).
  if (isRouteErrorResponse(error) && error.status < 500) return;
  const wrapped = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  if (!request.signal.aborted) console.error(wrapped ?? error);
};

/**
 * Renders a page as React Router's default does, with one addition: every script the page carries gets this
 * response's Content-Security-Policy nonce (`context.nonce`, made per request in server/http/ssr.ts, which also
 * sends the policy naming it; decision 0015). `<ServerRouter nonce>` hands it to `<Scripts>`,
 * `<ScrollRestoration>`, `<Links>` and the streamed-data scripts; `NonceContext` to the root layout's own
 * script (app/lib/nonce.ts); React's own inline scripts (Suspense boundaries streamed in later) get it from
 * `renderToPipeableStream`.
 */
export default function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  routerContext: EntryContext,
  context: AppLoadContext,
) {
  // A HEAD answer has the headers a GET would have (so the page's policy too), and no body.
  headers.set('Content-Type', 'text/html; charset=utf-8');
  if (request.method.toUpperCase() === 'HEAD') return new Response(null, { status, headers });
  const { nonce } = context;
  // Server-made HTML the loaders kept out of the route data (an article's full text): rendered, sent once.
  const userAgent = request.headers.get('user-agent');
  // Crawlers get the whole page at once; people get the shell first and the rest as it streams.
  const waitForAll = Boolean(userAgent && isbot(userAgent));

  return new Promise<Response>((resolve, reject) => {
    let shellSent = false;
    let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);
    const ready = () => {
      shellSent = true;
      const body = new PassThrough({
        final(callback) {
          clearTimeout(timer);
          timer = undefined;
          callback();
        },
      });
      pipe(body);
      resolve(new Response(createReadableStreamFromReadable(body), { status, headers }));
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <DocumentHtmlContext.Provider value={context.documentHtml}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </DocumentHtmlContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        ...(waitForAll ? { onAllReady: ready } : { onShellReady: ready }),
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error: unknown) {
          status = 500;
          // Errors before the shell is sent reject and are logged by React Router; later ones only here.
          if (shellSent) console.error(error);
        },
      },
    );
  });
}
