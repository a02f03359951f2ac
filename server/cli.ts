/**
 * Operator commands (`npm run cli -- <command> [--flag value]`), each printing one JSON line:
 *   create-company --name NAME --admin-email EMAIL --admin-password PASSWORD  → {"company_id":…,"user_id":…}
 *   invite --company-id ID --email EMAIL --role Regular|Admin                  → {"invite_token":…}
 * They use DATA_DIR or DATABASE_URL like the server; the embedded database must not be in use by a
 * running server (the data-directory lock says so).
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { sessionMessages } from '../common/messages/session';
import { MIN_PASSWORD_LENGTH } from '../common/schemas/session';
import { requiredEmail, requiredId, requiredText } from '../common/schemas/fields';
import { INVITABLE_ROLES } from '../common/roles';
import { loadConfig } from './config';
import { createCompanyWithAdmin } from './companies';
import { openDatabase } from './db/database';
import { DataDirInUseError, lockDataDir } from './db/lock';
import { migrate } from './db/migrations';
import { INVITATION_DAYS } from './domains/auth/tokens';
import { userQueries } from './domains/users/queries';

const usage = `Usage:
  npm run cli -- create-company --name NAME --admin-email EMAIL --admin-password PASSWORD
  npm run cli -- invite --company-id ID --email EMAIL --role Regular|Admin`;

const createCompanyArgs = z.object({
  name: requiredText('--name is required.', 200),
  'admin-email': requiredEmail('--admin-email is required.', sessionMessages.emailInvalid),
  'admin-password': z.string({ error: '--admin-password is required.' }).min(MIN_PASSWORD_LENGTH, { error: sessionMessages.passwordTooShort }),
});

const inviteArgs = z.object({
  'company-id': requiredId('--company-id must be a company id.'),
  email: requiredEmail('--email is required.', sessionMessages.emailInvalid),
  role: z.enum(INVITABLE_ROLES, { error: sessionMessages.roleInvalid }),
});

function parse<T extends z.ZodType>(schema: T, values: unknown): z.output<T> {
  const result = schema.safeParse(values);
  if (!result.success) throw new UsageError(result.error.issues[0]?.message ?? 'Invalid arguments.');
  return result.data;
}

class UsageError extends Error {}

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        'admin-email': { type: 'string' },
        'admin-password': { type: 'string' },
        'company-id': { type: 'string' },
        email: { type: 'string' },
        role: { type: 'string' },
      },
    });
  } catch (error) {
    // A mistyped or valueless option (ERR_PARSE_ARGS_*): say so with the usage, not a stack trace.
    if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError((error as Error).message);
    throw error;
  }
}

async function main() {
  const { positionals, values } = parseCommandLine();
  const command = positionals[0];
  if (command !== 'create-company' && command !== 'invite') throw new UsageError(`Unknown command: ${command ?? '(none)'}`);
  const args = command === 'create-company' ? parse(createCompanyArgs, values) : parse(inviteArgs, values);

  const config = loadConfig();
  const unlock = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  const database = await openDatabase(config);
  try {
    await migrate(database.db as never);
    if ('name' in args) {
      const created = await createCompanyWithAdmin(database.db, { name: args.name, adminEmail: args['admin-email'], adminPassword: args['admin-password'] });
      console.log(JSON.stringify(created));
    } else {
      const company = await database.db.selectFrom('companies').select('id').where('id', '=', args['company-id']).executeTakeFirst();
      if (!company) throw new UsageError(`No company with id ${args['company-id']}.`);
      if (await userQueries.emailTaken(database.db, args.email)) throw new UsageError(sessionMessages.emailTaken);
      const admin = await database.db
        .selectFrom('users')
        .select('id')
        .where('company_id', '=', company.id)
        .where('role', '=', 'Admin')
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .executeTakeFirst();
      if (!admin) throw new UsageError(`Company ${company.id} has no Admin to send the invitation from.`);
      const invitation = await userQueries.createInvitation(database.db, { companyId: company.id, email: args.email, role: args.role, createdBy: admin.id, days: INVITATION_DAYS });
      console.log(JSON.stringify({ invite_token: invitation.token }));
    }
  } finally {
    await database.close();
    unlock();
  }
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) console.error(`${error.message}\n\n${usage}`);
  else if (error instanceof DataDirInUseError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
