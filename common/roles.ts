/**
 * Roles, statuses and who may do what: the one table that both the pages (to hide what a user may not
 * do) and the API (to refuse it) read.
 */
export const ROLES = ['researcher', 'author', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const REGISTRABLE_ROLES = ['researcher', 'author'] as const;
export const STATUSES = ['pending', 'approved', 'rejected', 'suspended'] as const;
export type Status = (typeof STATUSES)[number];

/**
 * Who asks, in the journal at hand (decision 0054): an account's role and status are its membership of that
 * journal; null for an account signed in at a journal it is not a member of.
 */
export interface Principal {
  role: Role | null;
  status: Status | null;
  /** The site's admin (`users.site_admin`): makes and moves journals (decision 0055). */
  siteAdmin?: boolean;
}

export interface Permission {
  roles: readonly Role[];
  /** When true, every role but admin must also be approved (the spec's guard rule). */
  requireApproved: boolean;
  /** The site's, not a journal's: only a site admin, whatever the role in the journal at hand. */
  site?: true;
  /** Also any signed-in account with no role in this journal (its own account, asking to join). */
  anyAccount?: boolean;
}

export const PERMISSIONS = {
  /** Any signed-in account in good standing. */
  signedIn: { roles: ROLES, requireApproved: false, anyAccount: true },
  /** /submission: authors may submit while pending (the registration notice promises it). */
  submit: { roles: ['author', 'editor', 'admin'], requireApproved: false },
  /** Downloads: approved researchers, authors and editors, and admins. */
  download: { roles: ['researcher', 'author', 'editor', 'admin'], requireApproved: true },
  /** /editor-dashboard and /api/editor/*. */
  editorial: { roles: ['editor', 'admin'], requireApproved: true },
  /** An author's side of the article processing charge (decision 0063): the service checks the submission is theirs. */
  apcAuthor: { roles: ['author', 'editor', 'admin'], requireApproved: false },
  /** The editors' side of the article processing charge: waivers, payments, void, vouchers, ledger, settings. */
  apcEditor: { roles: ['editor', 'admin'], requireApproved: true },
  /** Account administration. */
  admin: { roles: ['admin'], requireApproved: true },
  /** The site admin's journals (/admin/journals, /api/admin/journals). */
  siteAdmin: { roles: ROLES, requireApproved: false, site: true },
} as const satisfies Record<string, Permission>;

export type PermissionName = keyof typeof PERMISSIONS;

/** Rejected and suspended accounts may do nothing that needs an account; pending ones only what allows it. */
export function allows(permission: Permission, who: Principal | null | undefined): boolean {
  if (!who) return false;
  if (permission.site) return who.siteAdmin === true;
  if (who.role === null) return permission.anyAccount === true;
  if (!permission.roles.includes(who.role)) return false;
  if (who.role === 'admin') return true;
  if (who.status === 'rejected' || who.status === 'suspended') return false;
  return !permission.requireApproved || who.status === 'approved';
}

export function can(name: PermissionName, who: Principal | null | undefined): boolean {
  return allows(PERMISSIONS[name], who);
}
