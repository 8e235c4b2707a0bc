import { describe, expect, it } from 'vitest';
import { articleAuthorsHtml } from './article-authors.server.tsx';

const AUTHORS = [
  { name: 'Meera Iyer', affiliation: 'Anna University', orcid: '0000-0002-1694-233X' },
  { name: 'Tom <Brandt> & Co', affiliation: 'TU Delft', orcid: null },
  { name: 'Ravi Kumar', affiliation: 'Anna University' },
];

describe('the article page’s by-line (server-made HTML)', () => {
  const html = articleAuthorsHtml(AUTHORS);

  it('follows an author with an ORCID iD by the iD mark linked to orcid.org, named for screen readers', () => {
    expect(html).toContain(
      '<a class="orcid-link orcid-link--compact" href="https://orcid.org/0000-0002-1694-233X">',
    );
    expect(html).toContain('<span class="visually-hidden">ORCID iD of Meera Iyer</span>');
    // The mark is drawn inline and hidden from assistive technology: the words above are the link's name.
    expect(html).toMatch(/<svg class="orcid-mark"[^>]*aria-hidden="true"/);
    expect(html).toContain('fill="#a6ce39"');
  });

  it('has one link per iD, none for authors without one, and escapes names', () => {
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).toContain('Tom &lt;Brandt&gt; &amp; Co');
    expect(html).not.toContain('<Brandt>');
  });

  it('numbers the affiliations by first appearance, as before', () => {
    const names = html.slice(0, html.indexOf('</ul>'));
    expect(
      names.match(/<sup>.*?<\/sup>/g)?.map((s) => s.replace(/<[^>]+>/g, '').replace(' affiliation ', '')),
    ).toEqual(['1', '2', '1']);
    expect(html).toContain('<li><sup>1</sup> Anna University</li><li><sup>2</sup> TU Delft</li>');
  });
});
