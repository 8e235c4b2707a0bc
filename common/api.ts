import { z } from 'zod';
import { ROLES, STATUSES } from './roles.ts';

/** Shapes of the API's answers, with the spec's field names; they also document the OpenAPI file. */
export const messageResponse = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});

export const loginResponse = z.object({
  token: z.string().describe('Signed JWT; payload: sub, username, role, status, sid, exp (seconds), iat'),
  message: z.string().optional(),
});

export const meResponse = z.object({
  id: z.number(),
  username: z.string(),
  fullName: z.string(),
  email: z.string(),
  role: z.enum(ROLES).nullable().describe('In this journal; null: not a member of it (decision 0054)'),
  status: z.enum(STATUSES).nullable(),
  expiresAt: z.number().describe('Session expiry, seconds since the epoch'),
});

export const userResponse = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  fullName: z.string(),
  contactNumber: z.string(),
  institution: z.string(),
  orcid: z.string().nullable().describe('ORCID iD, e.g. 0000-0002-1825-0097'),
  role: z.enum(ROLES),
  status: z.enum(STATUSES),
  createdAt: z.string(),
});

/** The signed-in account's own details (GET/PATCH /api/account). */
export const accountResponse = userResponse.extend({
  role: z.enum(ROLES).nullable().describe('In this journal; null: not a member of it (decision 0054)'),
  status: z.enum(STATUSES).nullable(),
  pendingEmail: z
    .object({ email: z.string(), expiresAt: z.string() })
    .nullable()
    .describe('A new address waiting for its confirmation link to be opened; the account still uses `email`'),
});

export const accountSessionResponse = z.object({
  id: z.string().describe('The session id (the `sid` of its token)'),
  createdAt: z.string(),
  lastSeenAt: z.string().nullable().describe('Last used, to within about five minutes'),
  expiresAt: z.string(),
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
  current: z.boolean().describe('The session this request came with'),
});

export const authorResponse = z.object({
  name: z.string(),
  email: z.string(),
  affiliation: z.string(),
  superscript: z.string(),
  orcid: z
    .string()
    .nullable()
    .describe('The author’s ORCID iD, bare (e.g. 0000-0002-1825-0097); null when none was given'),
});

/** A published article's author: a submission's, with what an import brings (issue 26). */
export const articleAuthorResponse = authorResponse.extend({
  country: z.string().describe("The author's country (ISO 3166-1 alpha-2, e.g. DE); '' when not given"),
  ror: z
    .string()
    .nullable()
    .describe("The affiliation's ROR id as its link (https://ror.org/…); null when none"),
  primary_contact: z.boolean().describe('The author readers write to (the corresponding author)'),
});

export const articleFileResponse = z.object({
  id: z.number(),
  label: z.string().describe('As the journal named it: "HTML", "Data (CSV)", "PDF (Français)"'),
  locale: z.string().describe("The file's language (e.g. fr); '' when the article's own"),
  remote: z.boolean().describe('A link elsewhere rather than a file kept here'),
  url: z.string().describe('Its download address here (the same rule as the PDF), or the remote link'),
});

export const articleResponse = z.object({
  id: z.number(),
  title: z.string(),
  subtitle: z.string().describe("Shown under the title, cited after it; '' for none"),
  abstract: z.string(),
  keywords: z.string(),
  pages: z.string().describe('first-last'),
  doi: z.string().nullable(),
  article_type: z.string(),
  section: z.string().describe("The journal section it appeared in; '' for none"),
  language: z.string().describe("The article's language (BCP 47, e.g. fr); '' for the journal's"),
  license_url: z.string().describe("The licence it is published under; '' for the journal's"),
  copyright_holder: z.string().describe("'' when not given"),
  copyright_year: z.number().nullable(),
  references: z.array(z.string()).describe('The reference list as plain citations, in order'),
  files: z.array(articleFileResponse).describe("The article's other files, beside its PDF"),
  issue_id: z.number(),
  status: z.enum(['published', 'unpublished']),
  authors: z.array(articleAuthorResponse),
  pdf_url: z.string().nullable(),
  public_pdf_url: z.string().nullable(),
  monyr: z.string().describe("The issue's month and year, e.g. March 2025, or its year alone"),
  year: z.number().describe("The issue's year (its volume's)"),
  publication_date: z.string().describe('YYYY-MM-DD'),
  issue_month: z.number().nullable().describe("The issue's month (1-12) in its volume's year, if it has one"),
  issue_year: z.number().describe("The issue's year (its volume's)"),
  volume_id: z.number(),
  volume_number: z.number(),
  volume_title: z.string(),
  issue_number: z.number(),
  issue_title: z.string(),
  url: z.string(),
});

