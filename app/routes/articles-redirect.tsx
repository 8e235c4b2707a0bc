import { redirect } from 'react-router';
import { idParam } from '../lib/route-params.ts';
import type { Route } from './+types/articles-redirect';

/** /articles/{id} (the spec's home-page cards link there) is the article page's old address: 301 to it. */
export function loader({ params }: Route.LoaderArgs) {
  const id = idParam(params.id);
  return redirect(`/article/${id}`, 301);
}
