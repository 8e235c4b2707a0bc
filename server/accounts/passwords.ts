import { hash, verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

// argon2id with the library's defaults (about 10 ms a hash here).
export const hashPassword = (password: string) => hash(password);

/**
 * A hash another system made that we accept once (issue 26): OJS keeps bcrypt (`$2y$`, `$2a$`, `$2b$`). The
 * next sign-in with it hashes the password again our way (`needsRehash`).
 */
const FOREIGN_BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/**
 * The stored value of an account that has no password it can sign in with: moved in from another system with
 * an old hash (SHA-1, MD5) or a plain-text password we do not keep. Nothing verifies against it; the account
 * holder sets a password through "Forgotten password" (or the link the site admin sends them).
 */
export const NO_PASSWORD_PREFIX = '!unset:';
export const noPassword = (why: string) => `${NO_PASSWORD_PREFIX}${why}`;
export const hasNoPassword = (storedHash: string) => storedHash.startsWith(NO_PASSWORD_PREFIX);

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    if (hasNoPassword(storedHash)) return false;
    if (FOREIGN_BCRYPT.test(storedHash)) return await bcrypt.compare(password, storedHash);
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

/** Whether a hash that just verified should be replaced by ours. */
export const needsRehash = (storedHash: string) => FOREIGN_BCRYPT.test(storedHash);

let dummy: Promise<string> | undefined;
/** Checked when the username is unknown, so a wrong name costs as long as a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('not-a-real-password');
  await verifyPassword(await dummy, password);
}
