import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../common/messages.ts';
import { MINUTE, SECOND } from '../../server/clock.ts';
import { type TestContext, createTestContext } from '../../server/testing/harness.ts';

/**
 * Issue 12, item 5: five wrong passwords for `admin` from anywhere used to make the right password answer
 * 429 for 15 minutes. Now the attacker's address is slowed and then refused for that username, the owner
 * signs in from any other address, and the owner is told once. The default limits (10/15m per address,
 * 5/15m per username and address) are on here.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ RATE_LIMIT_LOGIN: '10/15m', RATE_LIMIT_LOGIN_USER: '5/15m' });
});
afterAll(() => t?.close());

const OWNER = '192.0.2.20';
const login = (username: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });
const alarms = (to: string) => t.mail.filter((m) => m.to === to && m.subject.startsWith('Failed sign-ins'));

/** Five wrong passwords from one address, each after the wait the previous one earned. */
async function fiveWrong(username: string, from: string) {
  for (let i = 1; i <= 5; i++) {
    expect((await login(username, `guess-number-${i}`, from)).statusCode).toBe(401);
    t.clock.advance(20 * SECOND);
  }
}

describe('wrong passwords for one account', () => {
  it('do not lock out the owner: the right password from another address signs in at once', async () => {
    await fiveWrong('admin', '203.0.113.5');
    const owner = await login('admin', 'admin-pass-123', OWNER);
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().token).toEqual(expect.any(String));
  });

  it("slow the attacker's address (1 s, 2 s, 4 s, 8 s), then refuse it for that username", async () => {
    const victim = await t.createUser({ role: 'author', status: 'approved' });
    const from = '203.0.113.6';
    expect((await login(victim.username, 'guess-1', from)).statusCode).toBe(401);
    const slowed = await login(victim.username, 'guess-2', from);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    expect(slowed.json().message).toMatch(/wait 1 second and try again/);
    for (const wait of [1, 2, 4, 8]) {
      t.clock.advance(wait * SECOND);
      expect((await login(victim.username, `guess-after-${wait}`, from)).statusCode).toBe(401);
      if (wait < 8) {
        expect((await login(victim.username, 'too-soon', from)).headers['retry-after']).toBe(
          String(wait * 2),
        );
      }
    }
    // Five wrong: refused for the rest of the 15 minutes, even with the right password.
    t.clock.advance(30 * SECOND);
    const refused = await login(victim.username, victim.password, from);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(10 * 60);
    expect((await login(victim.username, victim.password, '192.0.2.77')).statusCode).toBe(200);
    // When the window ends the address is forgiven.
    t.clock.advance(15 * MINUTE);
    expect((await login(victim.username, victim.password, from)).statusCode).toBe(200);
  });

  it('tell the account holder once per window, with how many tries from how many addresses, no passwords', async () => {
    const holder = await t.createUser({ role: 'researcher', status: 'approved' });
    await fiveWrong(holder.username, '203.0.113.7');
    expect(alarms(holder.email)).toHaveLength(1);
    const [mail] = alarms(holder.email);
    expect(mail.text).toContain('with a wrong password 5 times within 15 minutes, from one address');
    expect(mail.text).not.toMatch(/guess-/);
    expect(mail.text).not.toContain('203.0.113.7');

    // More failures from other addresses in the same window: no second e-mail.
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      expect((await login(holder.username, 'another-guess', address)).statusCode).toBe(401);
    }
    expect(alarms(holder.email)).toHaveLength(1);

    // The next window's repeated failures make a new one, counting its addresses.
    t.clock.advance(16 * MINUTE);
    for (let i = 0; i < 5; i++) {
      expect((await login(holder.username, 'yet-another', `198.51.100.${10 + i}`)).statusCode).toBe(401);
    }
    expect(alarms(holder.email)).toHaveLength(2);
    expect(alarms(holder.email)[1].text).toContain('5 times within 15 minutes, from 5 different addresses');
  });

  it('keep the per-address allowance across usernames', async () => {
    const spray = '203.0.113.99';
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) answers.push((await login(`user${i}`, 'wrong-password', spray)).statusCode);
    expect(answers.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(answers[10]).toBe(429);
    expect((await login('user99', 'wrong-password', spray)).json().message).toBe(MESSAGES.tooManyRequests);
  });

  it('count unknown usernames like known ones, so the answers do not tell which exist', async () => {
    const from = '203.0.113.150';
    expect((await login('no-such-user', 'wrong-password', from)).statusCode).toBe(401);
    const again = await login('no-such-user', 'wrong-password', from);
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe('1');
  });
});
