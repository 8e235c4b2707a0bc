import { SignJWT, jwtVerify } from 'jose';
import type { Role, Status } from '../../common/roles.ts';

export interface TokenClaims {
  sub: string;
  username: string;
  role: Role;
  status: Status;
  sid: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  iat: number;
}

export class TokenSigner {
  private readonly key: Uint8Array;
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
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: now });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return payload as unknown as TokenClaims;
    } catch {
      return null;
    }
  }
}
