import type { ZodError } from 'zod';
import { fieldErrors } from '../../server/http/errors.ts';

/** What a failed form post sends back to its page: a summary, each field's message, what was typed. */
export interface FormFailure<Values> {
  ok: false;
  message: string;
  errors: Record<string, string>;
  values: Values;
}

/** A form field's text; absent fields and file fields read as ''. */
export function textField(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}

/** The same shape the JSON API answers with for invalid input: the first message, and each field's. */
export function validationFailure(error: ZodError): {
  status: number;
  message: string;
  errors: Record<string, string>;
} {
  const errors = fieldErrors(error);
  return { status: 400, message: Object.values(errors)[0] ?? 'Invalid request.', errors };
}

export interface ClientError {
  status: number;
  message: string;
  errors: Record<string, string>;
  headers?: Record<string, string>;
}

/**
 * A refusal the visitor caused (4xx) thrown by a service, or the file store's 503 when the disk is full or
 * unwritable (server/files/blob-store.ts StorageUnavailableError, marked `storageFault`; its cause is logged
 * there). The services throw the server's HttpError, but this page bundle holds its own copy of that class,
 * so `instanceof` would never match: recognise the shape.
 */
export function asClientError(err: unknown): ClientError | null {
  if (!(err instanceof Error)) return null;
  const { status, errors, headers, storageFault } = err as Error & {
    status?: unknown;
    errors?: unknown;
    headers?: unknown;
    storageFault?: unknown;
  };
  const storage = storageFault === true && status === 503;
  if (typeof status !== 'number' || ((status < 400 || status > 499) && !storage)) return null;
  return {
    status,
    message: err.message,
    errors: isStringRecord(errors) ? errors : {},
    ...(isStringRecord(headers) ? { headers } : {}),
  };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === 'object' && value !== null && Object.values(value).every((v) => typeof v === 'string')
  );
}
