import type { Role } from '../../common/roles.ts';
import type { Mail } from '../mail/mailer.ts';

/**
 * The wording of the e-mails about an account's own life: sign-in failures, forgotten passwords, password
 * and address changes, and the editors' digest of accounts waiting for approval. No message ever holds a
 * password; links carry a one-time secret and say how long they work.
 */

const signature = '\nWith best regards,\nThe editorial office\n';

const duration = (ms: number) => {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'}`;
};

export function failedSignInsMail(opts: {
  to: string;
  fullName: string;
  username: string;
  journal: string;
  publicUrl: string;
  failures: number;
  addresses: number;
  windowMs: number;
}): Mail {
  const from = opts.addresses === 1 ? 'one address' : `${opts.addresses} different addresses`;
  return {
    to: opts.to,
    subject: `Failed sign-ins to your ${opts.journal} account`,
    text: `Dear ${opts.fullName},

Someone tried to sign in to your ${opts.journal} account (${opts.username}) with a wrong password ${opts.failures} times within ${duration(opts.windowMs)}, from ${from}.

Your account is not locked: you can still sign in as usual, and further tries from those addresses are slowed down. If it was you, there is nothing to do. If it was not, you may want to choose a new password:

${opts.publicUrl}/forgot-password

We send this message at most once every ${duration(opts.windowMs)}.
${signature}`,
  };
}

export function passwordResetMail(opts: {
  to: string;
  fullName: string;
  username: string;
  journal: string;
  link: string;
}): Mail {
  return {
    to: opts.to,
    subject: `Choose a new password for ${opts.journal}`,
    text: `Dear ${opts.fullName},

Someone (we hope you) asked to choose a new password for your ${opts.journal} account. Your username is ${opts.username}.

To choose a new password, open this link within one hour. It works once:

${opts.link}

Choosing a new password signs your account out everywhere it is signed in. If you did not ask for this, ignore this message: your password stays as it is.
${signature}`,
  };
}

export function passwordChangedMail(opts: {
  to: string;
  fullName: string;
  username: string;
  journal: string;
  publicUrl: string;
  how: 'reset' | 'changed';
}): Mail {
  return {
    to: opts.to,
    subject: `Your ${opts.journal} password was changed`,
    text: `Dear ${opts.fullName},

The password of your ${opts.journal} account (${opts.username}) was ${opts.how === 'reset' ? 'reset with a link sent to this address' : 'changed from the account page'}, and ${opts.how === 'reset' ? 'every session of the account has' : 'the account’s other sessions have'} been signed out.

If you did not do this, choose a new password at once (${opts.publicUrl}/forgot-password) and write to us through ${opts.publicUrl}/contact.
${signature}`,
  };
}

export function confirmEmailMail(opts: {
  to: string;
  fullName: string;
  username: string;
  journal: string;
  link: string;
  validMs: number;
}): Mail {
  return {
    to: opts.to,
    subject: `Confirm your new e-mail address for ${opts.journal}`,
    text: `Dear ${opts.fullName},

You asked to use this address for your ${opts.journal} account (${opts.username}). To confirm it, open this link within ${duration(opts.validMs)}:

${opts.link}

Until you confirm, the account keeps its current address. If you did not ask for this, ignore this message.
${signature}`,
  };
}

export function emailChangeRequestedMail(opts: {
  to: string;
  fullName: string;
  username: string;
  journal: string;
  newEmail: string;
  publicUrl: string;
}): Mail {
  return {
    to: opts.to,
    subject: `A change of your ${opts.journal} e-mail address was requested`,
    text: `Dear ${opts.fullName},

Someone signed in to your ${opts.journal} account (${opts.username}) asked to change its e-mail address to ${opts.newEmail}. Nothing changes until the link we sent to that address is opened.

If this was not you, choose a new password at once (${opts.publicUrl}/forgot-password): that also cancels the change.
${signature}`,
  };
}

export function emailChangedMail(opts: {
  to: string;
  fullName: string;
  username: string;
  journal: string;
  newEmail: string;
  publicUrl: string;
}): Mail {
  return {
    to: opts.to,
    subject: `Your ${opts.journal} e-mail address was changed`,
    text: `Dear ${opts.fullName},

The e-mail address of your ${opts.journal} account (${opts.username}) is now ${opts.newEmail}. Messages from the journal go there from now on; this is the last one sent to this address.

If you did not make this change, write to us through ${opts.publicUrl}/contact.
${signature}`,
  };
}

