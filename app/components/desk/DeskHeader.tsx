import { Link } from 'react-router';
import { DateText } from '../submission/DateText.tsx';
import { StatusBadge } from '../submission/StatusBadge.tsx';
import type { DeskSubmission } from './desk-loader.server.ts';

/** The desk page's head: the way back, the reference and title, the status, and who submitted it when. */
export function DeskHeader({ submission: s }: { submission: DeskSubmission }) {
  return (
    <>
      <p className="breadcrumb">
        <Link to="/editor-dashboard/submissions">
          <span aria-hidden="true">← </span>All submissions
        </Link>
      </p>
      <header className="submission-detail__header desk-submission__header">
        <p className="reference">{s.reference}</p>
        <h1 id="submission-title" className="submission-detail__title">
          {s.title}
        </h1>
        <p className="submission-detail__status">
          Status: <StatusBadge status={s.status} published={s.articleId !== null} />
        </p>
        <dl className="meta-list">
          <div>
            <dt>Submitted</dt>
            <dd>
              <DateText iso={s.createdAt} time />
            </dd>
          </div>
          <div>
            <dt>Last update</dt>
            <dd>
              <DateText iso={s.updatedAt} time />
            </dd>
          </div>
          <div>
            <dt>Submitted by</dt>
            <dd>
              {s.submitter.fullName} ({s.submitter.username},{' '}
              <a href={`mailto:${s.submitter.email}`}>{s.submitter.email}</a>)
            </dd>
          </div>
        </dl>
      </header>
    </>
  );
}
