import { z } from 'zod';
import { messageResponse } from '../../../common/api.ts';
import {
  declineSchema,
  reviewDraftSchema,
  reviewerProfileSchema,
  reviewTokenQuery,
} from '../../../common/review.ts';
import {
  authorReviewResponse,
  myReviewsResponse,
  publicReviewsResponse,
  reviewerProfileResponse,
  reviewerViewResponse,
} from '../../../common/review-responses.ts';
import { can } from '../../../common/roles.ts';
import { idField, idParamSchema } from '../../../common/schemas.ts';
import { fileLimit, REVIEW_ATTACHMENT_RULE } from '../../../common/upload-rules.ts';
import type { AuthContext } from '../../accounts/service.ts';
import { partialDownloadResponses, sendStoredFile } from '../../files/download.ts';
import { checkUpload } from '../../files/uploads.ts';
import type { ReviewerAccess } from '../../review/service.ts';
import type { Services } from '../../services.ts';
import type { Api } from '../api.ts';
import { badRequest, forbidden, unauthorized } from '../errors.ts';
import { readMultipart } from '../multipart.ts';
import { reviewEditorRoutes } from './review-editor.ts';

const refusals = {
  401: { description: 'No token and not signed in', schema: messageResponse },
  403: {
    description: 'The account may not act (suspended or rejected), or the step needs acceptance first',
    schema: messageResponse,
  },
  404: {
    description: 'No such assignment (or not yours, or a link that does not open it)',
    schema: messageResponse,
  },
  409: { description: 'Not possible in the assignment’s state', schema: messageResponse },
  410: {
    description: 'The link no longer opens the assignment (declined, cancelled or closed)',
    schema: messageResponse,
  },
};
/** A reviewer comes with the invitation link's token or signed in as the reviewer. */
function accessOf(auth: AuthContext | null, token: string | undefined): ReviewerAccess {
  if (token) return { token };
  if (auth) {
    // A suspended or rejected account reaches nothing through its session (the link still works).
    if (!can('signedIn', auth.user)) throw forbidden();
    return { user: auth.user };
  }
  throw unauthorized('Open the link from your invitation e-mail, or sign in.');
}

const assignmentParams = idParamSchema;
const fileParams = z.object({ id: idField('Id'), fileId: idField('File') });
const authorFileParams = z.object({ id: idField('Id'), assignmentId: idField('Assignment') });

