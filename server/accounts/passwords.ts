import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (about 10 ms a hash here).
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;
/** Checked when the username is unknown, so a wrong name costs as long as a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummy ??= hashPassword('not-a-real-password');
  await verifyPassword(await dummy, password);
}
