import { SignJWT, jwtVerify } from 'jose';
import type { Role, Status } from '../../common/roles.ts';

export interface TokenClaims {
  sub: string;
  username: string;
  /**
   * The role and status in the journal signed in at (null: not a member of it), for the client's information
   * only: the server never reads them (decision 0054).
   */
  role: Role | null;
  status: Status | null;
  sid: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  iat: number;
}

/** How many verified tokens a signer remembers (a few hundred bytes each). */
const VERIFIED_KEPT = 10_000;

export class TokenSigner {
  private readonly key: Uint8Array;
  /**
   * Tokens whose signature has been checked, with their claims: a signed-in reader's every request carries
   * the same token, and checking its HMAC through WebCrypto costs more than the rest of a kept page
   * (decision 0040). Only the signature is remembered: expiry is checked at every use.
   */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /** `now`: the services' clock, so that a test's clock decides when tokens expire. */
  sign(claims: Omit<TokenClaims, 'iat'>, now: Date = new Date()): Promise<string> {
    return new SignJWT({
      username: claims.username,
      role: claims.role,
      status: claims.status,
      sid: claims.sid,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(claims.exp)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired token; null for anything else. */
  async verify(token: string, now: Date = new Date()): Promise<TokenClaims | null> {
    const known = this.verified.get(token);
    if (known) return current(known, now) ? known : null;
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: now });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      const claims = payload as unknown as TokenClaims;
      if (this.verified.size >= VERIFIED_KEPT) this.verified.clear();
      this.verified.set(token, claims);
      return claims;
    } catch {
      return null;
    }
  }
}

/** jose's own time checks (no clock tolerance): `exp` after now, `nbf` (if any) not after now. */
function current(claims: TokenClaims & { nbf?: unknown }, now: Date): boolean {
  const seconds = Math.floor(now.getTime() / 1000);
  if (typeof claims.exp === 'number' && claims.exp <= seconds) return false;
  return !(typeof claims.nbf === 'number' && claims.nbf > seconds);
}
