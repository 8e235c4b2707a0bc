import { z } from 'zod';
import {
  ASSIGNMENT_STATES,
  DECLINE_REASONS,
  QUESTION_TYPES,
  RECOMMENDATIONS,
  REVIEW_MODES,
} from './review.ts';

/**
 * Peer review's API answers (the routes' response schemas, and so the OpenAPI document's shapes): what each
 * side is shown, as server/review/present.ts and the use cases decide it. The words, enums and input schemas
 * they are made of are review.ts.
 */

const STATUS_VALUES = [...ASSIGNMENT_STATES, 'response-overdue', 'review-overdue'] as const;
const when = z.string().nullable();
const questionOut = z.object({
  id: z.string(),
  type: z.enum(QUESTION_TYPES),
  label: z.string(),
  required: z.boolean(),
  options: z.array(z.string()).optional(),
});

/** What a reviewer sees of their assignment (server/review/present.ts decides it). */
export const reviewerViewResponse = z.object({
  id: z.number(),
  status: z.enum(STATUS_VALUES),
  state: z.enum(ASSIGNMENT_STATES),
  responseDue: z.string(),
  reviewDue: z.string(),
  timeZone: z.string(),
  invitedAt: z.string(),
  round: z.number(),
  mode: z.enum(REVIEW_MODES),
  manuscript: z.object({
    reference: z.string(),
    title: z.string(),
    abstract: z.string(),
    articleType: z.string(),
    keywords: z.string(),
    authors: z
      .array(z.object({ name: z.string(), affiliation: z.string() }))
      .nullable()
      .describe('Null in double-anonymous review'),
  }),
  authorResponse: z.string().describe("The authors' response to the previous round's reviewers"),
  files: z
    .array(z.object({ id: z.number(), name: z.string(), size: z.number(), mediaType: z.string() }))
    .nullable()
    .describe('Null until the invitation is accepted'),
  questions: z.array(questionOut),
  review: z
    .object({
      recommendation: z.enum(RECOMMENDATIONS).nullable(),
      commentsForAuthor: z.string(),
      confidentialComments: z.string(),
      answers: z.record(z.string(), z.unknown()),
      hasAttachment: z.boolean(),
      publishAgreed: z.boolean(),
      draftSavedAt: when,
      submittedAt: when,
    })
    .nullable(),
  roundDecided: z.boolean(),
});

export const myReviewsResponse = z.array(
  z.object({
    id: z.number(),
    reference: z.string(),
    title: z.string(),
    round: z.number(),
    mode: z.enum(REVIEW_MODES),
    state: z.enum(ASSIGNMENT_STATES),
    status: z.enum(STATUS_VALUES),
    responseDue: z.string(),
    reviewDue: z.string(),
    submittedAt: when,
    roundDecided: z.boolean().describe("The round's decision is made: nothing more to do"),
  }),
);

export const reviewerProfileResponse = z.object({
  name: z.string(),
  email: z.string(),
  affiliation: z.string(),
  interests: z.array(z.string()),
  orcid: z.string().nullable(),
  unavailableUntil: z.string().nullable(),
  /** Whether editors of the site's other journals may find them in the site's pool (decision 0062). */
  listedAcrossSite: z.boolean(),
});

/** The editor's view of a submission's review: every round, every assignment, reviews side by side. */
export const editorReviewResponse = z.object({
  timeZone: z.string(),
  rounds: z.array(
    z.object({
      id: z.number(),
      number: z.number(),
      version: z.number(),
      mode: z.enum(REVIEW_MODES),
      questions: z.array(questionOut),
      reviewerFileIds: z.array(z.number()),
      authorResponse: z.string(),
      decision: z.string().nullable(),
      decidedAt: when,
      revisionDue: z.string().nullable(),
      assignments: z.array(
        z.object({
          id: z.number(),
          reviewer: z.object({
            profileId: z.number(),
            userId: z.number().nullable(),
            name: z.string(),
            email: z.string(),
            affiliation: z.string(),
            orcid: z.string().nullable(),
          }),
          state: z.enum(ASSIGNMENT_STATES),
          status: z.enum(STATUS_VALUES),
          warning: z.string().nullable(),
          responseDue: z.string(),
          reviewDue: z.string(),
          invitedAt: z.string(),
          respondedAt: when,
          submittedAt: when,
          declineReason: z.enum(DECLINE_REASONS).nullable(),
          declineComment: z.string().nullable(),
          suggestedReviewer: z.string().nullable(),
          recommendation: z.enum(RECOMMENDATIONS).nullable(),
          commentsForAuthor: z.string().nullable(),
          confidentialComments: z.string().nullable(),
          answers: z.record(z.string(), z.unknown()).nullable(),
          hasAttachment: z.boolean(),
          attachmentProperties: z
            .object({
              properties: z.array(z.string()).describe('"Document properties: Author — Jane Doe"'),
              problem: z.string().nullable().describe('Why the file could not be checked or cleaned'),
              forAuthor: z.enum(['copy', 'withheld']),
            })
            .nullable()
            .describe(
              'Where authors do not see reviewers: the attached file’s own properties that name the reviewer, and whether the author gets a copy without them or no file (null: nothing to warn about)',
            ),
          publishAgreed: z.boolean(),
          readAt: when,
          thankedAt: when,
          sharedAt: when,
          rating: z.number().nullable(),
        }),
      ),
    }),
  ),
});

