/**
 * The command bar's commands over HTTP on a real database (issue 18; spec part 2 "AI chat", save_command):
 * a command is saved from the query (the spec's way) or a JSON body, with the actions the tablet read from
 * it and the time it was given; a request without its fields or with a list that is not one of actions is
 * refused with the reason and saves nothing; a user saves only their own commands, a company reads only
 * its own; a command sent again under its client id (a push replayed, a key lost) is saved once.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandAction } from '../../common/commands/actions';
import { COMMAND_ACTIONS_MAX, COMMAND_BOXES_MAX, COMMAND_MAX_CHARS, commandMessages as m } from '../../common/messages/commands';
import { httpMessages } from '../../common/messages/http';
import type { CommandRecord } from '../../common/schemas/commands';
import type { PushAnswer } from '../../common/schemas/sync';
import { createTenant, createUser, type SignedInUser, type Tenant } from '../support/factories';
import { type ApiResponse, type RequestOptions, startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

/** A command as these calls answer it: named by the server's integer id (they do not ask for the tablet's naming). */
type SavedCommand = Omit<CommandRecord, 'command_id'> & { command_id: number };
interface SaveAnswer {
  status: 'success';
  message: string;
  command: SavedCommand;
  command_id: number;
  client_id: string;
}
interface ListAnswer {
  status: 'success';
  commands: SavedCommand[];
  page: number;
  per_page: number;
  total: number;
}

const error = (message: string) => ({ status: 'error', message });

/** A fresh command text, so each test finds its own rows. */
const said = (words: string) => `${words} ${randomUUID().slice(0, 8)}`;

const ACTIONS: CommandAction[] = [
  { kind: 'cull', culled: true, boxes: [3, 12], grid: 'Bench A' },
  { kind: 'problem', problem: 'Spider mites', severity: 3, notes: null, boxes: [4, 5, 6], grid: null },
  { kind: 'harvest', batch: 'B-001' },
];

/** save_command with the fields in a JSON body, as the tablet sends it. */
const saveJson = (user: SignedInUser, fields: Record<string, unknown>, headers?: Record<string, string>) =>
  server.request<SaveAnswer>('POST', '/save_command', { token: user.token, json: fields, ...(headers ? { headers } : {}) });

/** save_command with the fields in the query, as the spec writes the call. */
const saveQuery = (user: SignedInUser, query: RequestOptions['query']) => server.request<SaveAnswer>('POST', '/save_command', { token: user.token, query });

const listCommands = (user: SignedInUser, query: Record<string, string | number>) => server.request<ListAnswer>('GET', '/get_commands', { token: user.token, query });

const saved = (response: ApiResponse<SaveAnswer>) => {
  expect(response.body).toMatchObject({ status: 'success', message: m.commandSaved });
  expect(response.status).toBe(200);
  return response.body;
};

const rowsSaying = (command: string) => server.database.db.selectFrom('commands').selectAll().where('command', '=', command).execute();
const auditTitled = (companyId: number, title: string) =>
  server.database.db.selectFrom('audit_events').selectAll().where('company_id', '=', companyId).where('event_title', '=', title).execute();

