/**
 * What a page's form action answers, for the form whose button (`intent`) was pressed: a message, and for a
 * refusal each field's message and what was typed. `at` tells one answer from the next (forms re-key on it).
 * The dashboard and the account page answer in this shape (`app/lib/intent-form.server.ts`).
 */
export type FormResult =
  | { ok: true; intent: string; message: string; at: number }
  | {
      ok: false;
      intent: string;
      message: string;
      errors: Record<string, string>;
      values: Record<string, string>;
      at: number;
    };
