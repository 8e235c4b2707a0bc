import { describe, expect, it } from 'vitest';
import {
  answerProblems,
  isTimeZone,
  REVIEW_SETTINGS_DEFAULTS,
  reviewSettingsSchema,
} from '../../common/review.ts';
import {
  addDays,
  assignmentStatus,
  conflicts,
  dayIn,
  dueInstant,
  nextState,
  ReviewLinks,
  reminderInstant,
  startOfDay,
} from './rules.ts';

describe('due days in the journal time zone', () => {
  it('ends a due day at the next midnight in UTC', () => {
    expect(dueInstant('2026-03-10', 'UTC').toISOString()).toBe('2026-03-11T00:00:00.000Z');
  });

  it('ends a due day at local midnight in a non-UTC zone', () => {
    expect(dueInstant('2026-03-10', 'Asia/Kolkata').toISOString()).toBe('2026-03-10T18:30:00.000Z');
    expect(dueInstant('2026-07-10', 'America/New_York').toISOString()).toBe('2026-07-11T04:00:00.000Z');
    expect(dueInstant('2026-01-10', 'America/New_York').toISOString()).toBe('2026-01-11T05:00:00.000Z');
  });

  it('stays on local midnight across the spring and autumn DST changes', () => {
    // Europe/Berlin: clocks go forward on 2026-03-29 and back on 2026-10-25.
    expect(dueInstant('2026-03-28', 'Europe/Berlin').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(dueInstant('2026-03-29', 'Europe/Berlin').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(dueInstant('2026-10-24', 'Europe/Berlin').toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(dueInstant('2026-10-25', 'Europe/Berlin').toISOString()).toBe('2026-10-25T23:00:00.000Z');
    // A reminder two days before a deadline across the change is two calendar days, not 48 hours.
    const due = dueInstant('2026-03-30', 'Europe/Berlin').getTime();
    const before = reminderInstant('2026-03-30', -2, 'Europe/Berlin').getTime();
    expect(before.toString()).toBe(String(Date.parse('2026-03-28T23:00:00Z')));
    expect((due - before) / 3_600_000).toBe(47);
  });

  it('starts a day whose midnight does not exist at the jump', () => {
    // America/Santiago moved clocks from 00:00 to 01:00 on 2026-09-06.
    const start = startOfDay('2026-09-06', 'America/Santiago');
    expect(dayIn(start.getTime(), 'America/Santiago')).toBe('2026-09-06');
    expect(dayIn(start.getTime() - 1, 'America/Santiago')).toBe('2026-09-05');
  });

  it('adds calendar days and reads the local day', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(dayIn(Date.parse('2026-03-10T20:00:00Z'), 'Asia/Kolkata')).toBe('2026-03-11');
  });

  it('knows time zone names and validates the review settings', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(reviewSettingsSchema.safeParse(REVIEW_SETTINGS_DEFAULTS).success).toBe(true);
    const bad = reviewSettingsSchema.safeParse({
      ...REVIEW_SETTINGS_DEFAULTS,
      timeZone: 'Nowhere',
      respondDays: 0,
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => i.message)).toEqual([
      'Days to respond must be at least 1.',
      'Use a time zone name such as UTC, Europe/Berlin or Asia/Kolkata.',
    ]);
    const twice = reviewSettingsSchema.safeParse({
      ...REVIEW_SETTINGS_DEFAULTS,
      reminders: { ...REVIEW_SETTINGS_DEFAULTS.reminders, review: [1, 1] },
    });
    expect(twice.error!.issues[0].message).toBe('Review reminders: each offset once.');
  });
});

describe('the assignment state machine', () => {
  it('moves invited → accepted | declined → submitted, and nothing else', () => {
    expect(nextState('invited', 'accept')).toBe('accepted');
    expect(nextState('invited', 'decline')).toBe('declined');
    expect(nextState('accepted', 'submit')).toBe('submitted');
    expect(nextState('invited', 'submit')).toBeNull();
    expect(nextState('declined', 'accept')).toBeNull();
    expect(nextState('submitted', 'submit')).toBeNull();
    expect(nextState('accepted', 'decline')).toBeNull();
  });

  it('cancels open assignments and reinstates them where they were', () => {
    expect(nextState('invited', 'cancel')).toBe('cancelled');
    expect(nextState('accepted', 'cancel')).toBe('cancelled');
    expect(nextState('submitted', 'cancel')).toBeNull();
    expect(nextState('declined', 'cancel')).toBeNull();
    expect(nextState('cancelled', 'reinstate', 'accepted')).toBe('accepted');
    expect(nextState('cancelled', 'reinstate', 'invited')).toBe('invited');
    expect(nextState('invited', 'reinstate')).toBeNull();
  });

  it('derives overdue from the due dates at the end of the day', () => {
    const a = { state: 'invited' as const, responseDue: '2026-03-10', reviewDue: '2026-04-07' };
    const end = Date.parse('2026-03-10T18:30:00Z'); // midnight in Kolkata
    expect(assignmentStatus(a, end - 1, 'Asia/Kolkata')).toBe('invited');
    expect(assignmentStatus(a, end, 'Asia/Kolkata')).toBe('response-overdue');
    expect(assignmentStatus({ ...a, state: 'accepted' }, end, 'Asia/Kolkata')).toBe('accepted');
    expect(assignmentStatus({ ...a, state: 'accepted' }, Date.parse('2026-04-08T00:00:00Z'), 'UTC')).toBe(
      'review-overdue',
    );
    expect(assignmentStatus({ ...a, state: 'declined' }, Date.parse('2027-01-01'), 'UTC')).toBe('declined');
  });
});

describe('conflicts of interest', () => {
  const submitter = { email: 'Sub@Example.org', affiliation: 'Madras Institute' };
  const authors = [
    { email: 'sub@example.org', affiliation: 'Madras Institute' },
    { email: 'co@uni.example', affiliation: 'Univ. of Chennai' },
  ];
  it('refuses the submitter and any author, saying why', () => {
    expect(conflicts({ email: 'sub@example.org ', affiliation: '' }, authors, submitter).refusal).toMatch(
      /submitted the manuscript/,
    );
    expect(conflicts({ email: 'CO@uni.example', affiliation: '' }, authors, submitter).refusal).toMatch(
      /an author of the manuscript/,
    );
  });
  it('warns about a shared institution and passes anyone else', () => {
    const same = conflicts({ email: 'r@x.org', affiliation: 'univ of  Chennai' }, authors, submitter);
    expect(same.refusal).toBeUndefined();
    expect(same.warning).toMatch(/institution \(univ of {2}Chennai\) is also an author's/);
    expect(conflicts({ email: 'r@x.org', affiliation: '' }, authors, submitter)).toEqual({});
    expect(conflicts({ email: 'r@x.org', affiliation: 'Elsewhere' }, authors, submitter)).toEqual({});
  });
});

describe('the invitation link token', () => {
  const links = new ReviewLinks('a-server-secret-long-enough-0123456789');
  it('verifies by recomputing, for that assignment and nonce only', () => {
    const token = links.token(42, 'nonce-a');
    expect(ReviewLinks.idOf(token)).toBe(42);
    expect(links.verify(token, 42, 'nonce-a')).toBe(true);
    expect(links.verify(token, 42, 'nonce-b')).toBe(false);
    expect(links.verify(token.replace('42.', '43.'), 43, 'nonce-a')).toBe(false);
    expect(new ReviewLinks('another-secret-0123456789-0123456789').verify(token, 42, 'nonce-a')).toBe(false);
    expect(ReviewLinks.idOf('42.short')).toBeNull();
    expect(ReviewLinks.idOf('x.y')).toBeNull();
  });
});

describe('review form answers', () => {
  const questions = [
    { id: 'novel', type: 'yes-no' as const, label: 'Is it novel?', required: true },
    { id: 'quality', type: 'scale' as const, label: 'Quality', required: false },
    { id: 'fit', type: 'choice' as const, label: 'Fit', required: false, options: ['Good', 'Poor'] },
  ];
  it('lets a draft be incomplete but checks types, and a submission for required answers', () => {
    expect(answerProblems(questions, {}, { complete: false })).toEqual({});
    expect(answerProblems(questions, {}, { complete: true })).toEqual({
      'answers.novel': 'Answer "Is it novel?".',
    });
    expect(
      answerProblems(questions, { novel: 'yes', quality: 6, fit: 'Fine', extra: 'x' }, { complete: false }),
    ).toEqual({
      'answers.novel': 'Answer "Is it novel?" with yes or no.',
      'answers.quality': 'Answer "Quality" from 1 to 5.',
      'answers.fit': 'Choose one of the options for "Fit".',
      'answers.extra': 'This question is not on the form.',
    });
    expect(answerProblems(questions, { novel: true, quality: 5, fit: 'Good' }, { complete: true })).toEqual(
      {},
    );
  });
});
