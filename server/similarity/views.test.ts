import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { SimilaritySummary } from '../../app/components/similarity/SimilaritySummary.tsx';
import type { SimilaritySummary as Summary } from './service.ts';

/** The desk's summary component (app/components/similarity), on the shapes summaryForSubmission returns. */
// Inside a router, as on the page: its links are the router's (journal-relative, decision 0056).
const render = (summary: Summary | null) =>
  renderToStaticMarkup(
    createElement(MemoryRouter, null, createElement(SimilaritySummary, { summary, submissionId: 7 })),
  );

const base: Summary = {
  submissionFileId: 11,
  version: 2,
  status: 'checked',
  plagiarismPercentage: 12.3,
  grammarQualityPercentage: 97.5,
  sources: [
    { label: 'An article', sharePercentage: 10.1, articleId: 4 },
    { label: 'A manuscript (COL-2026-0001, version 1)', sharePercentage: 2.2, articleId: null },
  ],
  error: null,
  checkedAt: '2026-11-22T09:00:00.000Z',
};

describe('SimilaritySummary', () => {
  it('shows both percentages with two decimals, the sources and a link to the report', () => {
    const html = render(base);
    expect(html).toContain('<strong>12.30 %</strong> similar, grammar quality 97.50 %');
    expect(html).toContain('href="/editor-dashboard/submissions/7/similarity"');
    expect(html).toContain('<a href="/article/4" data-discover="true">An article</a>: 10.10 %');
    expect(html).toContain('A manuscript (COL-2026-0001, version 1): 2.20 %');
  });

  it('says when the check is running, failed, or there is nothing to check', () => {
    expect(render({ ...base, status: 'pending', plagiarismPercentage: null })).toContain(
      'being checked in the background',
    );
    expect(render({ ...base, status: 'failed', error: 'No text could be read.' })).toContain(
      'could not be checked: No text could be read.',
    );
    expect(render(null)).toContain('No manuscript to check.');
  });
});
