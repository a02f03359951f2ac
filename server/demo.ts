/**
 * First start on an empty database: a demo company with an Admin and a Regular user, so a new user can
 * sign in at once. Their passwords are random, printed once to the console, and kept in
 * DATA_DIR/demo-sign-in.txt (readable by the owner only) for later.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from './db/schema';
import { addUser, createCompanyWithAdmin } from './companies';

export async function seedDemoIfEmpty(db: Kysely<DB>, dataDir: string, publicUrl: string): Promise<string | null> {
  const any = await db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const password = () => randomBytes(9).toString('base64url');
  const admin = { email: 'admin@demo.growroom.local', password: password() };
  const grower = { email: 'grower@demo.growroom.local', password: password() };
  let company_id: number;
  try {
    ({ company_id } = await createCompanyWithAdmin(db, { name: 'Demo Greenhouse', adminEmail: admin.email, adminPassword: admin.password, adminName: ['Ada', 'Admin'] }));
  } catch (error) {
    // Several instances started at once on one empty database: one seeds, the others' demo Admin
    // collides with its (unique email) and their whole transaction is undone; the demo exists.
    if ((error as { code?: unknown }).code === '23505') return null;
    throw error;
  }
  await addUser(db, company_id, { email: grower.email, password: grower.password, role: 'Regular', name: ['Gus', 'Grower'] });
  const text = [
    `Demo company "Demo Greenhouse" created. Sign in at ${publicUrl}/signIn`,
    `  Admin:   ${admin.email}  password: ${admin.password}`,
    `  Regular: ${grower.email}  password: ${grower.password}`,
    '',
  ].join('\n');
  writeFileSync(join(dataDir, 'demo-sign-in.txt'), text, { mode: 0o600 });
  return text;
}
