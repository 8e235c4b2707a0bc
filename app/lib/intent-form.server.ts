import { data } from 'react-router';
import type { FormResult } from './form-result.ts';
import { type ClientError, type PostedForm, type ReadFormOptions, readForm } from './forms.server.ts';

/**
 * Actions of pages with several forms (the dashboard, the account page): the form read by the one reader
 * (`readForm`), with the button pressed (`intent`), and answers in one shape (`FormResult`).
 */
export async function readIntentForm(
  request: Request,
  opts: ReadFormOptions = {},
): Promise<{ ok: true; form: PostedForm; intent: string } | { ok: false; answer: ReturnType<typeof intentRefused> }> {
  const read = await readForm(request, opts);
  const intent = read.form.text('intent');
  if (!read.ok) return { ok: false, answer: intentRefused(intent, read.refusal, read.form.values()) };
  return { ok: true, form: read.form, intent };
}

/** A refusal, with each field's message and what was typed, for the form whose button was pressed. */
export function intentRefused(intent: string, refused: ClientError, values: Record<string, string> = {}) {
  return data<FormResult>(
    { ok: false, intent, message: refused.message, errors: refused.errors, values, at: Date.now() },
    { status: refused.status, headers: refused.headers },
  );
}

export function intentDone(intent: string, message: string) {
  return data<FormResult>({ ok: true, intent, message, at: Date.now() });
}

/** A refusal the action itself words (no such row, an unknown button). */
export function intentFailed(intent: string, status: number, message: string, values: Record<string, string> = {}) {
  return intentRefused(intent, { status, message, errors: {} }, values);
}
