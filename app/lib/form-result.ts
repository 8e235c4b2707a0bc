/**
 * What every page action answers (decision 0046), like Epic Stack's `submission.reply()`: for the form whose
 * button (`intent`) was pressed, a success with its message, or a refusal with its HTTP status, a summary, each
 * field's message and what was typed, for the form to show again. `at` tells one answer from the next (forms
 * re-key on it, and the alert takes focus when it changes). Produced only by `app/lib/reply.server.ts`.
 *
 * What was typed (`Values`) is text fields unless a form keeps more (repeated rows, authors). A success carries
 * it too when the form is drawn again as posted, not saved (a row added, moved or removed); and it may carry
 * what the page shows next (`Payload`: a similarity report, the account as saved).
 */
export type FormValues = Record<string, string>;

export type FormDone<Values = FormValues, Payload extends object = object> = {
  ok: true;
  intent: string;
  message: string;
  values?: Values;
  at: number;
} & Payload;

export interface FormRefusal<Values = FormValues> {
  ok: false;
  intent: string;
  status: number;
  message: string;
  errors: Record<string, string>;
  values: Values;
  at: number;
}

export type FormResult<Values = FormValues, Payload extends object = object> =
  | FormDone<Values, Payload>
  | FormRefusal<Values>;

/** The refusal of this answer, when it is one and is the answer to the form whose button is `intent`. */
export function refusalOf<Values>(
  result: FormResult<Values, object> | undefined,
  intent?: string,
): FormRefusal<Values> | null {
  if (!result || result.ok) return null;
  return intent === undefined || result.intent === intent ? result : null;
}

/** The form as it was posted (refused, or drawn again unsaved), when this is the answer to the form `intent`. */
export function postedOf<Values>(
  result: FormResult<Values, object> | undefined,
  intent?: string,
): Values | null {
  if (!result || (intent !== undefined && result.intent !== intent)) return null;
  return result.values ?? null;
}
