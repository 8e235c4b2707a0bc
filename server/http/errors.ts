import type { ZodError } from 'zod';

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
export const notFound = (message = 'Not found.') => new HttpError(404, message);
export const conflict = (message: string, errors?: Record<string, string>) => new HttpError(409, message, errors);
export const payloadTooLarge = (message: string) => new HttpError(413, message);
export const unsupportedMediaType = (message: string, errors?: Record<string, string>) =>
  new HttpError(415, message, errors);
export const unprocessable = (message: string, errors?: Record<string, string>) =>
  new HttpError(422, message, errors);

/** Field name → first message, for forms to show beside each field. */
export function fieldErrors(error: ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    // A body or query that is not an object at all (an array, a string): say what is expected.
    const message = !issue.path.length && issue.code === 'invalid_type' ? 'Expected a JSON object.' : issue.message;
    out[key] ??= message;
  }
  return out;
}

/** 400 with the first message as the summary and every field's message in `errors`. */
export function validationError(error: ZodError): HttpError {
  const errors = fieldErrors(error);
  return new HttpError(400, Object.values(errors)[0] ?? 'Invalid request.', errors);
}

export const formatTooLarge = (maxBytes: number) =>
  payloadTooLarge(
    `The file is too large: the limit is ${maxBytes >= 1024 ** 2 ? `${Math.round(maxBytes / 1024 ** 2)} MB` : `${Math.round(maxBytes / 1024)} KB`}.`,
  );
