import { Link } from 'react-router';

/** Previous/next links that keep the rest of the query string. */
export function Pagination({
  page,
  total,
  size,
  search,
  label,
}: {
  page: number;
  total: number;
  size: number;
  search: string;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages <= 1) return null;
  const to = (p: number) => {
    const params = new URLSearchParams(search);
    params.set('page', String(p));
    return `?${params}`;
  };
  return (
    <nav className="dash-pagination" aria-label={label}>
      {page > 1 ? <Link to={to(page - 1)}>← Previous</Link> : null}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? <Link to={to(page + 1)}>Next →</Link> : null}
    </nav>
  );
}
