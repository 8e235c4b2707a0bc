import type { Role } from '../../common/roles.ts';
import { type Localized, type Notice, inLocale, orcidOf } from './native.ts';
import { type XmlElement, child, childrenNamed, textOf } from './xml.ts';

/**
 * OJS's Users XML (`<PKPUsers>`: user groups, then users), read leniently (issue 26). Accounts are the site's;
 * what an OJS user group means becomes the account's role in the journal the import fills, and whether they
 * review. The stored password comes as OJS keeps it: a bcrypt hash (OJS 3.1 on, whatever its `encryption`
 * attribute says), an old SHA-1 or MD5 hash, or plain text when there is no `encryption` at all.
 */

/** OJS's role ids (lib/pkp/classes/security/Role.php). */
export const OJS_ROLES = {
  siteAdmin: 1,
  manager: 16,
  subEditor: 17,
  assistant: 4097,
  reviewer: 4096,
  author: 65536,
  reader: 1048576,
  subscriptionManager: 2097152,
} as const;

export type OjsGroup = { key: string; roleId: number | null; names: Localized };

export type OjsPassword =
  /** Kept and accepted at the next sign-in, then hashed again our way. */
  | { kind: 'bcrypt'; hash: string }
  /** An old hash we cannot check safely, or plain text: the account must set a new password. */
  | { kind: 'legacy'; scheme: string }
  | { kind: 'plaintext' }
  | { kind: 'none' };

export type OjsUser = {
  username: string;
  given: string;
  family: string;
  email: string;
  affiliation: string;
  country: string;
  orcid: string;
  interests: string;
  disabled: boolean;
  password: OjsPassword;
  /** The names of the user groups the user is in (as the file's `user_group_ref`s say them). */
  groups: string[];
  path: string;
  line: number;
};

export function readGroup(el: XmlElement): OjsGroup {
  const names: Localized = {};
  for (const n of childrenNamed(el, 'name')) if (textOf(n)) names[n.attrs.locale ?? ''] ??= textOf(n);
  const role = /^\d+$/.test(textOf(child(el, 'role_id'))) ? Number(textOf(child(el, 'role_id'))) : null;
  return { key: inLocale(names), roleId: role, names };
}

/** What the stored password is: OJS writes its hash whatever the `encryption` attribute says. */
export function passwordOf(el: XmlElement | undefined): OjsPassword {
  if (!el) return { kind: 'none' };
  const value = textOf(child(el, 'value')) || textOf(el);
  if (!value) return { kind: 'none' };
  if (/^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/.test(value)) return { kind: 'bcrypt', hash: value };
  const encryption = (el.attrs.encryption ?? '').toLowerCase();
  if (!encryption) return { kind: 'plaintext' };
  if (/^[a-f0-9]{40}$/i.test(value)) return { kind: 'legacy', scheme: 'sha1' };
  if (/^[a-f0-9]{32}$/i.test(value)) return { kind: 'legacy', scheme: 'md5' };
  return { kind: 'legacy', scheme: encryption };
}

export function readUser(el: XmlElement): { value: OjsUser | null; notices: Notice[] } {
  const notices: Notice[] = [];
  const localized = (name: string) => {
    const out: Localized = {};
    for (const c of childrenNamed(el, name)) if (textOf(c)) out[c.attrs.locale ?? ''] ??= textOf(c);
    return inLocale(out);
  };
  const affiliation = (() => {
    for (const a of el.children) {
      if (a.name !== 'affiliation' && a.name !== 'rorAffiliation') continue;
      const names = childrenNamed(a, 'name');
      const text = names.length ? textOf(names[0]) : textOf(a);
      if (text) return text;
    }
    return '';
  })();
  // 3.3/3.4: <user_group_ref> directly; 3.5: inside <user_user_group>.
  const groups = [
    ...childrenNamed(el, 'user_group_ref').map(textOf),
    ...childrenNamed(el, 'user_user_group').map((g) => textOf(child(g, 'user_group_ref'))),
  ].filter(Boolean);
  const username = textOf(child(el, 'username'));
  const email = textOf(child(el, 'email'));
  if (!username || !email) {
    notices.push({
      path: el.path,
      line: el.line,
      message: `A user without ${username ? 'an e-mail address' : 'a username'} cannot be imported: left out.`,
    });
    return { value: null, notices };
  }
  const orcidText = textOf(child(el, 'orcid'));
  const password = child(el, 'password');
  return {
    value: {
      username,
      given: localized('givenname'),
      family: localized('familyname'),
      email,
      affiliation,
      country: textOf(child(el, 'country')).toUpperCase(),
      orcid: orcidOf(orcidText) ?? '',
      interests: textOf(child(el, 'review_interests')),
      disabled: password?.attrs.is_disabled === 'true' || password?.attrs.is_disabled === '1',
      password: passwordOf(password),
      groups,
      path: el.path,
      line: el.line,
    },
    notices,
  };
}

/**
 * The journal role an OJS user's groups give (the highest), whether they review, and the groups that mean
 * nothing here (reported: a site administrator is not made one of this site, a subscription manager has no
 * subscriptions to manage).
 */
export function roleOf(
  groups: string[],
  known: Map<string, OjsGroup>,
): { role: Role | null; reviewer: boolean; unmapped: string[] } {
  const rank: Role[] = ['researcher', 'author', 'editor', 'admin'];
  let role: Role | null = null;
  let reviewer = false;
  const unmapped: string[] = [];
  const raise = (r: Role) => {
    if (role === null || rank.indexOf(r) > rank.indexOf(role)) role = r;
  };
  for (const name of groups) {
    const roleId = known.get(name)?.roleId ?? guessRole(name);
    switch (roleId) {
      case OJS_ROLES.manager:
        raise('admin');
        break;
      case OJS_ROLES.subEditor:
      case OJS_ROLES.assistant:
        raise('editor');
        break;
      case OJS_ROLES.author:
        raise('author');
        break;
      case OJS_ROLES.reviewer:
        reviewer = true;
        raise('researcher');
        break;
      case OJS_ROLES.reader:
        raise('researcher');
        break;
      default:
        unmapped.push(name);
    }
  }
  return { role, reviewer, unmapped };
}

/** A group the file names but does not describe: OJS's default names, in English. */
function guessRole(name: string): number | null {
  const n = name.toLowerCase();
  if (/manager|journal editor/.test(n) && !/subscription/.test(n)) return OJS_ROLES.manager;
  if (/section editor|guest editor|^editor$/.test(n)) return OJS_ROLES.subEditor;
  if (/copyeditor|layout|production|proofreader|designer|assistant/.test(n)) return OJS_ROLES.assistant;
  if (/reviewer/.test(n)) return OJS_ROLES.reviewer;
  if (/author|translator/.test(n)) return OJS_ROLES.author;
  if (/reader/.test(n)) return OJS_ROLES.reader;
  return null;
}
