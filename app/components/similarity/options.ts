/**
 * The check's options as a form posts them: checkboxes are absent when unticked, so the form carries a
 * marker field (`options`) and absent boxes then mean "false". The page (before its upload to the API) and
 * the server (a form post without JavaScript, a GET form of the editor's report) read them the same way.
 */
export { OPTION_DEFAULTS } from '../../../common/similarity-rules.ts';

export interface CheckOptionFields {
  excludeQuotes: 'true' | 'false';
  excludeBibliography: 'true' | 'false';
  minMatchWords?: string;
}

/** The options of a posted form (or a query string), as the API's fields; null when the form has none. */
export function optionFields(form: { get(name: string): unknown; has(name: string): boolean }): CheckOptionFields | null {
  if (!form.has('options')) return null;
  const min = form.get('minMatchWords');
  return {
    excludeQuotes: form.has('excludeQuotes') ? 'true' : 'false',
    excludeBibliography: form.has('excludeBibliography') ? 'true' : 'false',
    ...(typeof min === 'string' && min.trim() ? { minMatchWords: min.trim() } : {}),
  };
}
