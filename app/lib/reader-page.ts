import contentCss from '../styles/content.css?url';
import articleCss from '../styles/article.css?url';

/**
 * The reading pages' stylesheets: content.css styles JournalPageLayout's header (as on the journal's other
 * pages); article.css is theirs, after it.
 */
export const readerLinks = () => [
  { rel: 'stylesheet', href: contentCss },
  { rel: 'stylesheet', href: articleCss },
];