/** Peer review's JSON API (issue 14): reviewers, editors, authors and the public (decision 0023). */
export function reviewRoutes(api: Api, services: Services) {
  const { review } = services;

  // ---- Reviewers (the invitation link's token, or signed in) ----------------------------------------------

  api.route({
    method: 'GET',
    path: '/api/reviews',
    tag: 'Peer review',
    summary: "The signed-in account's review invitations and assignments, with status and due dates",
    auth: 'signedIn',
    responses: { 200: { description: 'Assignments, newest first', schema: myReviewsResponse } },
    handler: ({ auth }) => review.mine(auth!.user),
  });

  api.route({
    method: 'GET',
    path: '/api/reviews/:id',
    tag: 'Peer review',
    summary:
      'One assignment as its reviewer sees it: the invitation, then the files and the review once accepted',
    auth: 'optional',
    params: assignmentParams,
    query: reviewTokenQuery,
    responses: { 200: { description: 'The assignment', schema: reviewerViewResponse }, ...refusals },
    handler: ({ auth, params, query }) => review.view(accessOf(auth, query.token), params.id),
  });

  api.route({
    method: 'POST',
    path: '/api/reviews/:id/accept',
    tag: 'Peer review',
    summary:
      'Accept the invitation (a person invited by e-mail gets an account and a link to choose a password)',
    auth: 'optional',
    params: assignmentParams,
    query: reviewTokenQuery,
    responses: {
      200: { description: 'Accepted: the files and the review form', schema: reviewerViewResponse },
      ...refusals,
    },
    handler: ({ auth, params, query }) => review.accept(accessOf(auth, query.token), params.id),
  });

  api.route({
    method: 'POST',
    path: '/api/reviews/:id/decline',
    tag: 'Peer review',
    summary: 'Decline the invitation with a reason, optionally suggesting another reviewer',
    auth: 'optional',
    params: assignmentParams,
    query: reviewTokenQuery,
    body: declineSchema,
    responses: { 200: { description: 'Declined', schema: messageResponse }, ...refusals },
    handler: ({ auth, params, query, body }) => review.decline(accessOf(auth, query.token), params.id, body),
  });

  api.route({
    method: 'PUT',
    path: '/api/reviews/:id/draft',
    tag: 'Peer review',
    summary: 'Save the review as a draft (any part, any time; saving the same draft again changes nothing)',
    auth: 'optional',
    params: assignmentParams,
    query: reviewTokenQuery,
    body: reviewDraftSchema,
    responses: { 200: { description: 'Saved', schema: reviewerViewResponse }, ...refusals },
    handler: ({ auth, params, query, body }) =>
      review.saveDraft(accessOf(auth, query.token), params.id, body),
  });

  api.route({
    method: 'POST',
    path: '/api/reviews/:id/attachment',
    tag: 'Peer review',
    summary:
      'Attach a file to the draft review (PDF or Word, e.g. an annotated manuscript); replaces an earlier one',
    auth: 'optional',
    params: assignmentParams,
    query: reviewTokenQuery,
    multipart: [
      { name: 'file', description: 'The file: .pdf, .doc or .docx (checked by content)', required: true },
    ],
    responses: {
      200: { description: 'Attached', schema: reviewerViewResponse },
      ...refusals,
      413: { description: 'The file is too large', schema: messageResponse },
      415: { description: 'Not a PDF or Word file', schema: messageResponse },
      422: { description: 'The PDF is encrypted or damaged', schema: messageResponse },
    },
    handler: async ({ auth, params, query, request }) => {
      const access = accessOf(auth, query.token);
      const max = services.config.MAX_MANUSCRIPT_SIZE;
      const body = await readMultipart(request, { files: { file: fileLimit(REVIEW_ATTACHMENT_RULE, max) } });
      if (!body.files.file)
        throw badRequest('Choose a file to attach.', { file: 'Choose a file to attach.' });
      const upload = await checkUpload(body.files.file, { ...REVIEW_ATTACHMENT_RULE, maxBytes: max });
      return review.saveDraft(access, params.id, {}, upload);
    },
  });

  api.route({
    method: 'DELETE',
    path: '/api/reviews/:id/attachment',
    tag: 'Peer review',
    summary: "Remove the draft review's attached file",
    auth: 'optional',
    params: assignmentParams,
    query: reviewTokenQuery,
    responses: {
      200: { description: 'Removed: the assignment without the file', schema: reviewerViewResponse },
      ...refusals,
      404: { description: 'No such assignment, or its review has no attached file', schema: messageResponse },
    },
    handler: ({ auth, params, query }) => review.removeAttachment(accessOf(auth, query.token), params.id),
  });

  api.route({
    method: 'GET',
    path: '/api/reviews/:id/attachment',
    tag: 'Peer review',
    summary: "Download the review's attached file (its reviewer)",
    auth: 'optional',
    params: assignmentParams,
    query: reviewTokenQuery,
    responses: {
      200: { description: 'The file', binary: 'application/octet-stream' },
      ...partialDownloadResponses,
      ...refusals,
    },
    handler: async ({ auth, params, query, request, reply }) => {
      const { name, file } = await review.attachment(accessOf(auth, query.token), params.id);
      return sendStoredFile(services.files, request, reply, name, file);
    },
  });

  api.route({
    method: 'POST',
    path: '/api/reviews/:id/submit',
    tag: 'Peer review',
    summary: 'Submit the review (with any last changes): once, then read-only',
    auth: 'optional',
    params: assignmentParams,
    query: reviewTokenQuery,
    body: reviewDraftSchema,
    responses: { 200: { description: 'Submitted', schema: reviewerViewResponse }, ...refusals },
    handler: ({ auth, params, query, body }) => review.submit(accessOf(auth, query.token), params.id, body),
  });

  api.route({
    method: 'GET',
    path: '/api/reviews/:id/files/:fileId',
    tag: 'Peer review',
    summary: "Download a file of the round's manuscript version (only after accepting)",
    auth: 'optional',
    params: fileParams,
    query: reviewTokenQuery,
    responses: {
      200: { description: 'The file', binary: 'application/octet-stream' },
      ...partialDownloadResponses,
      ...refusals,
    },
    handler: async ({ auth, params, query, request, reply }) => {
      const { name, file } = await review.file(accessOf(auth, query.token), params.id, params.fileId);
      return sendStoredFile(services.files, request, reply, name, file);
    },
  });

  api.route({
    method: 'GET',
    path: '/api/reviewer/profile',
    tag: 'Peer review',
    summary: "The signed-in account's reviewer profile (areas of interest, ORCID iD, unavailable until)",
    auth: 'signedIn',
    responses: { 200: { description: 'The profile', schema: reviewerProfileResponse } },
    handler: ({ auth }) => review.profile(auth!.user),
  });

  api.route({
    method: 'PUT',
    path: '/api/reviewer/profile',
    tag: 'Peer review',
    summary: 'Change your reviewer profile (interests from the journal’s areas; "unavailable until" a day)',
    auth: 'signedIn',
    body: reviewerProfileSchema,
    responses: { 200: { description: 'Saved', schema: reviewerProfileResponse } },
    handler: ({ auth, body }) => review.saveProfile(auth!.user, body),
  });

  // ---- Authors and the public ------------------------------------------------------------------------

  api.route({
    method: 'GET',
    path: '/api/submissions/:id/reviews',
    tag: 'Submissions',
    summary:
      "The review of the author's own submission: each round's progress and the reviews shared with a decision",
    auth: 'submit',
    params: idParamSchema,
    responses: {
      200: { description: 'Rounds', schema: authorReviewResponse },
      404: { description: 'No such submission (or not yours)', schema: messageResponse },
    },
    handler: ({ auth, params }) => review.forAuthor(auth!.user, params.id),
  });

  api.route({
    method: 'GET',
    path: '/api/submissions/:id/reviews/:assignmentId/attachment',
    tag: 'Submissions',
    summary: "A shared review's attached file, for the submission's author",
    auth: 'submit',
    params: authorFileParams,
    responses: {
      200: { description: 'The file', binary: 'application/octet-stream' },
      ...partialDownloadResponses,
      404: { description: 'No such shared file', schema: messageResponse },
    },
    handler: async ({ auth, params, request, reply }) => {
      const { name, file } = await review.authorAttachment(auth!.user, params.id, params.assignmentId);
      return sendStoredFile(services.files, request, reply, name, file);
    },
  });

  api.route({
    method: 'GET',
    path: '/api/articles/:id/reviews',
    tag: 'Articles',
    summary: 'The open reviews of a published article whose reviewers agreed to publish them',
    auth: 'none',
    params: idParamSchema,
    responses: {
      200: { description: 'Reviews', schema: publicReviewsResponse },
      404: { description: 'No such published article', schema: messageResponse },
    },
    handler: ({ params }) => review.articleReviews(params.id),
  });

  reviewEditorRoutes(api, services);
}
