import { Form, Link, redirect, useLocation } from 'react-router';
import { ARTICLE_TYPES } from '../../common/limits.ts';
import {
  type DeskFilter,
  STATUS_LABELS,
  SUBMISSION_STATUSES,
  deskFilterSchema,
} from '../../common/submissions.ts';
import { SelectField, TextField } from '../components/FormField.tsx';
import { Pagination } from '../components/dashboard/Pagination.tsx';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { pageOf, requireEditor } from '../components/dashboard/guard.server.ts';
import { StatusBadge } from '../components/submission/StatusBadge.tsx';
import { pageTitle } from '../lib/meta.ts';
import submissionCss from '../styles/submission.css?url';
import { validate } from '../../common/validate.ts';
import { REVIEW_FILTERS, type ReviewFilter } from '../../common/review.ts';
import type { Route } from './+types/editor-dashboard.submissions';

export const links: Route.LinksFunction = () => [{ rel: 'stylesheet', href: submissionCss }];

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Submissions · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const PAGE_SIZE = 25;
const FILTER_KEYS = ['status', 'type', 'from', 'to', 'q', 'review'] as const;

/** The peer-review filters as the desk shows them (decision 0023). */
const REVIEW_FILTER_LABELS: Record<ReviewFilter, string> = {
  'needs-reviewers': 'Needs reviewers',
  'reviews-overdue': 'Reviews overdue',
  'reviews-complete': 'Reviews complete',
};

/**
 * The filters as typed in the address. Each is checked on its own: a wrong one is shown next to its field
 * and left out of the search, the others still apply.
 */
function filtersOf(url: URL) {
  const typed: Record<(typeof FILTER_KEYS)[number], string> = {
    status: '',
    type: '',
    from: '',
    to: '',
    q: '',
    review: '',
  };
  const filter: DeskFilter = {};
  const errors: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    typed[key] = (url.searchParams.get(key) ?? '').slice(0, 300);
    if (!typed[key].trim()) continue;
    const parsed = validate(deskFilterSchema.shape[key], typed[key]);
    if (parsed.success) Object.assign(filter, { [key]: parsed.data });
    else errors[key] = parsed.message;
  }
  if (filter.from && filter.to && filter.from > filter.to) {
    errors.to = 'The “to” date must not be before the “from” date.';
    filter.to = undefined;
  }
  return { typed, filter, errors };
}

export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const url = new URL(request.url);
  // The filter form sends its empty fields too: answer with the address of what is actually asked.
  const empty = [...url.searchParams].filter(([key, value]) => !value.trim() && key !== 'page');
  if (empty.length) {
    for (const [key] of empty) url.searchParams.delete(key);
    throw redirect(`${url.pathname}${url.search}`);
  }
  const { page, limit, offset } = pageOf(url, PAGE_SIZE);
  const { typed, filter, errors } = filtersOf(url);
  const { submissions, total } = await context.services.submissions.list({
    status: filter.status,
    articleType: filter.type,
    from: filter.from,
    to: filter.to,
    q: filter.q || undefined,
    review: filter.review,
    limit,
    offset,
  });
  const filtered = Object.values(filter).some((v) => v !== undefined && v !== '');
  return { submissions, total, page, size: PAGE_SIZE, typed, errors, filtered };
}

export default function SubmissionsDesk({ loaderData }: Route.ComponentProps) {
  const { submissions, total, page, size, typed, errors, filtered } = loaderData;
  const location = useLocation();
  return (
    <section aria-labelledby="desk-title">
      <h1 id="desk-title">Submissions</h1>
      <p>Every manuscript submitted to the journal, newest first. Open one to read it and decide on it.</p>

      <Form method="get" className="panel desk-filters" role="search" aria-labelledby="desk-filters-title">
        <h2 id="desk-filters-title">Filter and search</h2>
        <div className="dash-filters">
          <TextField
            id="desk-q"
            name="q"
            type="search"
            label="Title, reference or author"
            defaultValue={typed.q}
            error={errors.q}
            maxLength={200}
          />
          <SelectField
            id="desk-status"
            name="status"
            label="Status"
            placeholder="Any status"
            defaultValue={typed.status}
            error={errors.status}
            options={SUBMISSION_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
          />
          <SelectField
            id="desk-type"
            name="type"
            label="Article type"
            placeholder="Any type"
            defaultValue={typed.type}
            error={errors.type}
            options={ARTICLE_TYPES.map((t) => ({ value: t, label: t }))}
          />
          <SelectField
            id="desk-review"
            name="review"
            label="Peer review"
            placeholder="Any"
            defaultValue={typed.review}
            error={errors.review}
            options={REVIEW_FILTERS.map((f) => ({ value: f, label: REVIEW_FILTER_LABELS[f] }))}
          />
          <TextField
            id="desk-from"
            name="from"
            type="date"
            label="Submitted from"
            defaultValue={typed.from}
            error={errors.from}
          />
          <TextField
            id="desk-to"
            name="to"
            type="date"
            label="Submitted to"
            defaultValue={typed.to}
            error={errors.to}
          />
        </div>
        <div className="dash-inline-form desk-filters__actions">
          <button type="submit" className="button button--primary">
            Apply filters
          </button>
          {location.search ? (
            <Link to="/editor-dashboard/submissions" className="button button--secondary">
              Clear filters
            </Link>
          ) : null}
        </div>
      </Form>

      {submissions.length === 0 ? (
        <p className="desk-empty">
          {filtered ? 'No submissions match these filters.' : 'No submissions yet.'}
        </p>
      ) : (
        <TableScroll labelledBy="desk-caption">
          <table className="dash-table desk-table">
            <caption id="desk-caption">
              {filtered ? 'Matching submissions' : 'Submissions'}, newest first ({total})
              {total > size ? `, page ${page}` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Reference</th>
                <th scope="col">Title</th>
                <th scope="col">First author</th>
                <th scope="col">Type</th>
                <th scope="col">Status</th>
                <th scope="col">Dates (UTC)</th>
              </tr>
            </thead>
            <tbody>
              {submissions.map((s) => (
                <tr key={s.id}>
                  <td className="desk-table__reference">{s.reference}</td>
                  <th scope="row">
                    <Link to={`/editor-dashboard/submissions/${s.id}`}>{s.title}</Link>
                  </th>
                  <td className="dash-table__wrap desk-table__author">
                    {s.authors[0] ?? s.submitterName}
                    {s.authors.length > 1 ? (
                      <span className="muted"> and {s.authors.length - 1} more</span>
                    ) : null}
                  </td>
                  <td className="desk-table__type">{s.articleType}</td>
                  <td>
                    <StatusBadge status={s.status} published={s.articleId !== null} />
                  </td>
                  <td className="desk-table__dates">
                    Submitted <ShortDate iso={s.createdAt} />
                    <br />
                    <span className="muted">
                      Updated <ShortDate iso={s.updatedAt} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pagination page={page} total={total} size={size} search={location.search} label="Submission pages" />
    </section>
  );
}

/** 2026-05-07: short enough for a column; the full date and time is on the submission's page. */
function ShortDate({ iso }: { iso: string }) {
  return <time dateTime={iso}>{iso.slice(0, 10)}</time>;
}
