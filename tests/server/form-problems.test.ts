/**
 * A scouting form answer that names plant problems (issue 14; common/problem-answers.ts): a response for
 * a box records each problem on the box in the submission's transaction, with the response, the time
 * the form was filled, its submitter and the catalogue entry, under client ids derived from the
 * response's; a bad answer is refused and makes nothing; a replay makes nothing twice; a room's
 * response records none.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formProblemClientId, newClientId, responseClientId } from '../../common/client-ids';
import { formResponseMessages as m } from '../../common/messages/form-responses';
import { FIELD_TYPES } from '../../common/messages/forms';
import { catalogueProblemNamed } from '../../common/plant-problems';
import { createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let roomId: number;
let roomName: string;
/** Scouting: Pests (Problem), Diseases (Problem), Notes (Text). */
let form: { name: string; pests: number; diseases: number; notes: number };

const SPIDER_MITE = catalogueProblemNamed('Two-spotted spider mite')!;
const MILDEW = catalogueProblemNamed('Powdery mildew')!;
const BOTRYTIS = catalogueProblemNamed('Botrytis (grey mould, bud rot)')!;

const db = () => server.database.db;
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
const submit = (path: string, json: Record<string, unknown>, headers: Record<string, string> = {}) =>
  server.request<{ status: string; message: string; response_id: number; client_id: string; response_ids: number[]; client_ids: string[] }>('POST', path, { token: farm.regular.token, json: { submittedBy: farm.regular.id, ...json }, headers });
const answers = (pests: string | null, diseases: string | null = null, notes = 'weekly walk') => [
  { fieldID: form.pests, inputData: pests },
  { fieldID: form.diseases, inputData: diseases },
  { fieldID: form.notes, inputData: notes },
];

/** The problems recorded from the given responses, by response then in their order. */
const problemsOf = (responseIds: number[]) =>
  db().selectFrom('plant_problems').selectAll().where('form_response_id', 'in', responseIds.length ? responseIds : [0]).orderBy('form_response_id').orderBy('id').execute();

async function boxes(count: number) {
  return (await createGrid(server, farm.companyId, roomId, count, 1)).boxIds;
}

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  roomId = await createRoom(server, farm.companyId);
  roomName = (await db().selectFrom('rooms').select('name').where('id', '=', roomId).executeTakeFirstOrThrow()).name;
  const name = `Scouting ${randomUUID()}`;
  const saved = await server.request<{ field_ids: number[] }>('POST', '/save_form_template', {
    token: farm.admin.token,
    json: {
      templateName: name,
      companyID: farm.companyId,
      formCategory: 'Scouting',
      fields: [
        { fieldName: 'Pests', fieldType: 'Problem' },
        { fieldName: 'Diseases', fieldType: 'Problem' },
        { fieldName: 'Notes', fieldType: 'Text' },
      ],
    },
  });
  expect(saved.status).toBe(200);
  const [pests, diseases, notes] = saved.body.field_ids as [number, number, number];
  form = { name, pests, diseases, notes };
});
afterAll(() => server.close());

describe('the Problem field type', () => {
  it('is listed by get_field_types and kept by a template', async () => {
    expect(FIELD_TYPES).toContain('Problem');
    const types = await server.request<{ field_types: string[] }>('GET', '/get_field_types', { token: farm.regular.token });
    expect(types.body.field_types).toContain('Problem');
    const field = await db().selectFrom('form_fields').select(['field_name', 'field_type']).where('id', '=', form.pests).executeTakeFirstOrThrow();
    expect(field).toEqual({ field_name: 'Pests', field_type: 'Problem' });
  });
});

