import { useEffect, useState } from 'react';
import type { ImportRunView } from '../../../common/imports.ts';
import { TableScroll } from '../dashboard/TableScroll.tsx';

const POLL_MS = 1000;
const LIVE = new Set(['queued', 'running']);

const STATE_WORDS: Record<ImportRunView['status'], string> = {
  queued: 'Waiting to start',
  running: 'Importing',
  done: 'Done',
  failed: 'Failed',
};

/** The run as the page shows it, refreshed from the API every second while it is queued or running. */
export function useLiveRun(initial: ImportRunView): ImportRunView {
  const [run, setRun] = useState(initial);
  useEffect(() => setRun(initial), [initial]);
  useEffect(() => {
    if (!LIVE.has(run.status)) return;
    let stopped = false;
    const timer = setTimeout(async () => {
      try {
        const answer = await fetch(`/api/admin/imports/${run.id}`, {
          headers: { accept: 'application/json' },
        });
        if (answer.ok && !stopped) setRun(((await answer.json()) as { run: ImportRunView }).run);
      } catch {
        /* the next tick tries again */
      }
      // Unchanged (or failed to fetch): poll again all the same.
      if (!stopped) setRun((r) => ({ ...r }));
    }, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [run]);
  return run;
}

function statusLine(run: ImportRunView): string {
  const kind = run.dryRun ? 'Dry run' : 'Import';
  if (run.status === 'queued') return `${kind} waiting to start.`;
  if (run.status === 'running')
    return run.total > 0
      ? `${kind}: ${run.done} of ${run.total} items${run.current ? `, now ${run.current}` : ''}.`
      : `${kind}: reading the exports…`;
  if (run.status === 'failed') return `${kind} failed: ${run.error ?? 'see the notices below.'}`;
  return run.dryRun
    ? 'Dry run done: nothing was written. This is what a real run would do.'
    : `Import done: ${run.done} of ${run.total} items.`;
}

/** The progress of a run: a bar (items done of the total) with the current item, and its state in words. */
export function ImportProgress({ run }: { run: ImportRunView }) {
  const live = LIVE.has(run.status);
  const known = run.total > 0;
  const valueText = known
    ? `${run.done} of ${run.total} items${run.current ? `: ${run.current}` : ''}`
    : STATE_WORDS[run.status];
  return (
    <section className="panel import-progress" aria-labelledby="import-progress-label">
      <p className="import-progress__state">
        <span className={`status-pill status-pill--${run.status}`}>{STATE_WORDS[run.status]}</span>
      </p>
      <label id="import-progress-label" htmlFor="import-progress">
        Items imported
      </label>
      {/* Indeterminate (no value) until the run knows how many items there are. */}
      <progress
        id="import-progress"
        max={known ? run.total : undefined}
        value={known ? run.done : run.status === 'done' ? 1 : undefined}
        aria-valuetext={valueText}
      />
      <p className="import-progress__count">
        {known ? (
          <span>
            <strong>{run.done}</strong> of <strong>{run.total}</strong> items
          </span>
        ) : null}
        {live && run.current ? <span className="import-progress__current">Now: {run.current}</span> : null}
      </p>
      <p role="status" className="import-progress__status">
        {statusLine(run)}
      </p>
    </section>
  );
}

const ROWS = [
  ['issues', 'Issues'],
  ['articles', 'Articles'],
  ['users', 'Users'],
] as const;

/** The report at the end: counts, notices (refusals first), OJS groups with no meaning here. */
export function ImportReport({ run }: { run: ImportRunView }) {
  const report = run.report;
  if (!report) return null;
  const notices = [...report.notices].sort((a, b) =>
    a.level === b.level ? 0 : a.level === 'refused' ? -1 : 1,
  );
  const groups = Object.entries(report.unmappedGroups);
  return (
    <section aria-labelledby="import-report-title" className="import-report">
      <h2 id="import-report-title">{run.dryRun ? 'What a real run would do' : 'Report'}</h2>
      <TableScroll labelledBy="import-counts-caption">
        <table className="dash-table import-counts">
          <caption id="import-counts-caption">Records {run.dryRun ? 'that would be ' : ''}imported</caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Created</th>
              <th scope="col">Updated</th>
              <th scope="col">Unchanged</th>
              <th scope="col">Refused</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map(([key, label]) => (
              <tr key={key}>
                <th scope="row">{label}</th>
                <td>{report[key].created}</td>
                <td>{report[key].updated}</td>
                <td>{report[key].unchanged}</td>
                <td className={report[key].refused ? 'import-counts__refused' : undefined}>
                  {report[key].refused}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>

      <h3 id="import-notices-title">Notices</h3>
      {notices.length === 0 ? (
        <p className="muted">None: every item was read without a problem.</p>
      ) : (
        <ol className="import-notices" aria-labelledby="import-notices-title">
          {notices.map((n) => (
            <li
              key={`${n.level} ${n.file} ${n.line} ${n.path} ${n.message}`}
              className={`import-notice import-notice--${n.level}`}
            >
              <p className="import-notice__head">
                <span className={`status-pill status-pill--${n.level === 'refused' ? 'failed' : 'queued'}`}>
                  {n.level === 'refused' ? 'Refused' : 'Warning'}
                </span>{' '}
                <span className="import-notice__where">
                  {n.file}
                  {n.line ? `, line ${n.line}` : ''}
                </span>
              </p>
              <p className="import-notice__message">{n.message}</p>
              {n.path ? <code className="import-notice__path">{n.path}</code> : null}
            </li>
          ))}
        </ol>
      )}

      {groups.length ? (
        <>
          <h3>OJS groups with no role here</h3>
          <p className="muted">
            These accounts were imported without these groups; give them a role from the journal’s users page
            if they need one.
          </p>
          <ul className="import-groups">
            {groups.map(([name, count]) => (
              <li key={name}>
                {name}: {count} {count === 1 ? 'account' : 'accounts'}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

/** What was uploaded, in a line. */
export function filesLine(run: ImportRunView): string {
  return run.files.join(', ');
}
