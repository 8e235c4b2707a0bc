import type { ZodError, ZodType, z } from 'zod';

/**
 * The one way input is checked, for the JSON API and for page forms alike: first the text rule every
 * string obeys (PostgreSQL cannot store a NUL character, and a lone UTF-16 surrogate is not text), then the
 * schema. The answer has the API's shape: a summary message and each field's message.
 */

export const UNSTORABLE_TEXT =
  'Contains a character that cannot be stored (a NUL character or broken Unicode). Please remove it.';

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !text.includes('\0') && !LONE_SURROGATE.test(text);
}

/** Every string in `value` (keys included, at any depth) that cannot be stored, by its field path. */
export function unstorableFields(
  value: unknown,
  path = '',
  out: Record<string, string> = {},
  depth = 0,
): Record<string, string> {
  if (typeof value === 'string') {
    if (!isStorableText(value)) out[path || '_'] ??= UNSTORABLE_TEXT;
  } else if (value && typeof value === 'object' && depth < 32) {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) out[at] ??= UNSTORABLE_TEXT;
      unstorableFields(item, at, out, depth + 1);
    }
  }
  return out;
}

/** Field name → first message, for forms to show beside each field. */
export function fieldErrors(error: ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    // A body or query that is not an object at all (an array, a string): say what is expected.
    const message =
      !issue.path.length && issue.code === 'invalid_type' ? 'Expected a JSON object.' : issue.message;
    out[key] ??= message;
  }
  return out;
}

export type Validated<T> =
  | { success: true; data: T }
  | { success: false; message: string; errors: Record<string, string> };

export function validate<S extends ZodType>(schema: S, input: unknown): Validated<z.output<S>> {
  const bad = unstorableFields(input);
  if (Object.keys(bad).length) return { success: false, message: UNSTORABLE_TEXT, errors: bad };
  const result = schema.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  const errors = fieldErrors(result.error);
  return { success: false, message: Object.values(errors)[0] ?? 'Invalid request.', errors };
}