export const inviteResponse = z.object({
  message: z.string(),
  assignmentId: z.number(),
  warning: z.string().nullable().describe('A conflict-of-interest warning (shared institution), if any'),
  review: editorReviewResponse,
});

export const poolResponse = z.array(
  // The account's choice about the site's pool is theirs to see, not the editors'.
  reviewerProfileResponse.omit({ listedAcrossSite: true }).extend({
    profileId: z.number(),
    userId: z.number().nullable(),
    openAssignments: z.number(),
    completedReviews: z.number(),
    medianDaysToComplete: z.number().nullable(),
    declineRate: z.number().nullable(),
    lastReviewAt: when,
    averageRating: z.number().nullable(),
  }),
);

/** The reviewer pool across the site (decision 0058): no e-mail, no ratings, nothing of other journals' work. */
export const sitePoolResponse = z.array(
  z.object({
    userId: z.number(),
    name: z.string(),
    affiliation: z.string(),
    interests: z.array(z.string()),
    orcid: z.string().nullable(),
    openAssignments: z.number().describe('Across the site'),
    completedReviews: z.number().describe('Across the site'),
    medianDaysToComplete: z.number().nullable(),
    lastReviewAt: when,
    journals: z.number().describe('How many journals of the site they review for'),
    inThisJournal: z.boolean(),
  }),
);

export const reviewFormResponse = z.object({
  id: z.number(),
  name: z.string(),
  questions: z.array(questionOut),
  previousId: z.number().nullable(),
  createdAt: z.string(),
});

/** The author's view: each round's progress, and the reviews shared with a decision as "Reviewer N". */
export const authorReviewResponse = z.object({
  timeZone: z.string().describe("The journal's time zone: a due day ends at midnight there"),
  rounds: z.array(
    z.object({
      round: z.number(),
      version: z.number(),
      mode: z.enum(REVIEW_MODES),
      decision: z.string().nullable(),
      decidedAt: when,
      revisionDue: z.string().nullable().describe("With a revision request: the revision's due day"),
      progress: z.object({
        invited: z.number(),
        reviewing: z.number(),
        declined: z.number(),
        submitted: z.number(),
      }),
      reviews: z.array(
        z.object({
          label: z.string(),
          assignmentId: z.number(),
          reviewer: z.string().nullable().describe('Only in open review'),
          recommendation: z.enum(RECOMMENDATIONS).nullable(),
          comments: z.string(),
          hasAttachment: z.boolean(),
          submittedAt: when,
        }),
      ),
    }),
  ),
});

export const publicReviewsResponse = z.array(
  z.object({
    round: z.number(),
    reviewer: z.string(),
    orcid: z.string().nullable(),
    recommendation: z.enum(RECOMMENDATIONS).nullable(),
    comments: z.string(),
    submittedAt: z.string(),
  }),
);

/**
 * Double-anonymous review and the files' own properties (decision 0024): the current round's reviewer files,
 * each with the properties that name a person; `warn` in a double-anonymous round when one does.
 */
export const filePropertiesResponse = z.object({
  round: z.number().nullable(),
  mode: z.enum(REVIEW_MODES).nullable(),
  warn: z.boolean().describe('Double-anonymous, undecided, and a file names someone or could not be checked'),
  files: z.array(
    z.object({
      fileId: z.number(),
      name: z.string(),
      mediaType: z.string(),
      copy: z.boolean().describe("A copy made for reviewers (not the author's upload)"),
      properties: z.array(z.string()).describe('"Document properties: Author — Jane Doe"'),
      removable: z.boolean().describe('A copy without these properties can be made'),
      problem: z
        .object({
          code: z.enum(['unsupported', 'unreadable', 'encrypted', 'too_large', 'not_removable']),
          message: z.string(),
        })
        .nullable(),
    }),
  ),
});
