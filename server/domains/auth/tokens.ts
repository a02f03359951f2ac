/**
 * Access and refresh tokens. The access token is a short-lived JWT whose claims (spec part 1 §3)
 * carry who is calling; the refresh token is an opaque random string stored only as a hash, rotated
 * on every use (queries.ts keeps the rotation rules).
 */
import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { isRole, type Role } from '../../../common/roles';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const REFRESH_TOKEN_DAYS = 30;
/** A refresh token just replaced still works this long, so two tabs refreshing at once stay signed in. */
export const REFRESH_GRACE_SECONDS = 30;
export const INVITATION_DAYS = 7;
export const PASSWORD_RESET_MINUTES = 60;

export interface AccessClaims {
  user_id: number;
  user_role: Role;
  company_id: number;
}

export interface TokenService {
  signAccess(claims: AccessClaims): Promise<string>;
  /** The claims of a valid token, or null for a bad, forged or expired one. */
  verifyAccess(token: string): Promise<AccessClaims | null>;
}

export function createTokenService(secret: string): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    signAccess: (claims) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.user_id))
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
        .sign(key),
    async verifyAccess(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const { user_id, user_role, company_id } = payload;
        if (typeof user_id !== 'number' || typeof company_id !== 'number' || !isRole(user_role)) return null;
        return { user_id, user_role, company_id };
      } catch (error) {
        if (error instanceof errors.JOSEError) return null;
        throw error;
      }
    },
  };
}

/** A new opaque secret for refresh, invitation and reset tokens: 256 random bits, URL-safe. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Opaque tokens are stored hashed; they are random, so a plain SHA-256 is enough (no salt, no KDF). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
