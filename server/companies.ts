/**
 * Creating a company with its first Admin, outside any request: used by the CLI and the demo data of
 * the first start. The system is the actor; the audit trail says so.
 */
import type { Kysely } from 'kysely';
import { auditTitles } from '../common/messages/audit-titles';
import type { Role } from '../common/roles';
import type { DB } from './db/schema';
import { systemActor, writer } from './db/writes';
import { recordAudit } from './domains/audit/record';
import { hashPassword } from './domains/auth/passwords';

export async function createCompanyWithAdmin(db: Kysely<DB>, input: { name: string; adminEmail: string; adminPassword: string; adminName?: [string, string] }) {
  return db.transaction().execute(async (trx) => {
    const { id: companyId } = await writer(trx, systemActor(0)).insert('companies', {
      name: input.name,
      contact_name: null,
      contact_email: input.adminEmail,
      company_type: null,
      contact_phone: null,
    });
    const userId = await addUser(trx, companyId, { email: input.adminEmail, password: input.adminPassword, role: 'Admin', name: input.adminName ?? ['Company', 'Admin'] });
    await recordAudit(trx, systemActor(companyId), { title: auditTitles.createdCompanyWithAdmin(input.name, input.adminEmail) });
    return { company_id: companyId, user_id: userId };
  });
}

export async function addUser(db: Kysely<DB>, companyId: number, user: { email: string; password: string; role: Role; name: [string, string] }) {
  const { id } = await writer(db, systemActor(companyId)).insert('users', {
    company_id: companyId,
    email: user.email.toLowerCase(),
    first_name: user.name[0],
    last_name: user.name[1],
    role: user.role,
    password_hash: await hashPassword(user.password),
    threshold: null,
    location: null,
  });
  // Users travel inside the company document.
  await writer(db, systemActor(companyId)).touch('companies', companyId);
  return id;
}
