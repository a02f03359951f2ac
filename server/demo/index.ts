/**
 * First start on an empty database: a living demo company, so a new user signs in to a greenhouse
 * with rooms, benches, batches at every stage, eight weeks of scouting and the plant problems, colours
 * and sprays that came of it, the tasks and comments they led to, an automation of each kind, and a
 * dashboard of reports drawn from them, rather than to zeros. Its Admin's and grower's passwords are
 * random, printed once to the console, and kept in DATA_DIR/demo-sign-in.txt (readable by the owner only).
 *
 * The whole demo is one transaction: a start that fails half way leaves no half demo behind, and
 * several instances starting at once on one empty database make exactly one (the others' demo Admin
 * collides with the first's unique email, and their whole transaction is undone). Everything is
 * written through the domains' own writes (server/db/writes.ts stamps each row with its user and the
 * time of its act), so tablets pull the demo like any other data and the audit trail tells it.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { auditTitles } from '../../common/messages/audit-titles';
import { addUser } from '../companies';
import type { DB } from '../db/schema';
import { collectLaterRows, insertRows, systemActor, writer } from '../db/writes';
import { recordAudit } from '../domains/audit/record';
import { calendar, dice } from './dice';
import { seedObservations } from './observations';
import { seedOperation } from './operation';
import { seedProblems } from './problems';
import { seedReports } from './reports';
import { seedTasks } from './tasks';

export const DEMO_COMPANY = 'Demo Greenhouse';
export const DEMO_ADMIN_EMAIL = 'admin@demo.growroom.local';
export const DEMO_GROWER_EMAIL = 'grower@demo.growroom.local';

/** Seeds of the demo's dice: fixed, so every first start tells the same story (only its dates move). */
const OPERATION_SEED = 13;
const OBSERVATIONS_SEED = 1313;
const PROBLEMS_SEED = 131313;

interface Account {
  email: string;
  password: string;
}

/** Creates the demo on an empty database; answers what to print once, or null when there was nothing to do. */
export async function seedDemoIfEmpty(db: Kysely<DB>, dataDir: string, publicUrl: string): Promise<string | null> {
  const any = await db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
  if (any) return null;
  const password = () => randomBytes(9).toString('base64url');
  const admin = { email: DEMO_ADMIN_EMAIL, password: password() };
  const grower = { email: DEMO_GROWER_EMAIL, password: password() };
  let summary: string;
  try {
    summary = await db.transaction().execute((trx) => seedDemo(trx, admin, grower, new Date()));
  } catch (error) {
    if (isDemoAdminTaken(error)) return null;
    throw error;
  }
  const text = [
    `Demo company "${DEMO_COMPANY}" created (${summary}). Sign in at ${publicUrl}/signIn`,
    `  Admin:   ${admin.email}  password: ${admin.password}`,
    `  Regular: ${grower.email}  password: ${grower.password}`,
    '',
  ].join('\n');
  const file = join(dataDir, 'demo-sign-in.txt');
  writeFileSync(file, text, { mode: 0o600 });
  // The mode above applies only to a new file: one left from an earlier database is narrowed too.
  chmodSync(file, 0o600);
  return text;
}

/** Another instance made the demo first: its Admin's email is taken (users_email, unique). */
function isDemoAdminTaken(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && (constraint === undefined || constraint === 'users_email');
}

async function seedDemo(trx: Kysely<DB>, admin: Account, grower: Account, now: Date): Promise<string> {
  // Audit events, written one per act, are inserted together at the end (writes.ts insertLater).
  const audit = collectLaterRows(trx);
  const cal = calendar(now);
  // The company dates from when its story begins; its users are made now, with their passwords.
  // As server/companies.ts createCompanyWithAdmin, inside this transaction (that one opens its own).
  const founded = { ...systemActor(0), actedAt: cal.at(88, 8) };
  const { id: companyId } = await writer(trx, founded).insert('companies', {
    name: DEMO_COMPANY,
    contact_name: 'Ada Admin',
    contact_email: admin.email,
    company_type: 'Greenhouse',
    contact_phone: null,
  });
  const adminId = await addUser(trx, companyId, { email: admin.email, password: admin.password, role: 'Admin', name: ['Ada', 'Admin'] });
  await recordAudit(trx, { ...founded, companyId }, { title: auditTitles.createdCompanyWithAdmin(DEMO_COMPANY, admin.email) });
  const growerId = await addUser(trx, companyId, { email: grower.email, password: grower.password, role: 'Regular', name: ['Gus', 'Grower'] });

  const operation = await seedOperation(trx, { companyId, adminId, growerId }, cal, dice(OPERATION_SEED));
  const forms = await seedObservations(trx, operation, cal, dice(OBSERVATIONS_SEED));
  const problems = await seedProblems(trx, operation, cal, dice(PROBLEMS_SEED), now);
  const tasks = await seedTasks(trx, operation, cal, now);
  const reports = await seedReports(trx, operation, now);
  await insertRows(trx, audit);
  const boxes = operation.grids.reduce((sum, grid) => sum + grid.boxes.length, 0);
  return [
    `${Object.keys(operation.rooms).length} rooms, ${operation.grids.length} benches of ${boxes} boxes, ${operation.batchCount} batches`,
    `${forms.toLocaleString('en')} forms filled over 8 weeks`,
    `${problems.problems} plant problems (${problems.open} open)`,
    `${problems.products} spray products, ${problems.sprays} sprays`,
    `${tasks.tasks} tasks from observations (${tasks.notDone} not done) with ${tasks.comments} comments`,
    `${tasks.taskAutomations} task automation and ${tasks.rules} e-mail notification rules (for changes from now on; DATA_DIR/mail/ without SMTP_URL)`,
    `${reports} saved reports on the dashboard`,
  ].join(', ');
}
