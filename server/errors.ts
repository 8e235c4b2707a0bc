import type { ZodType, z } from 'zod';
import { validate } from '../common/validate.ts';

/**
 * The domain's refusals (decision 0042). A service refuses with a `DomainError`: a stable code saying what
 * kind of refusal it is, a message for people (shown as it is), and each field's message. It knows nothing of
 * HTTP: the codes become status codes in one place (`server/http/errors.ts`, `STATUS_OF`), used by the API's
 * error handler and by the pages' bridge (`app/lib/forms.server.ts`).
 *
 * Recognised by its shape (`isDomainError`), not `instanceof`: page actions run from the pages' bundle, which
 * holds its own copy of this module.
 */

export type ErrorCode =
  /** The input breaks a rule of its form: a field is missing, too long, malformed. */
  | 'invalid'
  /** Nobody is signed in, or the credentials are wrong. */
  | 'unauthenticated'
  /** Signed in, but this person may not do this. */
  | 'forbidden'
  | 'not_found'
  /** The thing is not in a state that allows this (already published, already decided, a duplicate). */
  | 'conflict'
  /** It existed and is gone for good (a closed review invitation). */
  | 'gone'
  | 'too_large'
  /** A file of a kind this field does not take. */
  | 'unsupported_type'
  /** A byte range past the end of the file. */
  | 'range_not_satisfiable'
  /** Well-formed, but its content cannot be used (a damaged or password-protected file, a refused reviewer). */
  | 'unprocessable'
  | 'too_many_attempts'
  /** Nobody's mistake: a part we depend on (storage, a checker) is busy or down; try again later. */
  | 'unavailable';

export interface DomainErrorDetail {
  /** When to try again (too_many_attempts, unavailable). */
  retryAfterSeconds?: number;
  /** The whole file's size in bytes (range_not_satisfiable). */
  size?: number;
}

export class DomainError extends Error {
  /** The brand `isDomainError` looks for (the pages' bundle has its own copy of this class). */
  readonly domainError = true;
  override readonly name: string = 'DomainError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Each field's message, by the form's field names. */
    readonly errors?: Record<string, string>,
    readonly detail: DomainErrorDetail = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isDomainError(err: unknown): err is DomainError {
  return (
    err instanceof Error &&
    (err as Partial<DomainError>).domainError === true &&
    typeof (err as Partial<DomainError>).code === 'string'
  );
}

export const invalid = (message: string, errors?: Record<string, string>) =>
  new DomainError('invalid', message, errors);
export const unauthenticated = (message = 'Please log in to continue.') =>
  new DomainError('unauthenticated', message);
export const forbidden = (message = 'You do not have permission to do this.') =>
  new DomainError('forbidden', message);
export const notFound = (message = 'Not found.') => new DomainError('not_found', message);
export const conflict = (message: string, errors?: Record<string, string>) =>
  new DomainError('conflict', message, errors);
export const gone = (message: string) => new DomainError('gone', message);
export const tooLarge = (message: string, errors?: Record<string, string>) =>
  new DomainError('too_large', message, errors);
export const unsupportedType = (message: string, errors?: Record<string, string>) =>
  new DomainError('unsupported_type', message, errors);
export const unprocessable = (message: string, errors?: Record<string, string>) =>
  new DomainError('unprocessable', message, errors);
export const unavailable = (message: string, retryAfterSeconds?: number) =>
  new DomainError('unavailable', message, undefined, retryAfterSeconds ? { retryAfterSeconds } : {});

/** Too many attempts: try again after `retryAfterMs` (said in whole seconds, at least 1). */
export const tooManyAttempts = (message: string, retryAfterMs: number) =>
  new DomainError('too_many_attempts', message, undefined, {
    retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
  });

/**
 * Checks input the one shared way (`validate` of common/validate.ts: the text rule, then the schema); a
 * refusal is `invalid` with each field's message.
 */
export function parseInput<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const result = validate(schema, input);
  if (!result.success) throw invalid(result.message, result.errors);
  return result.data;
}

/** The same refusal with every field's message put under `field` too (an upload's own input). */
export function onField(err: DomainError, field: string): DomainError {
  return new DomainError(err.code, err.message, { ...err.errors, [field]: err.message }, err.detail, {
    cause: err,
  });
}
