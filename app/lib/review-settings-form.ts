import { REMINDER_KINDS, type ReviewSettings } from '../../common/review.ts';

/**
 * Journal settings' peer-review group as form fields (`review.respondDays`, `review.reminders.response`, …)
 * and back. A reminder list is typed as day offsets separated by commas ("-2, 1"; empty: no reminders);
 * anything that is not a whole number is passed on as typed, for the shared schema to refuse in its words.
 */
export const REVIEW_SETTING_FIELDS = [
  'review.respondDays',
  'review.reviewDays',
  'review.revisionDays',
  'review.defaultMode',
  'review.reminders.response',
  'review.reminders.review',
  'review.reminders.revision',
  'review.tellReviewersDecision',
  'review.timeZone',
] as const;

const whole = (v: string) => (/^\s*\d{1,6}\s*$/.test(v) ? Number(v) : v.trim() === '' ? undefined : v);
const offsets = (v: string) =>
  v
    .split(/[,;\s]+/)
    .filter(Boolean)
    .map((t) => {
      const n = t.replace('\u2212', '-');
      return /^[-+]?\d{1,6}$/.test(n) ? Number(n) : t;
    });

export function reviewSettingsFromForm(text: (name: string) => string): unknown {
  return {
    respondDays: whole(text('review.respondDays')),
    reviewDays: whole(text('review.reviewDays')),
    revisionDays: whole(text('review.revisionDays')),
    defaultMode: text('review.defaultMode') || undefined,
    reminders: Object.fromEntries(REMINDER_KINDS.map((k) => [k, offsets(text(`review.reminders.${k}`))])),
    tellReviewersDecision: text('review.tellReviewersDecision') === 'on',
    timeZone: text('review.timeZone'),
  };
}

export function reviewSettingsToForm(r: ReviewSettings): Record<string, string> {
  return {
    'review.respondDays': String(r.respondDays),
    'review.reviewDays': String(r.reviewDays),
    'review.revisionDays': String(r.revisionDays),
    'review.defaultMode': r.defaultMode,
    ...Object.fromEntries(REMINDER_KINDS.map((k) => [`review.reminders.${k}`, r.reminders[k].join(', ')])),
    'review.tellReviewersDecision': r.tellReviewersDecision ? 'on' : '',
    'review.timeZone': r.timeZone,
  };
}

/** A refusal's keys as the form's fields: an offset's error (`review.reminders.review.1`) is its list's. */
export function reviewFieldErrors(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors)) {
    const list = /^review\.reminders\.(response|review|revision)/.exec(key);
    const name = list ? `review.reminders.${list[1]}` : key;
    out[name] ??= message;
  }
  return out;
}
