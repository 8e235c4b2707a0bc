import { formatDay } from '../../common/dates.ts';
import {
  RECOMMENDATION_LABELS,
  REVIEW_MODE_LABELS,
  type Recommendation,
  type ReviewMode,
} from '../../common/review.ts';
import type { Mail } from '../mail/mailer.ts';

/**
 * The wording of peer review's e-mails. A reviewer's mail never names the authors in double-anonymous review
 * (it names the manuscript by title and reference only); an author's never names a reviewer outside open
 * review. Links carry the assignment's token, kept out of stored copies by the sender (`secrets`).
 */

const signature = '\nWith best regards,\nThe editorial office\n';

/** "9 March 2026 (end of the day, UTC time)": a due day is the end of that day in the journal's zone. */
export const dueLine = (day: string, zone: string) => `${formatDay(day)} (end of the day, ${zone} time)`;

export interface ManuscriptRef {
  reference: string;
  title: string;
  journal: string;
}

export function invitationMail(
  o: ManuscriptRef & {
    to: string;
    name: string;
    link: string;
    responseDue: string;
    reviewDue: string;
    zone: string;
    mode: ReviewMode;
    round: number;
    message?: string;
    /** What the invitation promises the reviewer before they accept (issue 22). */
    abstract: string;
    articleType: string;
    keywords: string;
    /** Only in open review: an invitation may be forwarded or kept anywhere, before anyone has agreed. */
    authors: { name: string; affiliation: string }[] | null;
  },
): Mail {
  return {
    to: o.to,
    subject: `[${o.reference}] Invitation to review for ${o.journal}${o.round > 1 ? ` (round ${o.round})` : ''}`,
    text: `Dear ${o.name},

${o.round > 1 ? `The authors have revised the manuscript below, and we would value your review of this new version (round ${o.round}).` : `We would be grateful if you would review the manuscript below for ${o.journal}.`}

Title: ${o.title}
Reference: ${o.reference}
Article type: ${o.articleType}
Keywords: ${o.keywords}
${o.authors?.length ? `Authors: ${o.authors.map((a) => `${a.name} (${a.affiliation})`).join('; ')}\n` : ''}Review mode: ${REVIEW_MODE_LABELS[o.mode]}

Abstract:

${o.abstract}
${o.message ? `\nA note from the editor:\n\n${o.message}\n` : ''}
Please tell us by ${dueLine(o.responseDue, o.zone)} whether you can review it. If you accept, we ask for your review by ${dueLine(o.reviewDue, o.zone)}.

This link lets you accept or decline; once you accept, it gives you the files and the review form. It works every time you open it, without a password, until the assignment closes. Please do not forward it:

${o.link}
${signature}`,
  };
}

export function reminderMail(
  o: ManuscriptRef & {
    to: string;
    name: string;
    kind: 'response' | 'review';
    due: string;
    zone: string;
    overdue: boolean;
    link: string;
  },
): Mail {
  const what = o.kind === 'response' ? 'your answer to our invitation to review' : 'your review';
  return {
    to: o.to,
    subject: `[${o.reference}] Reminder: ${o.kind === 'response' ? 'invitation to review' : 'review'} ${o.overdue ? 'overdue' : 'due soon'}`,
    text: `Dear ${o.name},

${o.overdue ? `We have not yet received ${what} for "${o.title}", which was due by ${dueLine(o.due, o.zone)}.` : `A friendly reminder that ${what} for "${o.title}" is due by ${dueLine(o.due, o.zone)}.`}

${o.kind === 'response' ? 'You can accept or decline here' : 'You can continue your review here (your draft is kept)'}:

${o.link}

If you need more time, simply reply to this message.
${signature}`,
  };
}

export function revisionReminderMail(
  o: ManuscriptRef & {
    to: string;
    name: string;
    due: string;
    zone: string;
    overdue: boolean;
    publicUrl: string;
    /** Whether the editors shared reviews with the author: only then is a response to them asked for. */
    reviewsShared: boolean;
  },
): Mail {
  return {
    to: o.to,
    subject: `[${o.reference}] Reminder: revised manuscript ${o.overdue ? 'overdue' : 'due soon'}`,
    text: `Dear ${o.name},

${o.overdue ? `Your revised manuscript of "${o.title}" was due by ${dueLine(o.due, o.zone)}, and we have not received it yet.` : `A reminder that your revised manuscript of "${o.title}" is due by ${dueLine(o.due, o.zone)}.`}

You can upload it${o.reviewsShared ? ', with a response to the reviewers,' : ''} from My submissions: ${o.publicUrl}/my-submissions

If you need more time, please reply to this message.
${signature}`,
  };
}

