import type { FormResult } from '../../lib/form-result.ts';
import { FormAlert, FormStatus } from '../FormAlert.tsx';


/** The outcome of the last post: role="status" on success, role="alert" on refusal. */
export function ActionResult({ result }: { result: FormResult | undefined }) {
  if (!result) return null;
  if (result.ok) return <FormStatus>{result.message}</FormStatus>;
  return <FormAlert message={result.message} attempt={result.at} />;
}

/** The field errors and typed values of a refusal, only for the form whose intent it was. */
export function refusalFor(result: FormResult | undefined, intent: string) {
  if (!result || result.ok || result.intent !== intent)
    return { errors: {}, values: {} as Record<string, string> };
  return { errors: result.errors, values: result.values };
}