describe('save_command', () => {
  it('saves a command given in the query, as the spec writes the call: no actions, in English, now', async () => {
    const command = said('mark Flower 1 scanned');
    const before = Date.now();
    const answer = saved(await saveQuery(farm.regular, { command: `  ${command} `, user_id: farm.regular.id }));
    expect(answer.command).toMatchObject({ command, parsed: [], language: 'en', user_id: farm.regular.id, company_id: farm.companyId, command_id: answer.command_id, client_id: answer.client_id });
    expect(new Date(answer.command.acted_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const rows = await rowsSaying(command);
    expect(rows.map((row) => [row.id, row.client_id, row.user_id, row.company_id, row.parsed])).toEqual([[answer.command_id, answer.client_id, farm.regular.id, farm.companyId, []]]);
    // Audited like every write of the company's data, as its giver.
    const events = await auditTitled(farm.companyId, `Gave the command "${command}"`);
    expect(events.map((event) => [event.user_id, event.details])).toEqual([[farm.regular.id, { command_id: answer.command_id, actions: [] }]]);
  });

  it('saves a command from a JSON body with its actions, language and client id, at the time it was given', async () => {
    const command = said('cull box 3 and 12 in Bench A, spider mites severity 3 on boxes 4 to 6, harvest B-001');
    const clientId = randomUUID();
    const givenAt = new Date(Date.now() - 25 * 60_000);
    const answer = saved(await saveJson(farm.admin, { command, user_id: farm.admin.id, parsed: ACTIONS, language: 'NL', client_id: clientId }, { 'X-Acted-At': givenAt.toISOString() }));
    expect(answer.client_id).toBe(clientId);
    expect(answer.command).toEqual({
      command_id: answer.command_id,
      client_id: clientId,
      company_id: farm.companyId,
      user_id: farm.admin.id,
      command,
      parsed: ACTIONS,
      language: 'nl',
      acted_at: givenAt.toISOString(),
    });
    const [row] = await rowsSaying(command);
    expect(row?.acted_at).toEqual(givenAt);
    expect(row?.created_at).toEqual(givenAt);
    expect(row?.parsed).toEqual(ACTIONS);
    const [event] = await auditTitled(farm.companyId, `Gave the command "${command}"`);
    expect(event?.created_at).toEqual(givenAt);
    expect(event?.details).toEqual({ command_id: answer.command_id, actions: ['cull', 'problem', 'harvest'] });
  });

  it('takes the actions as JSON text from the query or a form', async () => {
    const fromQuery = said('harvest B-001');
    const queried = saved(await saveQuery(farm.regular, { command: fromQuery, user_id: farm.regular.id, parsed: JSON.stringify([ACTIONS[2]]), language: 'es' }));
    expect(queried.command).toMatchObject({ command: fromQuery, parsed: [ACTIONS[2]], language: 'es' });

    const fromForm = said('uncull box 7');
    const uncull: CommandAction = { kind: 'cull', culled: false, boxes: [7], grid: null };
    const formed = saved(
      await server.request<SaveAnswer>('POST', '/save_command', { token: farm.regular.token, form: { command: fromForm, user_id: farm.regular.id, parsed: JSON.stringify([uncull]) } }),
    );
    expect(formed.command).toMatchObject({ command: fromForm, parsed: [uncull], language: 'en' });
  });

  it('refuses a request without its command or user_id, with the reason, and saves nothing', async () => {
    const user = farm.regular;
    const refusals: Array<[string, Promise<ApiResponse<SaveAnswer>>, string]> = [
      ['no fields at all', saveJson(user, {}), m.commandUserRequired],
      ['no command', saveQuery(user, { user_id: user.id }), m.commandUserRequired],
      ['a blank command', saveJson(user, { command: '   ', user_id: user.id }), m.commandUserRequired],
      ['a command that is not text', saveJson(user, { command: 42, user_id: user.id }), m.commandUserRequired],
      ['no user_id', saveQuery(user, { command: said('harvest B-001') }), m.commandUserRequired],
      ['a user_id that is not an id', saveJson(user, { command: said('harvest B-001'), user_id: 'me' }), m.commandUserRequired],
      ['a command too long', saveJson(user, { command: 'x'.repeat(COMMAND_MAX_CHARS + 1), user_id: user.id }), m.commandTooLong],
      ['a language it does not read', saveJson(user, { command: said('harvest B-001'), user_id: user.id, language: 'fr' }), m.languageInvalid],
    ];
    const before = await server.database.db.selectFrom('commands').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    for (const [what, sent, message] of refusals) {
      const response = await sent;
      expect({ what, status: response.status, body: response.body }).toEqual({ what, status: 400, body: error(message) });
    }
    const after = await server.database.db.selectFrom('commands').select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow();
    expect(after.count).toBe(before.count);
  });

  it('refuses a parsed list that is not a list of actions, saying what is wrong, and saves nothing', async () => {
    const command = said('cull box 3');
    const cull = ACTIONS[0] as CommandAction;
    const cases: Array<[string, unknown, string]> = [
      ['not a list', { kind: 'harvest', batch: 'B-001' }, m.parsedInvalid],
      ['a list of text', ['cull box 3'], m.parsedInvalid],
      ['text that is not JSON', 'cull box 3', m.parsedInvalid],
      ['an action it does not know', [{ kind: 'dance', batch: 'B-001' }], m.parsedInvalid],
      ['an action without its fields', [{ kind: 'batch-status', batch: 'B-001' }], m.parsedInvalid],
      ['an action with a field its kind does not have', [{ kind: 'harvest', batch: 'B-001', boxes: [1] }], m.parsedInvalid],
      ['a blank name', [{ kind: 'harvest', batch: '  ' }], m.parsedInvalid],
      ['severity above 5', [{ ...ACTIONS[1], severity: 7 }], m.severityInvalid],
      ['severity below 1', [{ ...ACTIONS[1], severity: 0 }], m.severityInvalid],
      ['box 0', [{ ...cull, boxes: [0, 3] }], m.boxesInvalid],
      ['a box that is not whole', [{ ...cull, boxes: [2.5] }], m.boxesInvalid],
      ['boxes out of order', [{ ...cull, boxes: [12, 3] }], m.boxesInvalid],
      ['a box twice', [{ ...cull, boxes: [3, 3] }], m.boxesInvalid],
      ['too many boxes', [{ ...cull, boxes: Array.from({ length: COMMAND_BOXES_MAX + 1 }, (_, index) => index + 1) }], m.boxesInvalid],
      ['too many actions', Array.from({ length: COMMAND_ACTIONS_MAX + 1 }, () => ACTIONS[2]), m.parsedInvalid],
    ];
    for (const [what, parsed, message] of cases) {
      const response = await saveJson(farm.regular, { command, user_id: farm.regular.id, parsed });
      expect({ what, status: response.status, body: response.body }).toEqual({ what, status: 400, body: error(message) });
    }
    const inQuery = await saveQuery(farm.regular, { command, user_id: farm.regular.id, parsed: '{"kind":' });
    expect([inQuery.status, inQuery.body]).toEqual([400, error(m.parsedInvalid)]);
    expect(await rowsSaying(command)).toEqual([]);
    // At the limits, the same command is a command.
    const most = Array.from({ length: COMMAND_ACTIONS_MAX }, () => ({ ...cull, boxes: Array.from({ length: COMMAND_BOXES_MAX }, (_, index) => index + 1) }));
    expect(saved(await saveJson(farm.regular, { command, user_id: farm.regular.id, parsed: most })).command.parsed).toEqual(most);
  });

  it('answers 401 without a token', async () => {
    const response = await server.request('POST', '/save_command', { query: { command: said('harvest B-001'), user_id: farm.regular.id } });
    expect([response.status, response.body]).toEqual([401, error(httpMessages.unauthenticated)]);
  });

  it('lets a user save only their own commands: another user’s id answers 403, whatever the role', async () => {
    const command = said('harvest B-001');
    const asRegular = await saveJson(farm.regular, { command, user_id: farm.admin.id });
    expect([asRegular.status, asRegular.body]).toEqual([403, error(httpMessages.notYourself)]);
    const asAdmin = await saveQuery(farm.admin, { command, user_id: farm.regular.id });
    expect([asAdmin.status, asAdmin.body]).toEqual([403, error(httpMessages.notYourself)]);
    expect(await rowsSaying(command)).toEqual([]);
  });

  it('keeps companies apart: another company’s token can neither save as this company’s user nor read its commands', async () => {
    const command = said('cull box 3');
    const intruder = await saveJson(other.admin, { command, user_id: farm.regular.id });
    expect([intruder.status, intruder.body]).toEqual([403, error(httpMessages.otherCompany)]);
    expect(await rowsSaying(command)).toEqual([]);

    const mine = saved(await saveJson(farm.regular, { command, user_id: farm.regular.id }));
    const reading = await listCommands(other.regular, { company_id: farm.companyId });
    expect([reading.status, reading.body]).toEqual([403, error(httpMessages.otherCompany)]);
    const byUser = await listCommands(other.admin, { company_id: other.companyId, user_id: farm.regular.id });
    expect([byUser.status, byUser.body]).toEqual([403, error(httpMessages.otherCompany)]);
    // Its own list does not hold this company's command.
    const own = await listCommands(other.admin, { company_id: other.companyId });
    expect(own.status).toBe(200);
    expect(own.body.commands.map((entry) => entry.command_id)).not.toContain(mine.command_id);

    // A client id is unique per company: another company may use the same one for a command of its own.
    const clientId = randomUUID();
    const ours = saved(await saveJson(farm.regular, { command: said('harvest B-002'), user_id: farm.regular.id, client_id: clientId }));
    const theirs = saved(await saveJson(other.regular, { command: said('harvest B-002'), user_id: other.regular.id, client_id: clientId }));
    expect(theirs.command_id).not.toBe(ours.command_id);
    expect([theirs.command.company_id, ours.command.company_id]).toEqual([other.companyId, farm.companyId]);
  });

  it('saves a command once when it is sent again under its client id: with its key, without, or under another', async () => {
    const command = said('spider mites severity 3 on boxes 4 to 6');
    const clientId = randomUUID();
    const key = randomUUID();
    const givenAt = new Date(Date.now() - 3 * 60_000);
    const fields = { command, user_id: farm.regular.id, parsed: [ACTIONS[1]], client_id: clientId };
    const headers = { 'Idempotency-Key': key, 'X-Acted-At': givenAt.toISOString() };
    const first = saved(await saveJson(farm.regular, fields, headers));

    const replayed = await saveJson(farm.regular, fields, headers);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(first);
    for (const again of [await saveJson(farm.regular, fields), await saveJson(farm.regular, fields, { 'Idempotency-Key': randomUUID() })]) {
      expect(saved(again)).toEqual(first);
    }
    const rows = await rowsSaying(command);
    expect(rows.map((row) => [row.id, row.acted_at])).toEqual([[first.command_id, givenAt]]);
    expect(await auditTitled(farm.companyId, `Gave the command "${command}"`)).toHaveLength(1);

    // Another command under that client id, or the same one as someone else, is refused.
    for (const [user, changed] of [
      [farm.regular, { ...fields, command: said('harvest B-001') }],
      [farm.regular, { ...fields, parsed: [] }],
      [farm.regular, { ...fields, language: 'es' }],
      [farm.admin, { ...fields, user_id: farm.admin.id }],
    ] as const) {
      const response = await saveJson(user, changed);
      expect([response.status, response.body]).toEqual([409, error(httpMessages.clientIdTaken)]);
    }
    expect(await rowsSaying(command)).toHaveLength(1);
  });

  it('is saved once from a push pushed twice, at the time each command was given', async () => {
    const commands = [said('harvest B-001'), said('mark grid Bench A scanned')];
    const givenAt = [new Date(Date.now() - 40 * 60_000), new Date(Date.now() - 39 * 60_000)];
    const entries = commands.map((command, index) => ({
      id: randomUUID(),
      method: 'POST',
      path: '/save_command',
      body: { kind: 'json', data: { command, user_id: farm.regular.id, parsed: index === 0 ? [ACTIONS[2]] : [{ kind: 'mark-scanned', target: 'grid', name: 'Bench A' }], client_id: randomUUID() } },
      actedAt: givenAt[index]?.toISOString(),
    }));
    const push = () => server.request<PushAnswer>('POST', '/sync/push', { token: farm.regular.token, json: { entries } });
    const first = await push();
    expect(first.status).toBe(200);
    expect(first.body.results.map((result) => result.status)).toEqual([200, 200]);
    const second = await push();
    expect(second.body.results).toEqual(first.body.results);
    for (const [index, command] of commands.entries()) {
      const rows = await rowsSaying(command);
      expect(rows.map((row) => [row.acted_at, row.client_id])).toEqual([[givenAt[index], (entries[index]?.body.data as { client_id: string }).client_id]]);
    }
  });
});

describe('get_commands', () => {
  it('lists the company’s commands, or one user’s, newest given first, a page at a time', async () => {
    const tenant = await createTenant(server);
    const grower = await createUser(server, tenant.companyId, 'Regular');
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    // Sent in another order than given: the list follows when each was given.
    const plan: Array<[SignedInUser, string, number]> = [
      [tenant.regular, said('harvest B-001'), 30],
      [grower, said('cull box 3'), 10],
      [tenant.regular, said('uncull box 3'), 50],
      [tenant.admin, said('mark Flower 1 scanned'), 20],
    ];
    for (const [user, command, minutes] of plan) saved(await saveJson(user, { command, user_id: user.id }, { 'X-Acted-At': minutesAgo(minutes) }));
    const newestFirst = [...plan].sort((a, b) => a[2] - b[2]).map(([, command]) => command);

    const all = await listCommands(grower, { company_id: tenant.companyId });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ status: 'success', page: 1, per_page: 50, total: 4 });
    expect(all.body.commands.map((entry) => entry.command)).toEqual(newestFirst);

    const pages = [await listCommands(tenant.regular, { company_id: tenant.companyId, per_page: 3 }), await listCommands(tenant.regular, { company_id: tenant.companyId, per_page: 3, page: 2 })];
    expect(pages.map((response) => [response.body.page, response.body.per_page, response.body.total, response.body.commands.map((entry) => entry.command)])).toEqual([
      [1, 3, 4, newestFirst.slice(0, 3)],
      [2, 3, 4, newestFirst.slice(3)],
    ]);

    const ones = await listCommands(tenant.admin, { company_id: tenant.companyId, user_id: tenant.regular.id });
    expect(ones.body.total).toBe(2);
    expect(ones.body.commands.map((entry) => [entry.user_id, entry.command])).toEqual(plan.filter(([user]) => user === tenant.regular).sort((a, b) => a[2] - b[2]).map(([user, command]) => [user.id, command]));

    const tooLarge = await listCommands(grower, { company_id: tenant.companyId, per_page: 10_000 });
    expect([tooLarge.status, tooLarge.body.per_page]).toEqual([200, 200]);
  });

  it('refuses a list without its company or with a page that is not one', async () => {
    const cases: Array<[Record<string, string | number>, string]> = [
      [{}, m.companyIdRequired],
      [{ company_id: 'mine' }, m.companyIdRequired],
      [{ company_id: farm.companyId, page: 0 }, m.pageInvalid],
      [{ company_id: farm.companyId, per_page: 'all' }, m.perPageInvalid],
    ];
    for (const [query, message] of cases) {
      const response = await listCommands(farm.regular, query);
      expect({ query, status: response.status, body: response.body }).toEqual({ query, status: 400, body: error(message) });
    }
  });
});
