import { type ShouldRevalidateFunction, data, redirect } from 'react-router';
import { reviewDraftSchema } from '../../common/review.ts';
import { declineSchema } from '../../common/review.ts';
import { REVIEW_ATTACHMENT_RULE, fileLimit, formatBytes } from '../../common/upload-rules.ts';
import { checkUpload } from '../../server/files/uploads.ts';
import { badRequest } from '../../server/http/errors.ts';
import { AssignmentPage } from '../components/review/AssignmentPage.tsx';
import { AUTOSAVE, REMOVE_ATTACHMENT, draftFromForm } from '../lib/review-form.ts';
import { asClientError, validateForm } from '../lib/forms.server.ts';
import { clientError, replyDone, replyRefused, readIntentForm } from '../lib/reply.server.ts';
import { pageTitle } from '../lib/meta.ts';
import {
  clearReviewLinkCookie,
  prefixOf,
  isTokenShaped,
  reviewLinkCookie,
  reviewPath,
  reviewerAccess,
} from '../lib/review-access.server.ts';
import { idParam } from '../lib/route-params.ts';
import reviewCss from '../styles/review.css?url';
import submissionCss from '../styles/submission.css?url';
import type { Route } from './+types/reviews.$id';

export const links: Route.LinksFunction = () => [
  { rel: 'stylesheet', href: submissionCss },
  { rel: 'stylesheet', href: reviewCss },
];

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  {
    title: pageTitle(
      matches,
      loaderData?.kind === 'view' ? `Review: ${loaderData.view.manuscript.title}` : 'Review',
    ),
  },
  { name: 'robots', content: 'noindex' },
];

