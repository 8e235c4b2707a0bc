import { JournalPageLayout } from '../components/JournalPageLayout.tsx';
import { Markdown } from '../components/Markdown.tsx';
import { contentLinks, contentMeta } from '../lib/content-page.ts';
import { loadContentPage } from '../lib/content-page.server.ts';
import { publicPage } from '../lib/cache.ts';
import type { Route } from './+types/apc';

/** The same for every signed-out reader: kept and shared (decision 0018). */
export const headers: Route.HeadersFunction = publicPage;

export const links: Route.LinksFunction = contentLinks;

/** The words are the office's Markdown (settings key `content.page.apc`), rendered on the server. */
export function loader({ context }: Route.LoaderArgs) {
  return loadContentPage(context, 'apc');
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => contentMeta(matches, loaderData);

export default function ApcPage({ loaderData }: Route.ComponentProps) {
  return (
    <JournalPageLayout title={loaderData.title}>
      <Markdown html={loaderData.html} />
    </JournalPageLayout>
  );
}