describe('submit_form with a Problem answer', () => {
  it('records each problem named on the box: the response, the filling time, the submitter, the catalogue entry, derived client ids, audited', async () => {
    const [boxId] = (await boxes(1)) as [number];
    const clientId = newClientId();
    const filled = hoursAgo(3);
    const sent = await submit('/submit_form', {
      GridBoxID: boxId,
      fieldResponses: answers('Two-spotted spider mite (3), Our own leaf curl (1)', 'Botrytis (grey mould, bud rot) (4)'),
      submittedAt: filled.toISOString(),
      client_id: clientId,
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ status: 'success', message: m.submitted, client_id: clientId });
    const responseId = sent.body.response_id;
    const rows = await problemsOf([responseId]);
    expect(
      rows.map((row) => ({
        client_id: row.client_id,
        grid_box_id: row.grid_box_id,
        room_id: row.room_id,
        sub_gridbox_id: row.sub_gridbox_id,
        problem_type: row.problem_type,
        problem_slug: row.problem_slug,
        severity: row.severity,
        source: row.source,
        user_id: row.user_id,
        status: row.status,
        observed_at: new Date(row.observed_at).toISOString(),
      })),
    ).toEqual(
      [
        ['Two-spotted spider mite', SPIDER_MITE.slug, 3],
        ['Our own leaf curl', null, 1],
        ['Botrytis (grey mould, bud rot)', BOTRYTIS.slug, 4],
      ].map(([problem_type, problem_slug, severity], index) => ({
        client_id: formProblemClientId(clientId, index),
        grid_box_id: boxId,
        room_id: roomId,
        sub_gridbox_id: null,
        problem_type,
        problem_slug,
        severity,
        source: 'form',
        user_id: farm.regular.id,
        status: 'unresolved',
        // When the form was filled, as the response's own time.
        observed_at: filled.toISOString(),
      })),
    );
    const response = await db().selectFrom('form_responses').select('submitted_at').where('id', '=', responseId).executeTakeFirstOrThrow();
    expect(new Date(response.submitted_at).toISOString()).toBe(filled.toISOString());
    // The answer stays as text, as it reads in exports and the response screens.
    const read = await server.request<{ fieldResponses: Array<{ FieldName: string; FieldType: string; InputData: string | null }> }>('GET', '/get_field_responses', { token: farm.regular.token, query: { response_id: responseId } });
    expect(read.body.fieldResponses.slice(0, 2)).toEqual([
      expect.objectContaining({ FieldName: 'Pests', FieldType: 'Problem', InputData: 'Two-spotted spider mite (3), Our own leaf curl (1)' }),
      expect.objectContaining({ FieldName: 'Diseases', FieldType: 'Problem', InputData: 'Botrytis (grey mould, bud rot) (4)' }),
    ]);
    // The box's readers show them, and each is audited with the response that named it.
    const open = await server.request<{ problems: Array<{ problem_type: string; form_response_id: number }> }>('GET', '/get_unresolved_problems_for_gridbox', { token: farm.regular.token, query: { gridbox_id: boxId } });
    expect(open.body.problems.map((problem) => [problem.problem_type, problem.form_response_id])).toEqual(rows.map((row) => [row.problem_type, responseId]));
    const events = await db().selectFrom('audit_events').select(['event_title', 'grid_box_id', 'room_id', 'response_id']).where('company_id', '=', farm.companyId).where('event_title', 'like', 'Recorded %').where('grid_box_id', '=', boxId).orderBy('id').execute();
    expect(events).toEqual([
      { event_title: `Recorded Two-spotted spider mite (severity 3) on box 1,1 from form ${form.name}`, grid_box_id: boxId, room_id: roomId, response_id: responseId },
      { event_title: `Recorded Our own leaf curl (severity 1) on box 1,1 from form ${form.name}`, grid_box_id: boxId, room_id: roomId, response_id: responseId },
      { event_title: `Recorded Botrytis (grey mould, bud rot) (severity 4) on box 1,1 from form ${form.name}`, grid_box_id: boxId, room_id: roomId, response_id: responseId },
    ]);
  });

  it('without a client id (a desk calling the spec’s call), names the problems from the response’s own new one', async () => {
    const [boxId] = (await boxes(1)) as [number];
    const sent = await submit('/submit_form', { GridBoxID: boxId, fieldResponses: answers('Powdery mildew (2)') });
    expect(sent.status).toBe(200);
    const rows = await problemsOf([sent.body.response_id]);
    expect(rows.map((row) => [row.client_id, row.problem_slug])).toEqual([[formProblemClientId(sent.body.client_id, 0), MILDEW.slug]]);
  });

  it('records nothing for blank Problem answers', async () => {
    const [boxId] = (await boxes(1)) as [number];
    const sent = await submit('/submit_form', { GridBoxID: boxId, fieldResponses: answers(null, '  ') });
    expect(sent.status).toBe(200);
    expect(await problemsOf([sent.body.response_id])).toEqual([]);
  });

  it('refuses an answer not in the format with its message, and makes nothing', async () => {
    const [boxId] = (await boxes(1)) as [number];
    const countOf = async () => ({
      responses: (await db().selectFrom('form_responses').select('id').where('grid_box_id', '=', boxId).execute()).length,
      problems: (await db().selectFrom('plant_problems').select('id').where('grid_box_id', '=', boxId).execute()).length,
    });
    const refused = async (pests: string, diseases: string | null, message: string) => {
      const sent = await submit('/submit_form', { GridBoxID: boxId, fieldResponses: answers(pests, diseases) });
      expect([sent.status, sent.body]).toEqual([400, { status: 'error', message }]);
    };
    await refused('Thrips', null, m.problemAnswerInvalid('Pests'));
    expect(m.problemAnswerInvalid('Pests')).toBe('Field Pests: name each problem with its severity from 1 to 5, as "Powdery mildew (2)".');
    await refused('Thrips (6)', null, m.problemAnswerInvalid('Pests'));
    // The first problems are fine; the second field's answer refuses the whole submission.
    await refused('Thrips (2)', 'mildew everywhere', m.problemAnswerInvalid('Diseases'));
    await refused('Thrips (2), thrips (3)', null, m.problemNamedTwice('Pests', 'thrips'));
    expect(await countOf()).toEqual({ responses: 0, problems: 0 });
  });

  it('makes nothing twice for a repeated Idempotency-Key', async () => {
    const [boxId] = (await boxes(1)) as [number];
    const headers = { 'Idempotency-Key': randomUUID() };
    const json = { GridBoxID: boxId, fieldResponses: answers('Two-spotted spider mite (2), Powdery mildew (1)'), client_id: newClientId() };
    const first = await submit('/submit_form', json, headers);
    const second = await submit('/submit_form', json, headers);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const rows = await db().selectFrom('plant_problems').select(['problem_type', 'form_response_id']).where('grid_box_id', '=', boxId).orderBy('id').execute();
    expect(rows).toEqual([
      { problem_type: 'Two-spotted spider mite', form_response_id: first.body.response_id },
      { problem_type: 'Powdery mildew', form_response_id: first.body.response_id },
    ]);
  });
});