/**
 * One assignment as its reviewer sees it (issue 14, decisions 0023 and 0025): the invitation (no files), then
 * the files and the review form once accepted, then the submitted review, read-only. Reached by the
 * invitation link (its token moved into a cookie for this assignment's pages only) or signed in.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = idParam(params.id);
  const url = new URL(request.url);
  const given = url.searchParams.get('token');
  if (given !== null) {
    // The link from the e-mail: checked, kept in this assignment's cookie, then out of the address.
    if (!isTokenShaped(given))
      return closed(
        404,
        'This review link is not valid. Please use the link from your e-mail as it was sent.',
      );
    try {
      await context.services.review.view({ token: given }, id);
    } catch (err) {
      return refusedView(err);
    }
    throw redirect(reviewPath(id), {
      headers: { 'Set-Cookie': reviewLinkCookie(id, given, context.secure, prefixOf(context)) },
    });
  }
  const access = reviewerAccess(request, context, id);
  if (!access) {
    return data({ kind: 'sign-in' as const, id }, { status: 401 });
  }
  try {
    const view = await context.services.review.view(access, id);
    const limits = { attachment: context.services.config.MAX_MANUSCRIPT_SIZE };
    const headers = new Headers({ 'Cache-Control': 'private, no-store' });
    // The cookie lives on while the reviewer keeps coming back.
    if ('token' in access)
      headers.set('Set-Cookie', reviewLinkCookie(id, access.token, context.secure, prefixOf(context)));
    return data({ kind: 'view' as const, view, limits }, { headers });
  } catch (err) {
    // A link cookie that no longer opens it (declined, cancelled, decided): the account may still read it.
    if ('token' in access && context.auth) {
      try {
        const view = await context.services.review.view({ user: context.auth.user }, id);
        return data(
          {
            kind: 'view' as const,
            view,
            limits: { attachment: context.services.config.MAX_MANUSCRIPT_SIZE },
          },
          { headers: { 'Set-Cookie': clearReviewLinkCookie(id, context.secure, prefixOf(context)) } },
        );
      } catch {
        // Fall through to the link's own refusal.
      }
    }
    return refusedView(
      err,
      'token' in access ? clearReviewLinkCookie(id, context.secure, prefixOf(context)) : undefined,
    );
  }
}

function closed(status: number, message: string, cookie?: string) {
  return data(
    { kind: 'closed' as const, status, message },
    { status, headers: cookie ? { 'Set-Cookie': cookie } : undefined },
  );
}

function refusedView(err: unknown, cookie?: string) {
  const refused = asClientError(err);
  if (!refused) throw err;
  if (refused.status === 404) {
    return closed(404, 'This review assignment was not found, or this link does not open it.', cookie);
  }
  return closed(refused.status, refused.message, cookie);
}

/**
 * A refusal because the assignment moved on meanwhile (409: decided, cancelled, submitted elsewhere) reads the
 * page again, so it shows where the review stands; the draft saved while typing does not (its form stays,
 * with what was typed, and says the draft was not saved).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({
  actionStatus,
  formData,
  defaultShouldRevalidate,
}) => (actionStatus === 409 && formData?.get(AUTOSAVE) !== 'true' ? true : defaultShouldRevalidate);

export async function action({ params, request, context }: Route.ActionArgs) {
  const id = idParam(params.id);
  const max = context.services.config.MAX_MANUSCRIPT_SIZE;
  const read = await readIntentForm(request, {
    files: { file: fileLimit(REVIEW_ATTACHMENT_RULE, max) },
    maxTextBytes: 512 * 1024,
    tooLarge: `The attached file is too large: the limit is ${formatBytes(max)}.`,
  });
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const values = form.values();
  const access = reviewerAccess(request, context, id);
  if (!access) {
    return replyRefused(
      intent,
      clientError(
        401,
        'Your session has ended: open the link from your invitation e-mail again, or sign in. What you saved before is kept.',
      ),
      values,
    );
  }
  const { review } = context.services;
  try {
    if (intent === 'accept') {
      await review.accept(access, id);
      return replyDone(intent, 'Thank you for accepting. The files and the review form are below.');
    }
    if (intent === 'decline') {
      const input = validateForm(declineSchema, {
        reason: values.reason || undefined,
        comment: values.comment ?? '',
        suggestion: values.suggestion ?? '',
      });
      if (!input.ok) return replyRefused(intent, input.refusal, values);
      const done = await review.decline(access, id, input.data);
      return replyDone(intent, done.message);
    }
    if (intent === 'draft' || intent === 'submit') {
      const view = await review.view(access, id);
      const draft = validateForm(reviewDraftSchema, draftFromForm(form, view.questions, view.mode));
      if (!draft.ok) return replyRefused(intent, draft.refusal, values);
      const chosen = form.file(REVIEW_ATTACHMENT_RULE.field);
      // "Remove the attached file", ticked: applied with the draft (a newly chosen file replaces it instead).
      const removing = !chosen && form.text(REMOVE_ATTACHMENT) === 'true' && view.review?.hasAttachment;
      if (chosen) {
        const upload = await checkUpload(chosen, { ...REVIEW_ATTACHMENT_RULE, maxBytes: max });
        await review.saveDraft(access, id, draft.data, upload);
      } else if (removing) {
        // The text first: a refused draft removes nothing.
        await review.saveDraft(access, id, draft.data);
        await review.removeAttachment(access, id);
      }
      if (intent === 'draft') {
        if (!chosen && !removing) await review.saveDraft(access, id, draft.data);
        return replyDone(intent, removing ? 'Draft saved; the attached file is removed.' : 'Draft saved.');
      }
      await review.submit(access, id, draft.data);
      return replyDone(intent, 'Thank you: your review has been submitted to the editors.');
    }
    throw badRequest('Unknown action.');
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return replyRefused(intent, refused, values);
  }
}

export default function ReviewAssignment({ loaderData, actionData }: Route.ComponentProps) {
  return <AssignmentPage data={loaderData} result={actionData ?? null} />;
}

export type ReviewLoaderData = Route.ComponentProps['loaderData'];
