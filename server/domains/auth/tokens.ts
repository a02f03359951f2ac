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

/** How many verified access tokens are remembered (a farm's tablets; the oldest is forgotten first). */
const VERIFIED_CACHE_SIZE = 2_000;

export function createTokenService(secret: string): TokenService {
  const key = new TextEncoder().encode(secret);
  // A token verified once is the same token until it expires: a tablet's push of 100 entries, each
  // checked as its own request, or its every call for 15 minutes, verifies the signature once. Keyed by
  // the whole token (its signature included), so nothing but that exact token can match.
  const verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();
  return {
    signAccess: (claims) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(claims.user_id))
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
        .sign(key),
    async verifyAccess(token) {
      const known = verified.get(token);
      if (known) {
        if (known.expiresAt > Date.now()) return known.claims;
        verified.delete(token);
      }
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const { user_id, user_role, company_id, exp } = payload;
        if (typeof user_id !== 'number' || typeof company_id !== 'number' || !isRole(user_role)) return null;
        const claims: AccessClaims = { user_id, user_role, company_id };
        if (typeof exp === 'number') {
          if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
          verified.set(token, { claims, expiresAt: exp * 1000 });
        }
        return claims;
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