describe('several boxes', () => {
  it('submit_form_boxes records the problems on each box, each under its own response, named from that response’s client id', async () => {
    const boxIds = await boxes(3);
    const clientId = newClientId();
    const sent = await submit('/submit_form_boxes', { GridBoxIDs: boxIds.map(String), fieldResponses: answers('Powdery mildew (2)', 'Two-spotted spider mite (5)'), client_id: clientId });
    expect(sent.status).toBe(200);
    expect(sent.body.client_ids).toEqual([0, 1, 2].map((index) => responseClientId(clientId, index)));
    const rows = await problemsOf(sent.body.response_ids);
    expect(rows.map((row) => [row.form_response_id, row.grid_box_id, row.problem_type, row.severity, row.client_id])).toEqual(
      boxIds.flatMap((boxId, index) => [
        [sent.body.response_ids[index], boxId, 'Powdery mildew', 2, formProblemClientId(responseClientId(clientId, index), 0)],
        [sent.body.response_ids[index], boxId, 'Two-spotted spider mite', 5, formProblemClientId(responseClientId(clientId, index), 1)],
      ]),
    );
  });

  it('submit_form_multiselect records them on each box picked in the room', async () => {
    const boxIds = await boxes(2);
    const sent = await submit('/submit_form_multiselect', { roomID: roomId, GridBoxIDs: boxIds.map(String), fieldResponses: answers('Aphids (4)'), client_id: newClientId() });
    expect(sent.status).toBe(200);
    const rows = await problemsOf(sent.body.response_ids);
    expect(rows.map((row) => [row.grid_box_id, row.problem_type, row.severity, row.source])).toEqual(boxIds.map((boxId) => [boxId, 'Aphids', 4, 'form']));
    // One event for the multi-select submission, and one per problem recorded.
    const events = await db().selectFrom('audit_events').select('event_title').where('company_id', '=', farm.companyId).where('grid_box_id', 'in', boxIds).orderBy('id').execute();
    expect(events.map((event) => event.event_title)).toEqual(['Recorded Aphids (severity 4) on box 1,1 from form ' + form.name, 'Recorded Aphids (severity 4) on box 2,1 from form ' + form.name]);
    const roomEvents = await db().selectFrom('audit_events').select('event_title').where('response_id', '=', sent.body.response_ids[0]!).where('grid_box_id', 'is', null).execute();
    expect(roomEvents).toEqual([{ event_title: `Submitted MultiSelect Template in room ${roomName}` }]);
  });
});

describe('submit_form_room', () => {
  it('records no plant problem (a room answer is on no box), but still refuses an answer not in the format', async () => {
    const sent = await submit('/submit_form_room', { roomID: roomId, fieldResponses: answers('Western flower thrips (3)') });
    expect(sent.status).toBe(200);
    expect(await problemsOf([sent.body.response_id])).toEqual([]);
    const answer = await db().selectFrom('form_field_responses').select('input_data').where('response_id', '=', sent.body.response_id).where('field_id', '=', form.pests).executeTakeFirstOrThrow();
    expect(answer.input_data).toBe('Western flower thrips (3)');
    const refused = await submit('/submit_form_room', { roomID: roomId, fieldResponses: answers('thrips, lots') });
    expect([refused.status, refused.body.message]).toEqual([400, m.problemAnswerInvalid('Pests')]);
  });
});
