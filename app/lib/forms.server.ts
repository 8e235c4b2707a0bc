import type { ZodType, z } from 'zod';
import { isStorableText, UNSTORABLE_TEXT, validate } from '../../common/validate.ts';
import { isDomainError } from '../../server/errors.ts';
import { CROSS_SITE } from '../../server/http/auth.ts';
import { domainHeaders, STATUS_OF } from '../../server/http/errors.ts';
import { type FormBodyLimits, type FormFile, readFormBody } from '../../server/http/form-body.ts';
import { isCrossSite } from './session.server.ts';

/**
 * Page actions read their form here, and only here: one reader with limits (server/http/form-body.ts), the
 * cross-site rule, the text rule and the shared Zod schemas, and one result shape for refusals.
 */

/** A refusal to show on the page: its HTTP status, a summary, each field's message. */
export interface ClientError {
  status: number;
  message: string;
  errors: Record<string, string>;
  headers?: Record<string, string>;
}

/** A posted form: its text fields and chosen files. */
export class PostedForm {
  constructor(
    private readonly fields: Map<string, string[]> = new Map(),
    private readonly files: Map<string, FormFile> = new Map(),
  ) {}

  /** A field's (first) text; '' when absent. */
  text(name: string): string {
    return this.fields.get(name)?.[0] ?? '';
  }

  /** Every value a field was sent with (checkboxes, repeated rows). */
  all(name: string): string[] {
    return this.fields.get(name) ?? [];
  }

  has(name: string): boolean {
    return this.fields.has(name);
  }

  /** A field's (first) text, or null when absent, as FormData and URLSearchParams answer. */
  get(name: string): string | null {
    return this.fields.get(name)?.[0] ?? null;
  }

  /** Each text field's first value. */
  values(): Record<string, string> {
    return Object.fromEntries([...this.fields].map(([name, values]) => [name, values[0]]));
  }

  /** A chosen file, or null when its input was left empty. */
  file(name: string): FormFile | null {
    return this.files.get(name) ?? null;
  }
}

export type ReadForm = { ok: true; form: PostedForm } | { ok: false; refusal: ClientError; form: PostedForm };

export interface ReadFormOptions {
  /** Accepted file fields with their limits (`fileLimit(rule, bytes)`); none for a text-only form. */
  files?: FormBodyLimits['files'];
  /** The text fields together, in bytes: 256 KB unless the form says otherwise. */
  maxTextBytes?: number;
  /** The form's own words for a body past its limits. */
  tooLarge?: string;
  /**
   * Posts from anywhere are accepted: for forms whose proof is a token in the form itself, never the
   * session cookie (an unsubscribe link's one-click POST, RFC 8058, comes from the reader's mail service).
   */
  anyOrigin?: boolean;
}

/**
 * Reads a posted page form. Refused, with what was typed so far in `form`: a post from another site (403),
 * a body that is not a form (415), one past the form's limits (413, read no further than they allow), and
 * text that cannot be stored (400, beside each field).
 */
export async function readForm(request: Request, opts: ReadFormOptions = {}): Promise<ReadForm> {
  const empty = new PostedForm();
  if (!opts.anyOrigin && isCrossSite(request))
    return { ok: false, refusal: clientError(403, CROSS_SITE), form: empty };
  let body: Awaited<ReturnType<typeof readFormBody>>;
  try {
    body = await readFormBody(request.body, request.headers.get('content-type'), {
      maxTextBytes: opts.maxTextBytes ?? 256 * 1024,
      files: opts.files,
      tooLarge: opts.tooLarge,
    });
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return { ok: false, refusal: refused, form: empty };
  }
  const form = new PostedForm(body.fields, body.files);
  if (body.refused)
    return { ok: false, refusal: clientError(body.refused.status, body.refused.message), form };
  const errors: Record<string, string> = {};
  for (const [name, values] of body.fields) {
    if (!isStorableText(name) || values.some((v) => !isStorableText(v))) errors[name] = UNSTORABLE_TEXT;
  }
  for (const [name, file] of body.files) if (!isStorableText(file.filename)) errors[name] = UNSTORABLE_TEXT;
  if (Object.keys(errors).length)
    return { ok: false, refusal: clientError(400, UNSTORABLE_TEXT, errors), form };
  return { ok: true, form };
}

/** Checks form input with a shared schema, the same way the API does; a refusal is a 400 with each field's message. */
export function validateForm<S extends ZodType>(
  schema: S,
  input: unknown,
): { ok: true; data: z.output<S> } | { ok: false; refusal: ClientError } {
  const result = validate(schema, input);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, refusal: clientError(400, result.message, result.errors) };
}

/** A refusal in the page's own words (no such row, an unknown button, one of two fields typed). */
export function clientError(
  status: number,
  message: string,
  errors: Record<string, string> = {},
): ClientError {
  return { status, message, errors };
}

/**
 * A refusal thrown by a service: the visitor's mistake (4xx), or a part we depend on unavailable (503: the
 * file store full or unwritable, server/files/blob-store.ts StorageUnavailableError, its cause logged there;
 * a busy checker, with Retry-After). Services throw domain errors (server/errors.ts), mapped to a status by the one table the API uses;
 * the HTTP layer's own refusals are HttpErrors. This page bundle holds its own copy of both classes, so
 * `instanceof` would never match: recognise the shape.
 */
export function asClientError(err: unknown): ClientError | null {
  if (isDomainError(err)) {
    // A domain refusal (server/errors.ts): its status from the one table of codes.
    const headers = domainHeaders(err);
    return {
      status: STATUS_OF[err.code],
      message: err.message,
      errors: err.errors ?? {},
      ...(headers ? { headers } : {}),
    };
  }
  if (!(err instanceof Error)) return null;
  // The HTTP layer's own refusals (HttpError: the body reader's 400/413/415), recognised by their shape.
  const { status, errors, headers } = err as Error & { status?: unknown; errors?: unknown; headers?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499) return null;
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
