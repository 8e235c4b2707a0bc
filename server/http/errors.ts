import type { ZodError, ZodType, z } from 'zod';
import { fieldErrors, validate } from '../../common/validate.ts';

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
export const conflict = (message: string, errors?: Record<string, string>) =>
  new HttpError(409, message, errors);
export const payloadTooLarge = (message: string) => new HttpError(413, message);
export const unsupportedMediaType = (message: string, errors?: Record<string, string>) =>
  new HttpError(415, message, errors);
export const unprocessable = (message: string, errors?: Record<string, string>) =>
  new HttpError(422, message, errors);

/** 400 with the first message as the summary and every field's message in `errors`. */
export function validationError(error: ZodError): HttpError {
  const errors = fieldErrors(error);
  return new HttpError(400, Object.values(errors)[0] ?? 'Invalid request.', errors);
}

/** Checks input the one shared way (text rule, then schema); a refusal is a 400 with each field's message. */
export function parseInput<S extends ZodType>(schema: S, input: unknown): z.output<S> {
  const result = validate(schema, input);
  if (!result.success) throw new HttpError(400, result.message, result.errors);
  return result.data;
}

export { fieldErrors };

export const formatTooLarge = (maxBytes: number) =>
  payloadTooLarge(
    `The file is too large: the limit is ${maxBytes >= 1024 ** 2 ? `${Math.round(maxBytes / 1024 ** 2)} MB` : `${Math.round(maxBytes / 1024)} KB`}.`,
  );
