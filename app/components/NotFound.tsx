import { Link } from 'react-router';
import { MESSAGES } from '../../common/messages.ts';

export function NotFound() {
  return (
    <div className="page page--narrow notice-page">
      <p className="notice-page__code" aria-hidden="true">
        404
      </p>
      <h1>Page not found</h1>
      <p className="lead">{MESSAGES.notFound}</p>
      <p className="notice-page__actions">
        <Link to="/" className="button button--primary">
          Go to the home page
        </Link>
        <Link to="/volumes" className="button button--secondary">
          Browse volumes
        </Link>
      </p>
    </div>
  );
}
