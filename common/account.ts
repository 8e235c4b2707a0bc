import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { emailField, newPasswordField, orcidField, registerSchema } from './schemas.ts';

/**
 * The account holder's own forms (/account, /forgot-password, /reset-password) and their API twins: one
 * schema each, read by the page action and the API route alike.
 */

const { fullName, contactNumber, institution } = registerSchema.shape;

/** Name, institution, contact number (the registration's rules) and ORCID iD. */
export const profileSchema = z.object({ fullName, institution, contactNumber, orcid: orcidField });
export type ProfileInput = z.infer<typeof profileSchema>;

/** The API's PATCH: any of the profile's fields, at least one. */
export const profilePatchSchema = profileSchema
  .partial()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Give at least one field to change.');

const currentPassword = z
  .string('Enter your current password.')
  .min(1, 'Enter your current password.')
  .max(LIMITS.password.max, 'Enter your current password.');

export const passwordChangeSchema = z.object({
  currentPassword,
  newPassword: newPasswordField('New password'),
});
export type PasswordChangeInput = z.infer<typeof passwordChangeSchema>;

export const emailChangeSchema = z.object({
  email: emailField('New email'),
  /** Asked again: a session left open on a shared computer must not be enough to take the account. */
  password: currentPassword,
});
export type EmailChangeInput = z.infer<typeof emailChangeSchema>;

/** No control characters and no lone surrogates: text the database stores as it was typed. */
function plainText(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || (c >= 0xdc00 && c <= 0xdfff)) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = v.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    }
  }
  return true;
}

export const passwordResetRequestSchema = z.object({
  identifier: z
    .string('Enter your username or email address.')
    .trim()
    .min(1, 'Enter your username or email address.')
    .max(LIMITS.email, `Username or email must be at most ${LIMITS.email} characters.`)
    // Looked up after the answer is sent: text the database cannot hold is refused here, not failed there.
    .refine(plainText, 'Username or email may not contain control characters.'),
});
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestSchema>;

/** The secret of an e-mailed link (43 base64url characters); anything else is an unknown link. */
export const linkTokenField = z
  .string('The link is incomplete.')
  .trim()
  .min(1, 'The link is incomplete.')
  .max(200, 'The link is not valid.');

export const passwordResetSchema = z.object({
  token: linkTokenField,
  password: newPasswordField('New password'),
});
export type PasswordResetInput = z.infer<typeof passwordResetSchema>;

export const linkTokenSchema = z.object({ token: linkTokenField });

/** A session's id (the `sid` of its token). */
export const sessionIdParamSchema = z.object({
  id: z.uuid('No such session.'),
});

/** What the pages say when a link cannot be used, by reason. */
export const LINK_PROBLEMS = {
  expired: 'This link has expired.',
  used: 'This link has already been used.',
  unknown: 'This link is not valid: it may be incomplete (check that you copied all of it).',
} as const;
export type LinkProblem = keyof typeof LINK_PROBLEMS;

/** What every request for a reset link is told, whether or not an account matched. */
export const RESET_REQUESTED_MESSAGE =
  'If an account matches what you typed, we have sent a link to its email address. The link works once, for one hour. If nothing arrives within a few minutes, check your spam folder or ask again.';

export const RESET_DONE_MESSAGE =
  'Your password has been changed and every session of your account has been signed out. Log in with your new password.';

/**
 * Accounts are the site's, roles the journal's (decision 0054): what registering and signing in say about
 * membership of the journal at hand.
 */
export const MEMBERSHIP_MESSAGES = {
  usernameTaken: 'That username is already taken.',
  emailTaken: 'An account with that email address already exists.',
  /** Added to the field's message: a person with an account here registers once, and joins each journal. */
  signInAndJoin: 'If it is yours, sign in and join this journal from your account page.',
  notAMember:
    'You are signed in, but not a member of this journal: you can read it, and ask to join it from your account page.',
  alreadyMember: 'You are already a member of this journal.',
  noJournalHere: 'There is no journal here to join: open the journal’s own pages, and join it there.',
  joined:
    'Your request to join this journal is waiting for approval by its editorial board. You will be notified once it is approved.',
} as const;

/** Asking to join the journal at hand (an account of the site, signed in): as a researcher or an author. */
export const joinSchema = z.object({ role: registerSchema.shape.role });
export type JoinInput = z.infer<typeof joinSchema>;

/** The site admin's suspension of an account, everywhere on the site (or its end). */
export const siteSuspensionSchema = z.object({
  suspended: z.boolean('Say whether the account is suspended (true or false).'),
});
