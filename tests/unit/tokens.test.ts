import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createTokenService, hashToken, newOpaqueToken } from '../../server/domains/auth/tokens';

const service = createTokenService('unit-test-secret-of-enough-length');
const claims = { user_id: 7, user_role: 'Regular' as const, company_id: 3 };

describe('access tokens', () => {
  it('carry the spec claims and verify', async () => {
    const token = await service.signAccess(claims);
    expect(await service.verifyAccess(token)).toEqual(claims);
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, number>;
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(15 * 60);
  });

  it('refuse another secret, a changed payload and an expired token', async () => {
    const token = await service.signAccess(claims);
    expect(await createTokenService('another-secret-entirely').verifyAccess(token)).toBeNull();
    const [head, , signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, user_role: 'SuperAdmin' })).toString('base64url');
    expect(await service.verifyAccess(`${head}.${forged}.${signature}`)).toBeNull();
    const expired = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode('unit-test-secret-of-enough-length'));
    expect(await service.verifyAccess(expired)).toBeNull();
    expect(await service.verifyAccess('not-a-token')).toBeNull();
  });

  it('refuse a token whose claims are not the spec’s', async () => {
    const strange = await new SignJWT({ user_id: '7', user_role: 'Boss', company_id: 3 })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('unit-test-secret-of-enough-length'));
    expect(await service.verifyAccess(strange)).toBeNull();
  });
});

describe('opaque tokens', () => {
  it('are 256 random bits and stored as a stable hash', () => {
    const token = newOpaqueToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(newOpaqueToken()).not.toBe(token);
    expect(hashToken(token)).toBe(hashToken(token));
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
  });
});