export function assignmentNoticeMail(
  o: ManuscriptRef & {
    to: string;
    name: string;
    what: 'cancelled' | 'reinstated' | 'dates' | 'thanks' | 'decision';
    responseDue?: string;
    reviewDue?: string;
    zone?: string;
    link?: string;
    decision?: string;
  },
): Mail {
  const subject = {
    cancelled: 'Review assignment cancelled',
    reinstated: 'Review assignment reinstated',
    dates: 'New due dates for your review',
    thanks: 'Thank you for your review',
    decision: 'Editorial decision on a manuscript you reviewed',
  }[o.what];
  const body = {
    cancelled: `The editors have cancelled your review assignment for "${o.title}". You do not need to do anything more for it, and the link you received no longer opens it. Thank you for your time.`,
    reinstated: `The editors have reinstated your review assignment for "${o.title}". You can open it again here:\n\n${o.link}`,
    dates: `The editors have changed the due dates of your review assignment for "${o.title}".\n\n${o.responseDue ? `Answer to the invitation due by: ${dueLine(o.responseDue, o.zone!)}\n` : ''}${o.reviewDue ? `Review due by: ${dueLine(o.reviewDue, o.zone!)}\n` : ''}\nYour assignment: ${o.link}`,
    thanks: `Thank you for your review of "${o.title}". Reviewers' time and care are what make peer review work, and we are grateful for yours.`,
    decision: `Thank you again for reviewing "${o.title}". The editors have now made their decision: ${o.decision}.`,
  }[o.what];
  return {
    to: o.to,
    subject: `[${o.reference}] ${subject}`,
    text: `Dear ${o.name},\n\n${body}\n${signature}`,
  };
}

/** To the author: reviews of a decided round shared after the decision (issue 22). */
export function reviewsSharedMail(
  o: ManuscriptRef & {
    to: string;
    name: string;
    count: number;
    /** The round, when all the reviews are of one. */
    round: number | null;
    /** The reviews as the decision's e-mail words them ("Reviewer 2 — recommendation: …"). */
    reviews: string;
    /** Revisions are requested: the response to the reviewers goes with the revised manuscript. */
    revising: boolean;
    link: string;
  },
): Mail {
  const what = o.count === 1 ? 'a review' : `${o.count} reviews`;
  return {
    to: o.to,
    subject: `[${o.reference}] Reviews shared with you: ${o.title}`,
    text: `Dear ${o.name},

The editors have shared ${what}${o.round ? ` of round ${o.round}` : ''} of your manuscript "${o.title}" with you:

${o.reviews}

${o.revising ? 'Please answer the reviewers in your response to them when you upload your revised manuscript. ' : ''}You can read ${o.count === 1 ? 'it' : 'them'} on your submission's page: ${o.link}
${signature}`,
  };
}

/** To the editorial office: an answer or a review arrived (reviewer names are for editors). */
export function editorNoticeMail(
  o: ManuscriptRef & {
    to: string | string[];
    reviewer: string;
    what: 'accepted' | 'declined' | 'submitted';
    detail?: string;
    recommendation?: Recommendation | null;
    publicUrl: string;
    submissionId: number;
  },
): Mail {
  const line = {
    accepted: `${o.reviewer} accepted the invitation to review.`,
    declined: `${o.reviewer} declined the invitation to review.`,
    submitted: `${o.reviewer} submitted a review${o.recommendation ? ` recommending: ${RECOMMENDATION_LABELS[o.recommendation]}` : ''}.`,
  }[o.what];
  return {
    to: o.to,
    subject: `[${o.reference}] Reviewer ${o.what}: ${o.title}`,
    text: `${line}\n${o.detail ? `\n${o.detail}\n` : ''}\nOpen the submission: ${o.publicUrl}/editor-dashboard/submissions/${o.submissionId}\n`,
  };
}

export function newAccountMail(o: {
  to: string;
  name: string;
  username: string;
  journal: string;
  link: string;
}): Mail {
  return {
    to: o.to,
    subject: `Your reviewer account at ${o.journal}`,
    text: `Dear ${o.name},

Thank you for accepting to review for ${o.journal}. We have created an account for you so that you can find your reviews in one place. Your username is ${o.username}.

Choose your password with this link within seven days (it works once; afterwards, use "Forgot your password?" on the sign-in page):

${o.link}

Your invitation link keeps working without a password in the meantime.
${signature}`,
  };
}
