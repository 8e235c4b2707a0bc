import { revisionLabel } from '../../../common/review.ts';
import { decisionSchema, STATUS_LABELS } from '../../../common/submissions.ts';
import { asClientError, validateForm } from '../../lib/forms.server.ts';
import { clientError, readIntentForm, replyDone, replyRefused } from '../../lib/reply.server.ts';
import { idParam } from '../../lib/route-params.ts';
import { apcAction, isApcIntent } from '../apc/apc-action.server.ts';
import { requireEditor } from '../dashboard/guard.server.ts';
import { decisionReviewFields, reviewAction } from '../review/desk-review.server.ts';
import { DECIDE_CONFIRM, isConfirmIntent } from './decision.ts';
import type { DeskArgs } from './desk-loader.server.ts';

/**
 * The posts of the submission's desk page: the peer-review panel's forms (`reviewAction`), and the decision
 * (with its confirm step). Every answer is the one result shape (`app/lib/reply.server.ts`).
 */
export async function deskAction({ context, request, params }: DeskArgs) {
  const auth = requireEditor(context, request);
  const id = idParam(params.id);
  const { submissions } = context.services;
  // Publishing (files, preview, publish) is the publish page's action: routes/editor-dashboard.submissions.$id.publish.tsx.
  const read = await readIntentForm(request);
  if (!read.ok) return read.answer;
  const { form, intent } = read;
  const values: Record<string, string> = {};
  const fail = (status: number, message: string, errors: Record<string, string> = {}) =>
    replyRefused(intent, clientError(status, message, errors), values);

  // The article processing charge's forms (decision 0063): the invoice panel and the reviewer vouchers.
  if (isApcIntent(intent)) return apcAction(context.services, auth.user, intent, form, id);
  const reviewed = await reviewAction(context.services, auth.user, id, intent, form);
  if (reviewed) return reviewed;
  try {
    if (intent === 'decide' || isConfirmIntent(intent)) {
      // "Record the decision", or the confirm step's button after a refusal that asked for it (issue 22).
      const confirm = isConfirmIntent(intent) ? [intent.slice(DECIDE_CONFIRM.length)] : [];
      values.status = form.text('status');
      values.message = form.text('message');
      const extra = decisionReviewFields(form, values.status);
      Object.assign(values, extra.values);
      const parsed = validateForm(decisionSchema, {
        status: values.status,
        message: values.message,
        ...extra.input,
        ...(confirm.length ? { confirm } : {}),
      });
      if (!parsed.ok) return replyRefused('decide', parsed.refusal, values);
      try {
        await submissions.decide(auth.user, id, parsed.data);
      } catch (err) {
        const refused = asClientError(err);
        if (!refused) throw err;
        return replyRefused('decide', refused, values);
      }
      const label =
        parsed.data.status === 'revisions_requested'
          ? revisionLabel(parsed.data.revisions)
          : STATUS_LABELS[parsed.data.status];
      const shared = extra.shared;
      return replyDone(
        'decide',
        `Decision recorded: ${label}. Your message${shared ? ` and ${shared === 1 ? 'the chosen review' : `${shared} chosen reviews`}` : ''} ${shared ? 'were' : 'was'} e-mailed to the author and ${shared ? 'are' : 'is'} shown on their My submissions page.`,
      );
    }
    return fail(400, 'Unknown action.');
  } catch (err) {
    const refused = asClientError(err);
    if (!refused) throw err;
    return fail(refused.status, refused.message, refused.errors);
  }
}
