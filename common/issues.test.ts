import { describe, expect, it } from 'vitest';
import { issueLabel } from './issues.ts';

describe('issueLabel', () => {
  it('does not repeat a title that only says "Issue N"', () => {
    expect(issueLabel({ volume_number: 1, issue_number: 1, title: 'Issue 1' })).toBe('Volume 1, Issue 1');
    expect(issueLabel({ volume_number: 2, issue_number: 3, title: ' issue 3 ' })).toBe('Volume 2, Issue 3');
    expect(issueLabel({ volume_number: 2, issue_number: 3, title: '' })).toBe('Volume 2, Issue 3');
  });

  it('keeps a title that says more', () => {
    expect(issueLabel({ volume_number: 1, issue_number: 2, title: 'Special issue on edge computing' })).toBe(
      'Volume 1, Issue 2: Special issue on edge computing',
    );
  });
});