export interface WaitingAccount {
  fullName: string;
  username: string;
  role: string;
  institution: string;
  isNew: boolean;
}

export function pendingDigestMail(opts: {
  to: string;
  journal: string;
  accounts: WaitingAccount[];
  link: string;
  settingsLink: string;
}): Mail {
  const fresh = opts.accounts.filter((a) => a.isNew).length;
  const lines = opts.accounts.map(
    (a) => `- ${a.fullName} (${a.username}), ${a.role}, ${a.institution}${a.isNew ? '  [new]' : ''}`,
  );
  const waiting = opts.accounts.length;
  return {
    to: opts.to,
    subject: `${waiting} account${waiting === 1 ? '' : 's'} waiting for approval at ${opts.journal}`,
    text: `Hello,

${fresh === 1 ? 'One new account has' : `${fresh} new accounts have`} registered since the last digest; ${waiting === 1 ? 'one account is' : `${waiting} accounts are`} waiting for approval in all:

${lines.join('\n')}

Approve or reject them in the editorial dashboard:
${opts.link}

This digest goes to the journal's editors and administrators at most once a day, and only when new accounts are waiting. An administrator can turn it off in the Journal settings: ${opts.settingsLink}
${signature}`,
  };
}

/**
 * What an account of each role can do, with where: said when an account is approved or given another role
 * (issue 22: an editor was told only that they could download articles).
 */
function roleAbilities(role: Role, journal: string, publicUrl: string): string {
  const read = `read and download the journal's published articles (${publicUrl}/volumes)`;
  const desk = `Your account is an editor's account. The editorial dashboard is where you work:

${publicUrl}/editor-dashboard

There you handle the submissions (the desk: ${publicUrl}/editor-dashboard/submissions): send manuscripts to peer review, invite reviewers and read their reviews, record decisions with your message to the authors, and publish accepted manuscripts into issues. You also approve the accounts waiting for approval, and edit volumes, issues and articles.`;
  switch (role) {
    case 'researcher':
      return `You can now sign in and ${read}.`;
    case 'author':
      return `You can now sign in, submit manuscripts to ${journal} (${publicUrl}/submission) and follow each one through review on My submissions (${publicUrl}/my-submissions). You can also ${read}.`;
    case 'editor':
      return desk;
    case 'admin':
      return `${desk.replace("an editor's account", "an administrator's account")} As an administrator you also manage every account and the journal's settings.`;
  }
}

export function accountApprovedMail(opts: {
  to: string;
  fullName: string;
  username: string;
  role: Role;
  journal: string;
  publicUrl: string;
}): Mail {
  return {
    to: opts.to,
    subject: `Your ${opts.journal} account is approved`,
    text: `Dear ${opts.fullName},

The editorial board has approved your ${opts.journal} account (${opts.username}). ${roleAbilities(opts.role, opts.journal, opts.publicUrl)}

Sign in: ${opts.publicUrl}/login
${signature}`,
  };
}

export function accountRejectedMail(opts: {
  to: string;
  fullName: string;
  username: string;
  journal: string;
  publicUrl: string;
}): Mail {
  return {
    to: opts.to,
    subject: `Your ${opts.journal} registration`,
    text: `Dear ${opts.fullName},

The editorial board could not approve your ${opts.journal} account (${opts.username}). If you think this is a mistake, please reply to this message or write to us through ${opts.publicUrl}/contact.
${signature}`,
  };
}

const ROLE_NAMES: Record<Role, string> = {
  researcher: 'a researcher',
  author: 'an author',
  editor: 'an editor',
  admin: 'an administrator',
};

/** An approved account given another role. */
export function roleChangedMail(opts: {
  to: string;
  fullName: string;
  username: string;
  role: Role;
  journal: string;
  publicUrl: string;
}): Mail {
  return {
    to: opts.to,
    subject: `Your ${opts.journal} account is now ${ROLE_NAMES[opts.role]}'s account`,
    text: `Dear ${opts.fullName},

Your ${opts.journal} account (${opts.username}) is now ${ROLE_NAMES[opts.role]}'s account. ${roleAbilities(opts.role, opts.journal, opts.publicUrl)}

Sign in: ${opts.publicUrl}/login
${signature}`,
  };
}
