import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import {
  dueDatesSchema,
  inviteSchema,
  poolQuerySchema,
  ratingSchema,
  reviewerFilesSchema,
  reviewFormSchema,
  reviewModeSchema,
  shareReviewsSchema,
} from '../../../common/review.ts';
import {
  editorReviewResponse,
  filePropertiesResponse,
  inviteResponse,
  poolResponse,
  sitePoolResponse,
  reviewFormResponse,
} from '../../../common/review-responses.ts';
import { idParamSchema } from '../../../common/schemas.ts';
import type { AuthContext } from '../../accounts/service.ts';
import { partialDownloadResponses, sendStoredFile } from '../../files/download.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';

const editorRefusals = {
  404: { description: 'No such submission or assignment', schema: messageResponse },
  409: { description: 'Not possible in the current state', schema: messageResponse },
};

/** Peer review's JSON API for editors (issue 14): the review of a submission, assignments, the pool, forms. */
export function reviewEditorRoutes(api: Api, services: Services) {
  const { review } = services;

  // ---- Editors ---------------------------------------------------------------------------------------

  api.route({
    method: 'GET',
    path: '/api/editor/submissions/:id/review',
    tag: 'Peer review',
    summary: "A submission's review rounds with every assignment and the reviews side by side",
    auth: 'editorial',
    params: idParamSchema,
    responses: { 200: { description: 'The rounds', schema: editorReviewResponse }, 404: editorRefusals[404] },
    handler: ({ params }) => review.editorView(params.id),
  });

  api.route({
    method: 'POST',
    path: '/api/editor/submissions/:id/review/invitations',
    tag: 'Peer review',
    summary: 'Invite a reviewer to the current round: an account, a pool profile, or a name and e-mail',
    auth: 'editorial',
    params: idParamSchema,
    body: inviteSchema,
    responses: {
      201: {
        description: 'Invited (with a warning when an author shares the reviewer’s institution)',
        schema: inviteResponse,
      },
      ...editorRefusals,
      422: { description: 'An author of the submission cannot review it', schema: messageResponse },
    },
    handler: async ({ auth, params, body, reply }) => {
      const result = await review.invite(auth!.user, params.id, body);
      reply.code(201);
      return { message: 'The invitation has been sent.', ...result };
    },
  });

  api.route({
    method: 'PUT',
    path: '/api/editor/submissions/:id/review/mode',
    tag: 'Peer review',
    summary: "Set the current round's review mode (before anyone is invited in it)",
    auth: 'editorial',
    params: idParamSchema,
    body: reviewModeSchema,
    responses: { 200: { description: 'The rounds', schema: editorReviewResponse }, ...editorRefusals },
    handler: ({ auth, params, body }) => review.setMode(auth!.user, params.id, body.mode),
  });

  api.route({
    method: 'PUT',
    path: '/api/editor/submissions/:id/review/files',
    tag: 'Peer review',
    summary: "The files the current round's reviewers may download (e.g. a copy without document properties)",
    auth: 'editorial',
    params: idParamSchema,
    body: reviewerFilesSchema,
    responses: { 200: { description: 'The rounds', schema: editorReviewResponse }, ...editorRefusals },
    handler: ({ auth, params, body }) => review.setReviewerFiles(auth!.user, params.id, body.fileIds),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/submissions/:id/review/file-properties',
    tag: 'Peer review',
    summary:
      "The current round's reviewer files checked for properties that name a person (a warning in double-anonymous review)",
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      200: { description: 'The files and their properties', schema: filePropertiesResponse },
      404: editorRefusals[404],
    },
    handler: ({ params }) => review.fileProperties(params.id),
  });

  api.route({
    method: 'POST',
    path: '/api/editor/submissions/:id/review/files/without-properties',
    tag: 'Peer review',
    summary:
      "Give reviewers copies of the round's files without the properties that name people (the author's originals stay)",
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      200: { description: 'The files now given to reviewers', schema: filePropertiesResponse },
      ...editorRefusals,
    },
    handler: ({ auth, params }) => review.withoutNamesForReviewers(auth!.user, params.id),
  });

  api.route({
    method: 'POST',
    path: '/api/editor/submissions/:id/review/share',
    tag: 'Peer review',
    summary:
      'Share submitted reviews of a decided round with the author after the decision (the author is e-mailed their comments)',
    auth: 'editorial',
    params: idParamSchema,
    body: shareReviewsSchema,
    responses: {
      200: { description: 'The rounds', schema: editorReviewResponse },
      ...editorRefusals,
      409: {
        description: 'The round is not decided yet, or a review is already shared',
        schema: messageResponse,
      },
    },
    handler: ({ auth, params, body }) => review.shareLater(auth!.user, params.id, body.reviews),
  });

  // One reminder a day per assignment, and the journal's daily limit of e-mails per person (decision 0038).
  const remindRefusal: Record<number, { description: string; schema: typeof messageResponse }> = {
    429: {
      description:
        "Already reminded today, or the reviewer has had the day's e-mails: wait for Retry-After seconds",
      schema: messageResponse,
    },
  };
  const assignmentAction = (
    path: string,
    summary: string,
    run: (actor: AuthContext['user'], id: number) => Promise<unknown>,
  ) =>
    api.route({
      method: 'POST',
      path: `/api/editor/review-assignments/:id/${path}`,
      tag: 'Peer review',
      summary,
      auth: 'editorial',
      params: idParamSchema,
      responses: {
        200: { description: 'The rounds', schema: editorReviewResponse },
        ...editorRefusals,
        ...(path === 'remind' ? remindRefusal : {}),
      },
      handler: ({ auth, params }) => run(auth!.user, params.id),
    });
  assignmentAction(
    'cancel',
    'Cancel an invitation or an accepted assignment (the reviewer is told)',
    (a, id) => review.cancel(a, id),
  );
  assignmentAction(
    'reinstate',
    'Reinstate a cancelled assignment (the reviewer gets a fresh link)',
    (a, id) => review.reinstate(a, id),
  );
  assignmentAction('remind', 'Remind the reviewer now (of the answer or of the review)', (a, id) =>
    review.remindNow(a, id),
  );
  assignmentAction('read', 'Mark a submitted review as read', (a, id) => review.markRead(a, id));
  assignmentAction('thank', 'Thank the reviewer for a submitted review (an e-mail)', (a, id) =>
    review.thank(a, id),
  );

  api.route({
    method: 'PUT',
    path: '/api/editor/review-assignments/:id/due-dates',
    tag: 'Peer review',
    summary: 'Set or extend the response and review due dates (the reviewer is told)',
    auth: 'editorial',
    params: idParamSchema,
    body: dueDatesSchema,
    responses: { 200: { description: 'The rounds', schema: editorReviewResponse }, ...editorRefusals },
    handler: ({ auth, params, body }) => review.setDueDates(auth!.user, params.id, body),
  });

  api.route({
    method: 'PUT',
    path: '/api/editor/review-assignments/:id/rating',
    tag: 'Peer review',
    summary: 'Rate a submitted review 1-5 (editors only; shown in the reviewer pool)',
    auth: 'editorial',
    params: idParamSchema,
    body: ratingSchema,
    responses: { 200: { description: 'The rounds', schema: editorReviewResponse }, ...editorRefusals },
    handler: ({ auth, params, body }) => review.rate(auth!.user, params.id, body.rating),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/review-assignments/:id/attachment',
    tag: 'Peer review',
    summary: "A submitted review's attached file",
    auth: 'editorial',
    params: idParamSchema,
    responses: {
      200: { description: 'The file', binary: 'application/octet-stream' },
      ...partialDownloadResponses,
      404: editorRefusals[404],
    },
    handler: async ({ params, request, reply }) => {
      const { name, file } = await review.editorAttachment(params.id);
      return sendStoredFile(services.files, request, reply, name, file);
    },
  });

  api.route({
    method: 'GET',
    path: '/api/editor/reviewers',
    tag: 'Peer review',
    summary: 'The reviewer pool: load, completed reviews, median days, decline rate, last review, interests',
    auth: 'editorial',
    query: poolQuerySchema,
    responses: { 200: { description: 'Reviewers', schema: poolResponse } },
    handler: ({ query }) => review.pool(query.q),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/reviewers/site',
    tag: 'Peer review',
    summary:
      "The reviewer pool across the site's journals, asked for by an editor: names, interests, ORCID iD and load, never another journal's submissions, reviews, ratings or e-mail addresses",
    auth: 'editorial',
    query: poolQuerySchema,
    responses: { 200: { description: 'Reviewers of the site', schema: sitePoolResponse } },
    handler: ({ query }) => review.sitePool(query.q),
  });

  api.route({
    method: 'GET',
    path: '/api/editor/review-forms',
    tag: 'Peer review',
    summary: 'The review forms in use (newest first; new rounds take the newest)',
    auth: 'editorial',
    responses: { 200: { description: 'Forms', schema: z.array(reviewFormResponse) } },
    handler: () => review.forms(),
  });

  api.route({
    method: 'POST',
    path: '/api/editor/review-forms',
    tag: 'Peer review',
    summary: 'Create a review form (questions: short text, long text, yes/no, one of a list, 1-5 scale)',
    auth: 'editorial',
    body: reviewFormSchema,
    responses: { 201: { description: 'Created', schema: reviewFormResponse } },
    handler: async ({ auth, body, reply }) => {
      reply.code(201);
      return review.createForm(auth!.user, body);
    },
  });

  api.route({
    method: 'PUT',
    path: '/api/editor/review-forms/:id',
    tag: 'Peer review',
    summary: 'Edit a review form (one a round has used becomes a new version; the round keeps its questions)',
    auth: 'editorial',
    params: idParamSchema,
    body: reviewFormSchema,
    responses: {
      200: { description: 'The form (a new id when a new version)', schema: reviewFormResponse },
      ...editorRefusals,
    },
    handler: ({ auth, params, body }) => review.updateForm(auth!.user, params.id, body),
  });
}
