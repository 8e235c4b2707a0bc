import { describe, expect, it } from 'vitest';
import { doiFromPattern, doiPatternProblem, fillDoiPattern } from '../../common/doi.ts';
import { readDiagnostic, resultUrl } from './crossref-client.ts';

/** The rules of DOI registration without a database (decision 0064): the pattern, Crossref's answers. */

const VALUES = { prefix: '10.5555', journal: 'CJEI', year: 2026, volume: 3, issue: 2, number: 7, id: 41 };

describe('the DOI pattern', () => {
  it('fills the known placeholders, in lower case', () => {
    expect(fillDoiPattern('{prefix}/{journal}.{year}.{volume}.{issue}.{number}', VALUES)).toBe(
      '10.5555/cjei.2026.3.2.7',
    );
    expect(fillDoiPattern('{prefix}/a{id}', VALUES)).toBe('10.5555/a41');
    expect(fillDoiPattern('{prefix}/{journal}.{id}', { ...VALUES, journal: 'J. Soft Matter' })).toBe(
      '10.5555/j.-soft-matter.41',
    );
  });

  it('leaves out the part of an empty value rather than leave it empty, and gives no DOI that is not one', () => {
    const pattern = '{prefix}/{journal}.{year}.{volume}.{issue}.{number}';
    expect(doiFromPattern(pattern, VALUES)).toBe('10.5555/cjei.2026.3.2.7');
    // A journal without an abbreviation yet (decision 0062).
    expect(doiFromPattern(pattern, { ...VALUES, journal: '' })).toBe('10.5555/2026.3.2.7');
    expect(doiFromPattern('{prefix}/x.{journal}.{number}', { ...VALUES, journal: '' })).toBe('10.5555/x.7');
    expect(doiFromPattern('{prefix}/{number}.{journal}', { ...VALUES, journal: '' })).toBe('10.5555/7');
    // No prefix (a journal that has none): nothing, not a broken DOI.
    expect(doiFromPattern(pattern, { ...VALUES, prefix: '' })).toBeNull();
  });

  it('takes a good pattern and says what is wrong with a bad one', () => {
    expect(doiPatternProblem('{prefix}/cjei.{year}.{volume}.{issue}.{number}')).toBeNull();
    expect(doiPatternProblem('{prefix}/{id}')).toBeNull();
    expect(doiPatternProblem('{prefix}/x.{month}.{number}')).toMatch(/Unknown placeholder \{month\}/);
    expect(doiPatternProblem('{prefix}/x.{year}')).toMatch(/\{number\} or \{id\}/);
    expect(doiPatternProblem('10.5555/x.{number}')).toMatch(/start with \{prefix\}\//);
    expect(doiPatternProblem('{prefix}/x {number}')).toMatch(/no spaces/);
    expect(doiPatternProblem('{prefix}/x.{number')).toMatch(/brace/);
    expect(doiPatternProblem(`{prefix}/${'x'.repeat(200)}{number}`)).toMatch(/valid DOI/);
  });
});

const diagnostic = (status: string, body = '') =>
  `<?xml version="1.0"?><doi_batch_diagnostic status="${status}"><submission_id>12</submission_id><batch_id>b-1</batch_id>${body}</doi_batch_diagnostic>`;

describe("Crossref's answers", () => {
  it('reads a completed batch: success, warning, failure with its message', () => {
    expect(
      readDiagnostic(
        diagnostic(
          'completed',
          '<record_diagnostic status="Success"><doi>10.5555/a</doi><msg>Successfully added</msg></record_diagnostic><batch_data><failure_count>0</failure_count></batch_data>',
        ),
      ),
    ).toEqual({ kind: 'completed', success: true, message: null, batchId: 'b-1', submissionId: '12' });
    expect(
      readDiagnostic(
        diagnostic(
          'completed',
          '<record_diagnostic status="Warning"><doi>10.5555/a</doi><msg>Title differs</msg></record_diagnostic>',
        ),
      ),
    ).toMatchObject({ success: true, message: 'Registered with a warning: Title differs' });
    expect(
      readDiagnostic(
        diagnostic(
          'completed',
          '<record_diagnostic status="Failure"><doi>10.5555/a</doi><msg>Invalid ISSN</msg></record_diagnostic>',
        ),
      ),
    ).toMatchObject({ kind: 'completed', success: false, message: 'Invalid ISSN' });
  });

  it('reads a batch not yet processed as pending, and anything else as not a diagnostic', () => {
    expect(readDiagnostic(diagnostic('queued'))).toMatchObject({ kind: 'pending', batchId: 'b-1' });
    expect(readDiagnostic(diagnostic('in_process'))).toMatchObject({ kind: 'pending' });
    expect(readDiagnostic('<html>SUCCESS</html>')).toBeNull();
  });

  it('asks for results on the deposit endpoint’s host', () => {
    expect(resultUrl('https://test.crossref.org/v2/deposits')).toBe(
      'https://test.crossref.org/servlet/submissionDownload',
    );
  });
});
