import { useLocation } from 'react-router';
import { Pagination } from '../components/dashboard/Pagination.tsx';
import { TableScroll } from '../components/dashboard/TableScroll.tsx';
import { pageOf, requireEditor } from '../components/dashboard/guard.server.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/editor-dashboard.audit';

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Audit log · Editorial dashboard') },
  { name: 'robots', content: 'noindex' },
];

const PAGE_SIZE = 50;

export async function loader({ context, request }: Route.LoaderArgs) {
  requireEditor(context, request);
  const { page, limit, offset } = pageOf(new URL(request.url), PAGE_SIZE);
  const { total, entries } = await context.services.audit.page(limit, offset);
  return {
    total,
    page,
    size: PAGE_SIZE,
    entries: entries.map((e) => ({ ...e, details: e.details ? JSON.stringify(e.details) : '' })),
  };
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const { entries, total, page, size } = loaderData;
  const location = useLocation();
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <p>Every privileged action: who did what, and when.</p>
      <TableScroll labelledBy="audit-caption">
        <table className="dash-table">
          <caption id="audit-caption">
            Audit log, newest first ({total}){total > size ? `, page ${page}` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">When (UTC)</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>
                  <time dateTime={e.createdAt}>{e.createdAt.slice(0, 19).replace('T', ' ')}</time>
                </td>
                <td>{e.actorUsername ?? 'system'}</td>
                <th scope="row">{e.action}</th>
                <td>{e.targetType ? `${e.targetType} ${e.targetId ?? ''}` : ''}</td>
                <td className="dash-table__wrap dash-table__details">
                  <code>{e.details}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Pagination page={page} total={total} size={size} search={location.search} label="Audit log pages" />
    </section>
  );
}
