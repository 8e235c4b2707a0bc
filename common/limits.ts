/** Lengths the forms and the API share; sizes of uploads are configuration (see .env.example). */
export const LIMITS = {
  username: { min: 3, max: 40 },
  password: { min: 8, max: 200 },
  name: 200,
  email: 254,
  phone: 40,
  institution: 300,
  title: 500,
  abstract: 10_000,
  keywords: 1_000,
  statement: 5_000,
  message: 10_000,
  /** The author's response to the reviewers, sent with a revision. */
  responseToReviewers: 50_000,
  doi: 200,
  description: 5_000,
  authors: 50,
  superscript: 20,
} as const;

export const ARTICLE_TYPES = ['Review Article', 'Research Article', 'Novel Data Collection Article'] as const;
export type ArticleType = (typeof ARTICLE_TYPES)[number];
