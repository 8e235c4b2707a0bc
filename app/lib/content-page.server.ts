import { data } from 'react-router';
import type { PageSlug } from '../../common/content.ts';
import type { WebContext } from '../../server/web-context.ts';

/** A Markdown page's loader data; 404 when the office has removed the page. */
export async function loadContentPage(context: WebContext, slug: PageSlug) {
  const page = await context.services.content.page(slug);
  if (!page) throw data('This page is not available.', { status: 404 });
  return {
    title: page.title,
    description: page.description,
    html: page.html,
    canonicalUrl: `${context.services.journalUrl()}/${slug}`,
  };
}
