import { type DomainError, type ErrorCode, isDomainError } from '../errors.ts';

/**
 * The one place a domain refusal's code becomes an HTTP status (decision 0042): the API's error handler
 * (server/app.ts) and the pages' bridge (app/lib/forms.server.ts `asClientError`) both read it.
 */
export const STATUS_OF: Readonly<Record<ErrorCode, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  unsupported_type: 415,
  range_not_satisfiable: 416,
  unprocessable: 422,
  too_many_attempts: 429,
  unavailable: 503,
};

/** A domain refusal's headers: Retry-After for a wait, Content-Range for a range past the end. */
export function domainHeaders(err: DomainError): Record<string, string> | undefined {
  const { retryAfterSeconds, size } = err.detail ?? {};
  if (retryAfterSeconds !== undefined) return { 'retry-after': String(retryAfterSeconds) };
  if (err.code === 'range_not_satisfiable' && size !== undefined)
    return { 'content-range': `bytes */${size}` };
  return undefined;
}

/** An HTTP refusal for `err` when it is one the client may see (a domain refusal or an HttpError), else null. */
export function asHttpError(err: unknown): HttpError | null {
  if (err instanceof HttpError) return err;
  if (isDomainError(err))
    return new HttpError(STATUS_OF[err.code], err.message, err.errors, domainHeaders(err));
  return null;
}

/** An error a client caused or may see: its status and message go to the client as they are. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: Record<string, string>) =>
  new HttpError(400, message, errors);
export const unauthorized = (message = 'Please log in to continue.') => new HttpError(401, message);
export const forbidden = (message = 'You do not have permission to do this.') => new HttpError(403, message);
export const payloadTooLarge = (message: string) => new HttpError(413, message);
export const unsupportedMediaType = (message: string, errors?: Record<string, string>) =>
  new HttpError(415, message, errors);
