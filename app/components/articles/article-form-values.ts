/** The fields of one author row in the article forms (`author_{field}_{i}`, as `ArticleFields` draws them). */
export const AUTHOR_FIELDS = ['name', 'email', 'affiliation', 'superscript', 'orcid'] as const;

/** An article as its edit form starts from. */
export interface EditedArticle {
  id: number;
  title: string;
  abstract: string;
  keywords: string;
  pages: string | null;
  doi: string | null;
  issue_id: number;
  subtitle?: string;
  section?: string;
  language?: string;
  license_url?: string;
  copyright_holder?: string;
  copyright_year?: number | null;
  authors: { [F in (typeof AUTHOR_FIELDS)[number]]?: string | null }[];
}

/** The edit form's values from the article as stored (the inverse of the action's reading of the form). */
export function editValues(a: EditedArticle): Record<string, string> {
  const values: Record<string, string> = {
    id: String(a.id),
    title: a.title,
    abstract: a.abstract,
    keywords: a.keywords,
    pages: a.pages ?? '',
    doi: a.doi ?? '',
    issue_id: String(a.issue_id),
    subtitle: a.subtitle ?? '',
    section: a.section ?? '',
    language: a.language ?? '',
    license_url: a.license_url ?? '',
    copyright_holder: a.copyright_holder ?? '',
    copyright_year: a.copyright_year == null ? '' : String(a.copyright_year),
    author_count: String(a.authors.length),
  };
  a.authors.forEach((au, i) => {
    for (const f of AUTHOR_FIELDS) values[`author_${f}_${i}`] = au[f] ?? '';
  });
  return values;
}
