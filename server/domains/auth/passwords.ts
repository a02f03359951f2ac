/** Password hashing: argon2id with the library's defaults (19 MiB, 2 passes: OWASP's minimum). */
import { hash, verify } from '@node-rs/argon2';

export const hashPassword = (password: string) => hash(password);

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no stored hash (unknown email) it still spends the
 * same work on a dummy hash, so response time does not tell which emails have accounts.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  dummyHash ??= hash('not-a-password-of-anyone');
  const target = storedHash ?? (await dummyHash);
  const matches = await verify(target, password).catch(() => false);
  return storedHash !== undefined && matches;
}