export const issueResponse = z.object({
  id: z.number(),
  title: z.string(),
  description: z.string(),
  volume_id: z.number(),
  issue_number: z.number(),
  publication_date: z.string().nullable(),
  publication_month: z.number().nullable().describe("1-12 in the volume's year, or null (dated by year)"),
});

export const volumeResponse = z.object({
  id: z.number(),
  title: z.string(),
  volume_number: z.number(),
  year: z.number(),
});

export const publicTreeResponse = z.array(
  volumeResponse.extend({ issues: z.array(issueResponse.extend({ articles: z.array(articleResponse) })) }),
);

export const editorVolumesResponse = z.array(volumeResponse.extend({ issue_count: z.number() }));
export const editorIssuesResponse = z.array(
  issueResponse.extend({
    volume_number: z.number(),
    volume_title: z.string(),
    volume_year: z.number(),
    article_count: z.number(),
  }),
);
export const editorArticlesResponse = z.array(articleResponse);

/** One page of the published articles (GET /api/articles/public/list). */
export const publicArticlePageResponse = z.object({
  page: z.number().int().describe('This page, from 1'),
  size: z.number().int().describe('Articles a page'),
  total: z.number().int().describe('Published articles in all'),
  pages: z.number().int().describe('Pages in all'),
  articles: z.array(articleResponse),
});

export const pendingUserResponse = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
});

export const paperResponse = z.object({ id: z.number(), title: z.string(), pdfPath: z.string() });
export const subscriptionResponse = z.object({ isSubscribed: z.boolean() });
export const submissionCreatedResponse = z.object({
  message: z.string(),
  id: z.number(),
  reference: z.string(),
});

const submissionStatus = z.enum([
  'submitted',
  'under_review',
  'revisions_requested',
  'revised',
  'accepted',
  'rejected',
]);

export const submissionListItem = z.object({
  id: z.number(),
  reference: z.string(),
  title: z.string(),
  articleType: z.string(),
  status: submissionStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
  submitter: z.string(),
  submitterName: z.string(),
  authors: z.array(z.string()),
  /** The article it was published as, or null: an accepted submission with one reads "Published". */
  articleId: z.number().nullable(),
});

export const submissionDetail = z.object({
  id: z.number(),
  reference: z.string(),
  title: z.string(),
  articleType: z.string(),
  keywords: z.string(),
  abstract: z.string(),
  conflictOfInterest: z.string(),
  fundingStatement: z.string(),
  dataAvailabilityStatement: z.string(),
  status: submissionStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
  submitter: z.object({ username: z.string(), fullName: z.string(), email: z.string() }),
  authors: z.array(authorResponse),
  files: z.array(
    z.object({
      id: z.number(),
      kind: z.enum(['manuscript', 'additional']),
      version: z.number(),
      name: z.string(),
      size: z.number(),
      mediaType: z.string(),
      createdAt: z.string(),
    }),
  ),
  history: z.array(
    z.object({
      at: z.string(),
      by: z.string(),
      from: submissionStatus.nullable(),
      to: submissionStatus,
      message: z.string(),
      note: z
        .string()
        .optional()
        .describe(
          'Editors only: what the decision did that needed confirming (accepted without review, reviews withheld)',
        ),
    }),
  ),
  articleId: z.number().nullable(),
  nextStatuses: z.array(submissionStatus),
  /** The signed copyright form the author sent (GET /api/submissions/{id}/copyright-form), or null. */
  copyrightForm: z.object({ name: z.string(), size: z.number() }).nullable(),
  /** The final PDF an editor gave when preparing the publication, or null. */
  finalPdf: z.object({ name: z.string(), size: z.number() }).nullable(),
});

export const mySubmission = z.object({
  id: z.number(),
  reference: z.string(),
  title: z.string(),
  articleType: z.string(),
  status: submissionStatus,
  createdAt: z.string(),
  updatedAt: z.string(),
  lastMessage: z.object({ at: z.string(), by: z.string(), message: z.string() }).nullable(),
  /** The article it was published as, or null: an accepted submission with one reads "Published". */
  articleId: z.number().nullable(),
});

export const contactMessageResponse = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
});

export const auditEntryResponse = z.object({
  id: z.number(),
  actorUsername: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
