import type { Question, ReviewMode } from '../../common/review.ts';

/**
 * The review form's fields as posted (`recommendation`, `commentsForAuthor`, `confidentialComments`,
 * `answers.<question id>`, `publishAgreed`) turned into the service's draft: yes/no as booleans, the 1-5
 * scale as a number, an empty answer as none. Anything else is passed on as typed, for the shared checks
 * to refuse with their own words.
 */
export function draftFromForm(
  form: { text(name: string): string; has(name: string): boolean },
  questions: readonly Question[],
  mode: ReviewMode,
) {
  const answers: Record<string, string | number | boolean | null> = {};
  for (const q of questions) {
    const raw = form.text(answerField(q.id)).trim();
    if (raw === '') answers[q.id] = null;
    else if (q.type === 'yes-no') answers[q.id] = raw === 'yes' ? true : raw === 'no' ? false : raw;
    else if (q.type === 'scale') answers[q.id] = /^[1-5]$/.test(raw) ? Number(raw) : raw;
    else answers[q.id] = form.text(answerField(q.id));
  }
  return {
    recommendation: form.text('recommendation') || null,
    commentsForAuthor: form.text('commentsForAuthor'),
    confidentialComments: form.text('confidentialComments'),
    answers,
    ...(mode === 'open' ? { publishAgreed: form.text('publishAgreed') === 'true' } : {}),
  };
}

/** Marks the draft the page saves by itself while the reviewer types (not a button the reviewer pressed). */
export const AUTOSAVE = 'autosave';

/** The checkbox that removes the draft's attached file with the next save (as Django's file inputs do). */
export const REMOVE_ATTACHMENT = 'removeAttachment';

/** The posted name of a question's answer (its field id is `field-answers-<id>`, as error messages say). */
export const answerField = (questionId: string) => `answers.${questionId}`;

/** The text fields of the review form, for the browser's copy kept when a session ends. */
export function reviewFieldNames(questions: readonly Question[]): string[] {
  return [
    'recommendation',
    'commentsForAuthor',
    'confidentialComments',
    ...questions
      .filter((q) => q.type !== 'yes-no' && q.type !== 'choice' && q.type !== 'scale')
      .map((q) => answerField(q.id)),
  ];
}
