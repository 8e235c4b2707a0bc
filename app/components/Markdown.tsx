import { useJournalPrefix, withPrefixedLinks } from '../lib/journal-href.ts';

/**
 * HTML the server rendered from the journal's Markdown and sanitized (server/content/markdown.ts). The
 * browser never parses Markdown: it gets the same HTML on the first load and on client navigation.
 */
export function Markdown({ html, className }: { html: string; className?: string }) {
  // The journal's own links in its words (`/instructions`) are under its path when it has one.
  const prefix = useJournalPrefix();
  return (
    <div
      className={className ? `prose ${className}` : 'prose'}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server with an allow-list
      dangerouslySetInnerHTML={{ __html: withPrefixedLinks(html, prefix) }}
    />
  );
}
