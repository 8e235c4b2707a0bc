import { FormAlert, FormStatus } from '../FormAlert.tsx';

/** What every dashboard action answers: a message, and for refusals each field's message and what was typed. */
export type DashboardResult =
  | { ok: true; intent: string; message: string; at: number }
  | {
      ok: false;
      intent: string;
      message: string;
      errors: Record<string, string>;
      values: Record<string, string>;
      at: number;
    };

/** The outcome of the last post: role="status" on success, role="alert" on refusal. */
export function ActionResult({ result }: { result: DashboardResult | undefined }) {
  if (!result) return null;
  if (result.ok) return <FormStatus>{result.message}</FormStatus>;
  return <FormAlert message={result.message} attempt={result.at} />;
}

/** The field errors and typed values of a refusal, only for the form whose intent it was. */
export function refusalFor(result: DashboardResult | undefined, intent: string) {
  if (!result || result.ok || result.intent !== intent)
    return { errors: {}, values: {} as Record<string, string> };
  return { errors: result.errors, values: result.values };
}
