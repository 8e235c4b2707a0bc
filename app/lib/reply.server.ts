import { data } from 'react-router';
import type { FormDone, FormRefusal, FormValues } from './form-result.ts';
import {
  type ClientError,
  clientError,
  type PostedForm,
  type ReadFormOptions,
  readForm,
} from './forms.server.ts';

export { clientError };

/**
 * The one way a page action answers (decision 0046): `replyDone` and `replyRefused` build the one result shape
 * (`app/lib/form-result.ts`) with its HTTP status. A refusal comes from the form reader (`readForm`), from the
 * check by the shared schema (`validateForm`), from a service's domain error (`asClientError`), or from the action's own words
 * (`clientError`).
 */

/**
 * A success: its message; the form as posted when it is drawn again unsaved (`values`); what the page shows next
 * (`payload`). 200 unless the page says (201, 202).
 */
export function replyDone<Values = FormValues, Payload extends object = object>(
  intent: string,
  message: string,
  opts: { status?: number; headers?: HeadersInit; values?: Values; payload?: Payload } = {},
) {
  const body = {
    ...(opts.payload as Payload),
    ok: true as const,
    intent,
    message,
    ...(opts.values === undefined ? {} : { values: opts.values }),
    at: Date.now(),
  };
  return data<FormDone<Values, Payload>>(body, { status: opts.status ?? 200, headers: opts.headers });
}

/**
 * A refusal, with its status (and headers, e.g. Retry-After), its message (or the form's own words for it), each
 * field's message, and what was typed (never a password), for the form to show again.
 */
export function replyRefused<Values = FormValues>(
  intent: string,
  refused: ClientError,
  values?: Values,
  message = refused.message,
) {
  return data<FormRefusal<Values>>(
    {
      ok: false,
      intent,
      status: refused.status,
      message,
      errors: refused.errors,
      values: values ?? ({} as Values),
      at: Date.now(),
    },
    { status: refused.status, headers: refused.headers },
  );
}

/**
 * Reads the form of a page with several forms (the dashboard, the account page), with the button pressed
 * (`intent`); refused, the answer is ready, with what was typed.
 */
export async function readIntentForm(
  request: Request,
  opts: ReadFormOptions = {},
): Promise<
  | { ok: true; form: PostedForm; intent: string }
  | { ok: false; answer: ReturnType<typeof replyRefused<FormValues>> }
> {
  const read = await readForm(request, opts);
  const intent = read.form.text('intent');
  if (!read.ok) return { ok: false, answer: replyRefused(intent, read.refusal, read.form.values()) };
  return { ok: true, form: read.form, intent };
}
