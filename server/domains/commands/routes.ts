/**
 * The command bar's commands (issue 18; spec part 2 "AI chat: command text and a parsed data list",
 * `POST /save_command: query command, user_id`). The tablet parses a command itself and runs its actions
 * through the same calls as the screens (each audited there); save_command keeps what was said beside
 * what was read from it, queued through the outbox like every write. Shapes and rules:
 * common/schemas/commands.ts.
 *
 * Decisions (the spec shows nothing beyond the call's fields):
 * - Any member gives commands, each only as themselves (`user_id` is the caller's), in their own
 *   company: the call names no company.
 * - A command is named by the tablet's client id: the same command sent again (a replay whose
 *   Idempotency-Key is gone, or under another key) answers the command saved, and saves nothing new;
 *   another command under that id answers 409.
 * - Saving a command is audited like every write of a company's data ("Gave the command …"), so the
 *   trail shows where the changes after it came from.
 * - get_commands (not in the spec; the command bar shows the recent ones) lists the company's commands,
 *   or one user's, newest given first, a page at a time, to any member: the audit trail shows them alike.
 */
import { isDeepStrictEqual } from 'node:util';
import { auditTitles } from '../../../common/messages/audit-titles';
import { httpMessages } from '../../../common/messages/http';
import { commandMessages as m } from '../../../common/messages/commands';
import { commandsAnswer, getCommandsQuery, saveCommandAnswer, saveCommandBody } from '../../../common/schemas/commands';
import { writer } from '../../db/writes';
import { conflict } from '../../http/errors';
import { assertCaller } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { commandJson, commandQueries, type CommandRow } from './queries';

const saveSchema = { body: saveCommandBody, response: { 200: saveCommandAnswer } };
const listSchema = { querystring: getCommandsQuery, response: { 200: commandsAnswer } };

/** How much of a command the audit trail's title quotes: enough to recognise it in a list. */
const TITLE_QUOTE_CHARS = 120;

const quoted = (command: string) => (command.length > TITLE_QUOTE_CHARS ? `${command.slice(0, TITLE_QUOTE_CHARS - 1)}…` : command);

const savedAnswer = (row: CommandRow) => success({ command: commandJson(row), command_id: row.id, client_id: row.client_id }, m.commandSaved);

async function saveCommand(request: RequestOf<typeof saveSchema>) {
  const { command, user_id, parsed, language, client_id } = request.body;
  const claims = assertCaller(request, user_id);
  const actor = actorOfRequest(request, claims.company_id);
  if (client_id !== undefined) {
    const saved = await commandQueries.byClientId(request.db, actor.companyId, client_id);
    if (saved) {
      // The same command again: the one saved. jsonb keeps its own key order, hence a deep comparison.
      const same = saved.deleted_at === null && saved.user_id === claims.user_id && saved.command === command && saved.language === language && isDeepStrictEqual(saved.parsed, parsed);
      if (!same) throw conflict(httpMessages.clientIdTaken);
      return savedAnswer(saved);
    }
  }
  // insertMany answers the row as stored (one statement, no read back), for one row as for many.
  const [row] = await writer(request.db, actor).insertMany('commands', [
    { client_id, company_id: actor.companyId, user_id: claims.user_id, command, parsed: JSON.stringify(parsed), language, acted_at: request.actedAt },
  ]);
  if (!row) throw new Error('The command insert answered no row');
  await recordAudit(request.db, actor, { title: auditTitles.gaveCommand(quoted(command)), details: { command_id: row.id, actions: parsed.map((action) => action.kind) } });
  return savedAnswer(row);
}

async function getCommands(request: RequestOf<typeof listSchema>) {
  const { company_id, user_id, page, per_page } = request.query;
  const { rows, total } = await commandQueries.page(request.db, { companyId: company_id, userId: user_id }, page, per_page);
  return success({ commands: rows.map(commandJson), page, per_page, total });
}

export async function commandRoutes(app: App) {
  app.post('/save_command', { schema: saveSchema, preValidation: fieldsFromQueryAndBody }, saveCommand);
  app.get('/get_commands', { schema: listSchema }, getCommands);
}
