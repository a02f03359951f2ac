/** Commands of the command bar (issue 18): reads, and a command as answers show it. */
import type { Kysely, Selectable } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import type { CommandRecord } from '../../../common/schemas/commands';
import type { CommandsTable, DB } from '../../db/schema';

export type CommandRow = Selectable<CommandsTable>;

export const commandJson = (row: CommandRow): CommandRecord => ({
  command_id: row.id,
  client_id: row.client_id,
  company_id: row.company_id,
  user_id: row.user_id,
  command: row.command,
  parsed: row.parsed,
  language: row.language,
  acted_at: isoTime(row.acted_at),
});

export interface CommandFilter {
  companyId: number;
  /** One user's commands only. */
  userId?: number | undefined;
}

export const commandQueries = {
  /** The command a client id names in the company, live or not (a client id names one record for good). */
  byClientId: (db: Kysely<DB>, companyId: number, clientId: string) =>
    db.selectFrom('commands').selectAll().where('company_id', '=', companyId).where('client_id', '=', clientId).executeTakeFirst(),

  /** A page of the live commands, newest given first, and how many match in all. */
  async page(db: Kysely<DB>, filter: CommandFilter, page: number, perPage: number): Promise<{ rows: CommandRow[]; total: number }> {
    let query = db.selectFrom('commands').where('company_id', '=', filter.companyId).where('deleted_at', 'is', null);
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    const total = await query.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy('acted_at', 'desc')
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    return { rows, total: Number(total.count) };
  },
};
