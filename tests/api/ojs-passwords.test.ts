import bcrypt from 'bcryptjs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../common/messages.ts';
import { noPassword } from '../../server/accounts/passwords.ts';
import { users } from '../../server/accounts/tables.ts';
import { createTestContext, type TestContext } from '../../server/testing/harness.ts';

/**
 * Passwords of accounts moved in from OJS (issue 26): a bcrypt hash as OJS writes it (`$2y$`) is accepted at
 * the next sign-in and hashed again our way; an account whose old password could not come along is told how
 * to set one, whatever it types.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t?.close());

const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
const hashOf = async (id: number) =>
  (await t.services.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, id)))[0].h;

describe('an OJS password at the first sign-in', () => {
  it('accepts the bcrypt hash OJS kept, then replaces it with ours', async () => {
    const user = await t.createUser({ role: 'author', status: 'approved', username: 'ojs-bcrypt' });
    const ojsHash = bcrypt.hashSync('ojs-secret-9', 10).replace(/^\$2b\$/, '$2y$');
    await t.services.db.update(users).set({ passwordHash: ojsHash }).where(eq(users.id, user.id));

    expect((await login('ojs-bcrypt', 'not-it')).json()).toEqual({ message: MESSAGES.invalidLogin });
    expect(await hashOf(user.id)).toBe(ojsHash);

    const first = await login('ojs-bcrypt', 'ojs-secret-9');
    expect(first.statusCode, first.body).toBe(200);
    const ours = await hashOf(user.id);
    expect(ours).toMatch(/^\$argon2id\$/);
    expect((await login('ojs-bcrypt', 'ojs-secret-9')).statusCode).toBe(200);
    expect(await hashOf(user.id)).toBe(ours);
  });

  it('tells an account with an old hash (or a plain-text password) to set a new one, never signing it in', async () => {
    const user = await t.createUser({ role: 'author', status: 'approved', username: 'ojs-sha1' });
    await t.services.db
      .update(users)
      .set({ passwordHash: noPassword('sha1') })
      .where(eq(users.id, user.id));
    for (const attempt of ['', 'password', noPassword('sha1'), '!unset:sha1']) {
      const res = await login('ojs-sha1', attempt || 'x');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: MESSAGES.passwordToSet });
    }
  });
});
