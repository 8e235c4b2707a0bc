import { describe, expect, it } from 'vitest';
import { TokenSigner } from './tokens.ts';

const claims = {
  sub: '7',
  username: 'reader',
  role: 'researcher' as const,
  status: 'approved' as const,
  sid: '00000000-0000-4000-8000-000000000000',
};

describe('TokenSigner', () => {
  const at = (iso: string) => new Date(iso);
  const exp = Math.floor(at('2026-01-01T01:00:00Z').getTime() / 1000);

  it('accepts its own token until it expires, the signature checked once (decision 0040)', async () => {
    const signer = new TokenSigner('a-secret-of-at-least-32-characters-long');
    const token = await signer.sign({ ...claims, exp }, at('2026-01-01T00:00:00Z'));
    expect(await signer.verify(token, at('2026-01-01T00:00:01Z'))).toMatchObject({ sub: '7', sid: claims.sid });
    // Remembered: the same claims object, with no second HMAC check.
    const first = await signer.verify(token, at('2026-01-01T00:30:00Z'));
    expect(await signer.verify(token, at('2026-01-01T00:59:59Z'))).toBe(first);
    // Expiry is checked at every use, remembered or not.
    expect(await signer.verify(token, at('2026-01-01T01:00:00Z'))).toBeNull();
    expect(await signer.verify(token, at('2026-01-01T02:00:00Z'))).toBeNull();
    expect(await signer.verify(token, at('2026-01-01T00:10:00Z'))).not.toBeNull();
  });

  it('refuses a token signed with another secret, or altered, however often it is sent', async () => {
    const signer = new TokenSigner('a-secret-of-at-least-32-characters-long');
    const other = new TokenSigner('another-secret-of-at-least-32-characters');
    const now = at('2026-01-01T00:00:00Z');
    const foreign = await other.sign({ ...claims, exp }, now);
    const own = await signer.sign({ ...claims, exp }, now);
    expect(await signer.verify(own, now)).not.toBeNull();
    const [head, body, sig] = own.split('.');
    const altered = `${head}.${Buffer.from(JSON.stringify({ ...claims, exp, sub: '1' })).toString('base64url')}.${sig}`;
    for (let i = 0; i < 2; i++) {
      expect(await signer.verify(foreign, now)).toBeNull();
      expect(await signer.verify(altered, now)).toBeNull();
      expect(await signer.verify(`${head}.${body}.${sig.slice(0, -2)}AA`, now)).toBeNull();
    }
  });
});
