import { data } from 'react-router';
import { type ClientError, type PostedForm, type ReadFormOptions, readForm } from '../../lib/forms.server.ts';
import type { DashboardResult } from './ActionResult.tsx';

/**
 * Dashboard actions: the form read by the one reader (`readForm`), with the button pressed (`intent`), and
 * answers in the dashboard's result shape.
 */
export async function readDashboardForm(
  request: Request,
  opts: ReadFormOptions = {},
): Promise<{ ok: true; form: PostedForm; intent: string } | { ok: false; answer: ReturnType<typeof dashRefused> }> {
  const read = await readForm(request, opts);
  const intent = read.form.text('intent');
  if (!read.ok) return { ok: false, answer: dashRefused(intent, read.refusal, read.form.values()) };
  return { ok: true, form: read.form, intent };
}

/** A refusal, with each field's message and what was typed, for the form whose button was pressed. */
export function dashRefused(intent: string, refused: ClientError, values: Record<string, string> = {}) {
  return data<DashboardResult>(
    { ok: false, intent, message: refused.message, errors: refused.errors, values, at: Date.now() },
    { status: refused.status, headers: refused.headers },
  );
}

export function dashDone(intent: string, message: string) {
  return data<DashboardResult>({ ok: true, intent, message, at: Date.now() });
}

/** A refusal the action itself words (no such row, an unknown button). */
export function dashFail(intent: string, status: number, message: string, values: Record<string, string> = {}) {
  return dashRefused(intent, { status, message, errors: {} }, values);
}
