import { useEffect, useState } from 'react';
import { useJournalPrefix } from '../lib/journal-href.ts';

interface Usage {
  views: number;
  downloads: number;
  /** Newest first, at most twelve. */
  months: { month: string; views: number; downloads: number }[];
}

type State = { kind: 'loading' } | { kind: 'shown'; usage: Usage } | { kind: 'failed' };

/**
 * Counts this view of the article, then shows its usage figures (decision 0019). Neither is in the page's
 * HTML, so the page can be cached: once scripts run, the view goes to the beacon
 * (`POST /api/articles/{id}/views`) and the figures come from `GET /api/articles/{id}/metrics`. Until they
 * arrive the row says so, in the space the figures take; without scripts the row is hidden (app.css).
 * One of the facts of the article page (an item of its <dl>).
 */
export function ArticleUsage({ articleId }: { articleId: number }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  // The journal's path, before its API's addresses (decision 0056).
  const prefix = useJournalPrefix();

  useEffect(() => {
    sendView(`${prefix}/api/articles/${articleId}/views`);
    let current = true;
    setState({ kind: 'loading' });
    fetch(`${prefix}/api/articles/${articleId}/metrics`, { headers: { accept: 'application/json' } })
      .then((res) => (res.ok ? res.json() : Promise.reject(new Error(String(res.status)))))
      .then((m: { totals: { views: number; downloads: number }; months: Usage['months'] }) => {
        if (current) {
          setState({ kind: 'shown', usage: { ...m.totals, months: m.months.slice(-12).reverse() } });
        }
      })
      .catch(() => {
        if (current) setState({ kind: 'failed' });
      });
    return () => {
      current = false;
    };
  }, [articleId, prefix]);

  return (
    <div className="article-usage">
      <dt>Usage</dt>
      <dd aria-busy={state.kind === 'loading' ? true : undefined}>
        {state.kind === 'loading' ? (
          <span className="article-usage__pending">Loading the counts…</span>
        ) : null}
        {state.kind === 'failed' ? (
          <span className="article-usage__pending">Not available just now</span>
        ) : null}
        {state.kind === 'shown' ? <UsageFigures usage={state.usage} /> : null}
      </dd>
    </div>
  );
}

function UsageFigures({ usage }: { usage: Usage }) {
  return (
    <>
      {countLabel(usage.views, 'view')}, {countLabel(usage.downloads, 'download')}
      {usage.months.length ? (
        <details className="usage-months">
          <summary>By month</summary>
          <table>
            <caption className="visually-hidden">Views and downloads by month, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Views</th>
                <th scope="col">Downloads</th>
              </tr>
            </thead>
            <tbody>
              {usage.months.map((m) => (
                <tr key={m.month}>
                  <th scope="row">{m.month}</th>
                  <td>{m.views}</td>
                  <td>{m.downloads}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </>
  );
}

/** "1 view", "1,234 downloads". */
function countLabel(n: number, noun: string) {
  return `${n.toLocaleString('en-GB')} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * The view beacon: sent once per page view, after the page has loaded; the server counts it only from this
 * site's own pages (same origin), never for robots or repeats within 30 s. Best effort: nothing to wait for.
 */
function sendView(url: string) {
  try {
    if (navigator.sendBeacon?.(url)) return;
    void fetch(url, { method: 'POST', keepalive: true, credentials: 'same-origin' }).catch(() => {});
  } catch {
    // A browser that refuses both: the view goes uncounted, the page is unaffected.
  }
}
