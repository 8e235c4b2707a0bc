import { type FormResult, type FormValues, postedOf, refusalOf } from '../../lib/form-result.ts';
import { FormAlert, FormStatus } from '../FormAlert.tsx';

/** The outcome of the last post: role="status" on success, role="alert" (taking focus) on refusal. */
export function ActionResult({ result }: { result: FormResult<unknown, object> | undefined }) {
  if (!result) return null;
  if (result.ok) return <FormStatus>{result.message}</FormStatus>;
  return <FormAlert message={result.message} attempt={result.at} />;
}

/**
 * The field errors and typed values of the form whose intent it was: refused, or drawn again unsaved (a row
 * added or removed).
 */
export function refusalFor(result: FormResult<FormValues, object> | undefined, intent: string) {
  return { errors: refusalOf(result, intent)?.errors ?? {}, values: postedOf(result, intent) ?? {} };
}
