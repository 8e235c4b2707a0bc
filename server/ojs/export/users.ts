import { asc, eq, isNotNull } from 'drizzle-orm';
import type { Role } from '../../../common/roles.ts';
import { hasNoPassword } from '../../accounts/passwords.ts';
import { journalMemberships, users } from '../../accounts/tables.ts';
import type { Db } from '../../db/client.ts';
import { unprocessable } from '../../errors.ts';
import { reviewerProfiles } from '../../review/tables.ts';
import { PKP_NS } from '../native.ts';
import { OJS_ROLES } from '../users.ts';
import { ojsLocale, ojsName } from './native.ts';
import { type Sink, el, text } from './sink.ts';

/**
 * A journal's accounts as OJS 3.4 Users XML (`<PKPUsers>`, issue 26, decision 0068): OJS's standard user groups
 * our roles map to, then every account with a role in the journal, in the groups of its role (and Reviewer
 * when it has a reviewer profile here). Read back by server/ojs/users.ts.
 *
 * Passwords go as we keep them: argon2id hashes, marked `encryption="argon2id"`. OJS checks bcrypt, SHA-1 and
 * MD5 only, so an account moved to OJS sets a new password there (its "forgot password" link); an account
 * with no password yet goes with an empty one that must be changed.
 */

/** OJS's default user groups, by the name its exports give them, for each of our roles. */
export const OJS_GROUPS: { name: string; abbrev: string; roleId: number; selfRegistration: boolean }[] = [
  { name: 'Journal manager', abbrev: 'JM', roleId: OJS_ROLES.manager, selfRegistration: false },
  { name: 'Section editor', abbrev: 'SECT', roleId: OJS_ROLES.subEditor, selfRegistration: false },
  { name: 'Reviewer', abbrev: 'R', roleId: OJS_ROLES.reviewer, selfRegistration: true },
  { name: 'Author', abbrev: 'AU', roleId: OJS_ROLES.author, selfRegistration: true },
  { name: 'Reader', abbrev: 'Read', roleId: OJS_ROLES.reader, selfRegistration: true },
];

export const GROUP_OF_ROLE: Record<Role, string> = {
  admin: 'Journal manager',
  editor: 'Section editor',
  author: 'Author',
  researcher: 'Reader',
};

/** OJS's date and time (`2024-06-15 10:00:00`, UTC). */
const dateTime = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

export async function writeUsers(
  db: Db,
  sink: Sink,
  journal: { language: string },
): Promise<{ users: number }> {
  const l = ojsLocale(journal.language);
  const rows = await db
    .select({ user: users, role: journalMemberships.role, status: journalMemberships.status })
    .from(journalMemberships)
    .innerJoin(users, eq(users.id, journalMemberships.userId))
    .orderBy(asc(users.id));
  // OJS's schema wants at least one user; a journal always has its admin, but say so if not.
  if (!rows.length) throw unprocessable('This journal has no accounts: there is nothing to export.');
  const reviewers = new Map(
    (
      await db
        .select({ userId: reviewerProfiles.userId, interests: reviewerProfiles.interests })
        .from(reviewerProfiles)
        .where(isNotNull(reviewerProfiles.userId))
    ).map((r) => [r.userId!, r.interests]),
  );

  await sink.write(
    `<?xml version="1.0" encoding="utf-8"?>\n<PKPUsers xmlns="${PKP_NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${PKP_NS} pkp-users.xsd">\n<user_groups>\n`,
  );
  for (const g of OJS_GROUPS) {
    await sink.write(
      `<user_group><role_id>${g.roleId}</role_id><context_id>1</context_id><is_default>true</is_default><show_title>false</show_title><permit_self_registration>${g.selfRegistration}</permit_self_registration><permit_metadata_edit>${g.roleId === OJS_ROLES.manager}</permit_metadata_edit>${el('name', g.name, { locale: l })}${el('abbrev', g.abbrev, { locale: l })}<stage_assignments>${g.roleId === OJS_ROLES.reader ? '' : '1:3:4:5'}</stage_assignments></user_group>\n`,
    );
  }
  await sink.write('</user_groups>\n<users>\n');
  for (const { user, role, status } of rows) {
    const name = ojsName(user.fullName);
    const disabled = user.suspended || status === 'suspended' || status === 'rejected';
    const noPassword = hasNoPassword(user.passwordHash);
    const password = noPassword
      ? `<password is_disabled="${disabled}" must_change="true"><value></value></password>`
      : `<password encryption="argon2id" is_disabled="${disabled}" must_change="false"><value>${text(user.passwordHash)}</value></password>`;
    const groups = [GROUP_OF_ROLE[role]];
    const interests = reviewers.get(user.id);
    if (interests) groups.push('Reviewer');
    await sink.write(
      '<user>' +
        `<givenname locale="${l}">${text(name.given)}</givenname>` +
        el('familyname', name.family, { locale: l }) +
        el('affiliation', user.institution, { locale: l }) +
        `<email>${text(user.email)}</email>` +
        el('orcid', user.orcid ? `https://orcid.org/${user.orcid}` : '') +
        el('username', user.username) +
        password +
        el('date_registered', dateTime(user.createdAt)) +
        el('phone', user.contactNumber) +
        groups.map((g) => el('user_group_ref', g)).join('') +
        el('review_interests', interests?.join(', ')) +
        '</user>\n',
    );
  }
  await sink.write('</users>\n</PKPUsers>\n');
  return { users: rows.length };
}
