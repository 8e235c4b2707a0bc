import { data } from 'react-router';
import { NotFound } from '../components/NotFound.tsx';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/not-found';

export function loader() {
  return data(null, { status: 404 });
}

// A form posted to an unknown address gets the same page, not a "method not allowed" error.
export function action() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle(matches, 'Page not found') },
  { name: 'robots', content: 'noindex' },
];

export default function NotFoundRoute() {
  return <NotFound />;
}
