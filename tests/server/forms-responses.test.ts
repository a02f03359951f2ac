import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formResponseMessages as m } from '../../common/messages/form-responses';
import { fileMessages } from '../../common/messages/files';
import { httpMessages } from '../../common/messages/http';
import { createBatch, createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let roomId: number;
let boxIds: number[];
let otherBoxId: number;
let otherRoomId: number;
let scouting: { id: number; name: string; fields: number[] };
let trap: { id: number; name: string; fields: number[] };

const request = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });
const error = (message: string) => ({ status: 'error', message });

async function template(tenant: Tenant, formCategory: string) {
  const name = `${formCategory} ${randomUUID()}`;
  const response = await request('POST', '/save_form_template', tenant.admin.token, {
    json: {
      templateName: name,
      companyID: tenant.companyId,
      formCategory,
      fields: [
        { fieldName: 'Pest pressure', fieldType: 'Radio', fieldOptions: ['Low', 'High'], isRequired: 1 },
        { fieldName: 'Notes', fieldType: 'Textarea', fieldOptions: [], isRequired: 0 },
      ],
    },
  });
  expect(response.status).toBe(200);
  const body = response.body as { template_id: number; template: { fields: Array<{ FieldID: number }> } };
  return { id: body.template_id, name, fields: body.template.fields.map((field) => field.FieldID) };
}

const auditTitles = (companyId: number, like: string) =>
  server.database.db.selectFrom('audit_events').select(['event_title', 'grid_box_id', 'room_id', 'response_id']).where('company_id', '=', companyId).where('event_title', 'like', like).execute();

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  roomId = await createRoom(server, farm.companyId);
  boxIds = (await createGrid(server, farm.companyId, roomId)).boxIds;
  otherRoomId = await createRoom(server, other.companyId);
  otherBoxId = (await createGrid(server, other.companyId, otherRoomId)).boxIds[0]!;
  scouting = await template(farm, 'Scouting');
  trap = await template(farm, 'Sticky Trap');
});
afterAll(() => server.close());

const answers = (form = scouting) => [
  { fieldID: form.fields[0], inputData: 'High' },
  { fieldID: form.fields[1], inputData: 'thrips on lower leaves' },
];

describe('submit_form', () => {
  it('records a response for a grid box, its answers and an audit event', async () => {
    const boxId = boxIds[0]!;
    const response = await request('POST', '/submit_form', farm.regular.token, { json: { GridBoxID: boxId, submittedBy: farm.regular.id, fieldResponses: answers() } });
    expect(response.status).toBe(200);
    const { response_id } = response.body as { response_id: number };
    expect(response.body).toMatchObject({ status: 'success', message: m.submitted });
    const read = await request('GET', `/get_field_responses?response_id=${response_id}`, farm.admin.token);
    expect(read.body).toMatchObject({
      status: 'success',
      fieldResponses: [
        { FieldID: scouting.fields[0], FieldName: 'Pest pressure', InputData: 'High' },
        { FieldID: scouting.fields[1], FieldName: 'Notes', InputData: 'thrips on lower leaves' },
      ],
    });
    const events = await auditTitles(farm.companyId, `Submitted ${scouting.name} for grid box ${boxId}`);
    expect(events).toEqual([{ event_title: `Submitted ${scouting.name} for grid box ${boxId}`, grid_box_id: boxId, room_id: roomId, response_id }]);
    const byBox = await request('GET', `/get_field_responses_by_gridbox?GridBoxID=${boxId}`, farm.regular.token);
    expect(byBox.body).toMatchObject({ status: 'success', responses: [{ ResponseID: response_id, TemplateID: scouting.id, GridBoxID: boxId, SubmittedBy: farm.regular.id }] });
  });

  it('answers each message', async () => {
    const submit = (json: object) => request('POST', '/submit_form', farm.regular.token, { json });
    expect((await submit({ GridBoxID: boxIds[0], fieldResponses: answers() })).body).toEqual(error(m.submitNeeds));
    expect((await submit({ GridBoxID: boxIds[0], submittedBy: farm.regular.id })).body).toEqual(error(m.submitNeeds));
    expect((await submit({ GridBoxID: boxIds[0], submittedBy: farm.regular.id, fieldResponses: [] })).body).toEqual(error(m.submitNeeds));
    expect((await submit({ submittedBy: farm.regular.id, fieldResponses: answers() })).body).toEqual(error(m.gridBoxRequired));
    const missingRequired = await submit({ GridBoxID: boxIds[0], submittedBy: farm.regular.id, fieldResponses: [{ fieldID: scouting.fields[0], inputData: ' ' }, answers()[1]] });
    expect(missingRequired.status).toBe(400);
    expect(missingRequired.body).toEqual(error(m.fieldRequired('Pest pressure')));
    const mixed = await submit({ GridBoxID: boxIds[0], submittedBy: farm.regular.id, fieldResponses: [answers()[0], answers(trap)[1]] });
    expect(mixed.body).toEqual(error(m.oneTemplate));
    // A field that never was is not found (the guard, like any record named: tests/server/tenancy.test.ts).
    const unknown = await submit({ GridBoxID: boxIds[0], submittedBy: farm.regular.id, fieldResponses: [{ fieldID: 99_999_999, inputData: 'x' }] });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(error(httpMessages.recordNotFound('answered_form_field 99999999')));
  });

  it('refuses another company, and submitting as someone else', async () => {
    const submit = (json: object) => request('POST', '/submit_form', farm.regular.token, { json });
    expect((await submit({ GridBoxID: otherBoxId, submittedBy: farm.regular.id, fieldResponses: answers() })).status).toBe(403);
    expect((await submit({ GridBoxID: boxIds[0], submittedBy: farm.admin.id, fieldResponses: answers() })).status).toBe(403);
    expect((await submit({ GridBoxID: boxIds[0], submittedBy: other.regular.id, fieldResponses: answers() })).status).toBe(403);
    // Fields of another company's template are another company's records.
    const otherForm = await template(other, 'Scouting');
    const theirs = await submit({ GridBoxID: boxIds[0], submittedBy: farm.regular.id, fieldResponses: answers(otherForm) });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toEqual(error(httpMessages.otherCompany));
  });

  it('makes one response for a repeated Idempotency-Key', async () => {
    const boxId = boxIds[1]!;
    const headers = { 'Idempotency-Key': randomUUID() };
    const json = { GridBoxID: boxId, submittedBy: farm.regular.id, fieldResponses: answers() };
    const first = await request('POST', '/submit_form', farm.regular.token, { json, headers });
    const second = await request('POST', '/submit_form', farm.regular.token, { json, headers });
    expect(second.body).toEqual(first.body);
    const rows = await server.database.db.selectFrom('form_responses').select('id').where('grid_box_id', '=', boxId).execute();
    expect(rows).toHaveLength(1);
  });
});

describe('required fields hidden until another is answered', () => {
  it('are required only while they show', async () => {
    const saved = await request('POST', '/save_form_template', farm.admin.token, {
      json: {
        templateName: `Mites ${randomUUID()}`,
        companyID: farm.companyId,
        fields: [
          { fieldName: 'Mites seen', fieldType: 'Radio', fieldOptions: ['Yes', 'No'], isRequired: 1 },
          { fieldName: 'Mite count', fieldType: 'Number', fieldOptions: [], isRequired: 1 },
        ],
      },
    });
    const [seen, count] = (saved.body as { field_ids: number[] }).field_ids;
    const rule = { form_field_hidden_FieldID: count, form_field_linked_FieldID: seen, form_field_linked_input: 'Yes' };
    expect((await request('POST', '/add_hide_field_until_link', farm.admin.token, { json: rule })).status).toBe(200);
    const submit = (inputData: string) =>
      request('POST', '/submit_form', farm.regular.token, { json: { GridBoxID: boxIds[2], submittedBy: farm.regular.id, fieldResponses: [{ fieldID: seen, inputData }] } });
    expect((await submit('No')).status).toBe(200);
    expect((await submit('Yes')).body).toEqual(error(m.fieldRequired('Mite count')));
  });
});

describe('a form filled offline and sent later', () => {
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  const rowOf = (responseId: number) => server.database.db.selectFrom('form_responses').select(['submitted_at', 'batch_id', 'template_id']).where('id', '=', responseId).executeTakeFirstOrThrow();
  const submitAt = (gridBoxId: number, submittedAt: unknown, fieldResponses = answers()) =>
    request('POST', '/submit_form', farm.regular.token, { json: { GridBoxID: gridBoxId, submittedBy: farm.regular.id, fieldResponses, submittedAt } });

  it('keeps the time of filling (never ahead of the server), and files it under the batch the box held then', async () => {
    const grid = await createGrid(server, farm.companyId, roomId);
    const boxId = grid.boxIds[0]!;
    const batchId = await createBatch(server, farm.companyId);
    await server.database.db.insertInto('batch_grid_boxes').values({ batch_id: batchId, company_id: farm.companyId, grid_box_id: boxId }).execute();

    const filled = hoursAgo(30);
    const before = await submitAt(boxId, filled.toISOString());
    expect(before.status).toBe(200);
    const early = await rowOf((before.body as { response_id: number }).response_id);
    expect(new Date(early.submitted_at).toISOString()).toBe(filled.toISOString());
    expect(early.batch_id).toBeNull();

    const ahead = await submitAt(boxId, new Date(Date.now() + 86_400_000).toISOString());
    const late = await rowOf((ahead.body as { response_id: number }).response_id);
    expect(new Date(late.submitted_at).getTime()).toBeLessThanOrEqual(Date.now());
    expect(late.batch_id).toBe(batchId);

    expect((await submitAt(boxId, 'yesterday')).body).toEqual(error(m.submittedAtInvalid));
  });

  it('is kept when its form was deleted or given a new required field before it arrived', async () => {
    const form = await template(farm, 'Scouting');
    const filled = hoursAgo(2);
    expect((await request('DELETE', '/delete_template', farm.admin.token, { query: { template_id: form.id } })).status).toBe(200);
    const deleted = await submitAt(boxIds[3]!, filled.toISOString(), answers(form));
    expect(deleted.status).toBe(200);
    expect((await rowOf((deleted.body as { response_id: number }).response_id)).template_id).toBe(form.id);

    const changed = await template(farm, 'Scouting');
    // A field made required after the filling is not held against it; one required before is.
    const updated = await request('POST', '/update_form_template', farm.admin.token, {
      json: { templateID: changed.id, newFields: [{ fieldName: 'Added later', fieldType: 'Text', isRequired: 1 }], updatedFields: [] },
    });
    expect(updated.status).toBe(200);
    expect((await submitAt(boxIds[3]!, hoursAgo(1).toISOString(), answers(changed))).status).toBe(200);
    expect((await submitAt(boxIds[3]!, undefined, [answers(changed)[1]!])).body).toEqual(error(m.fieldRequired('Pest pressure')));
    expect((await submitAt(boxIds[3]!, undefined, answers(changed))).body).toEqual(error(m.fieldRequired('Added later')));
  });
});

describe('submit_form_room', () => {
  it('records a response for a room and an audit event', async () => {
    const response = await request('POST', '/submit_form_room', farm.regular.token, { json: { roomID: roomId, submittedBy: farm.regular.id, fieldResponses: answers() } });
    expect(response.status).toBe(200);
    const { response_id } = response.body as { response_id: number };
    const row = await server.database.db.selectFrom('form_responses').selectAll().where('id', '=', response_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ room_id: roomId, grid_box_id: null, template_id: scouting.id, submitted_by: farm.regular.id });
    const { name: roomName } = await server.database.db.selectFrom('rooms').select('name').where('id', '=', roomId).executeTakeFirstOrThrow();
    expect(await auditTitles(farm.companyId, `Submitted ${scouting.name} in room ${roomName}`)).toEqual([
      { event_title: `Submitted ${scouting.name} in room ${roomName}`, grid_box_id: null, room_id: roomId, response_id },
    ]);
  });

  it('answers its message and refuses another company', async () => {
    const submit = (json: object) => request('POST', '/submit_form_room', farm.regular.token, { json });
    expect((await submit({ submittedBy: farm.regular.id, fieldResponses: answers() })).body).toEqual(error(m.roomSubmitNeeds));
    expect((await submit({ roomID: roomId, fieldResponses: answers() })).body).toEqual(error(m.roomSubmitNeeds));
    expect((await submit({ roomID: roomId, submittedBy: farm.regular.id })).body).toEqual(error(m.roomSubmitNeeds));
    expect((await submit({ roomID: otherRoomId, submittedBy: farm.regular.id, fieldResponses: answers() })).status).toBe(403);
  });
});

describe('reading responses', () => {
  it('check_for_stickytrap says whether a box has a sticky-trap response', async () => {
    const boxId = boxIds[2]!;
    expect((await request('GET', `/check_for_stickytrap?GridBoxID=${boxId}`, farm.regular.token)).body).toEqual({ status: 'success', has_submission: false });
    await request('POST', '/submit_form', farm.regular.token, { json: { GridBoxID: boxId, submittedBy: farm.regular.id, fieldResponses: answers() } });
    expect((await request('GET', `/check_for_stickytrap?GridBoxID=${boxId}`, farm.regular.token)).body).toEqual({ status: 'success', has_submission: false });
    await request('POST', '/submit_form', farm.regular.token, { json: { GridBoxID: boxId, submittedBy: farm.regular.id, fieldResponses: answers(trap) } });
    expect((await request('GET', `/check_for_stickytrap?GridBoxID=${boxId}`, farm.regular.token)).body).toEqual({ status: 'success', has_submission: true });
  });

  it('refuses another company and answers 404 for a missing response', async () => {
    const submitted = await request('POST', '/submit_form', farm.regular.token, { json: { GridBoxID: boxIds[3], submittedBy: farm.regular.id, fieldResponses: answers() } });
    const { response_id } = submitted.body as { response_id: number };
    expect((await request('GET', `/get_field_responses?response_id=${response_id}`, other.regular.token)).status).toBe(403);
    expect((await request('GET', `/get_field_responses?response_id=99999999`, farm.regular.token)).status).toBe(404);
    expect((await request('GET', `/get_field_responses_by_gridbox?GridBoxID=${boxIds[3]}`, other.regular.token)).status).toBe(403);
    expect((await request('GET', `/check_for_stickytrap?GridBoxID=${boxIds[3]}`, other.regular.token)).status).toBe(403);
  });
});

describe('submit_form_boxes and submit_form_multiselect', () => {
  it('records one response per box (ids as strings), each audited under its box', async () => {
    const grid = await createGrid(server, farm.companyId, roomId);
    const [a, b] = [grid.boxIds[0]!, grid.boxIds[1]!];
    const response = await request('POST', '/submit_form_boxes', farm.regular.token, { json: { GridBoxIDs: [String(a), String(b)], submittedBy: farm.regular.id, fieldResponses: answers() } });
    expect(response.status).toBe(200);
    const { response_ids } = response.body as { response_ids: number[] };
    expect(response_ids).toHaveLength(2);
    const rows = await server.database.db.selectFrom('form_responses').select(['grid_box_id']).where('id', 'in', response_ids).orderBy('id').execute();
    expect(rows).toEqual([{ grid_box_id: a }, { grid_box_id: b }]);
    expect(await auditTitles(farm.companyId, `Submitted ${scouting.name} for grid box ${b}`)).toHaveLength(1);
  });

  it('answers its messages and refuses another company', async () => {
    const submit = (json: object) => request('POST', '/submit_form_boxes', farm.regular.token, { json });
    expect((await submit({ GridBoxIDs: `${boxIds[0]}`, fieldResponses: answers() })).body).toEqual(error(m.submitNeeds));
    expect((await submit({ GridBoxIDs: `${boxIds[0]}`, submittedBy: farm.regular.id })).body).toEqual(error(m.submitNeeds));
    expect((await submit({ submittedBy: farm.regular.id, fieldResponses: answers() })).body).toEqual(error(m.gridBoxesRequired));
    expect((await submit({ GridBoxIDs: `${boxIds[0]},${otherBoxId}`, submittedBy: farm.regular.id, fieldResponses: answers() })).status).toBe(403);
  });

  it('multi-select records one response per box and one room event with the spec title', async () => {
    const room = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, room);
    const name = (await server.database.db.selectFrom('rooms').select('name').where('id', '=', room).executeTakeFirstOrThrow()).name;
    const json = { roomID: room, GridBoxIDs: grid.boxIds.map(String), submittedBy: farm.regular.id, fieldResponses: answers() };
    const response = await request('POST', '/submit_form_multiselect', farm.regular.token, { json });
    expect(response.status).toBe(200);
    const { response_ids } = response.body as { response_ids: number[] };
    expect(response_ids).toHaveLength(grid.boxIds.length);
    expect(await auditTitles(farm.companyId, `Submitted MultiSelect Template in room ${name}`)).toEqual([
      { event_title: `Submitted MultiSelect Template in room ${name}`, grid_box_id: null, room_id: room, response_id: response_ids[0] },
    ]);
    const submit = (body: object) => request('POST', '/submit_form_multiselect', farm.regular.token, { json: body });
    expect((await submit({ ...json, roomID: undefined })).body).toEqual(error(m.multiSelectNeeds));
    expect((await submit({ ...json, GridBoxIDs: [] })).body).toEqual(error(m.multiSelectNeeds));
    expect((await submit({ ...json, GridBoxIDs: [boxIds[0]] })).body).toEqual(error(m.boxNotInRoom(boxIds[0]!, name)));
    expect((await submit({ ...json, roomID: otherRoomId })).status).toBe(403);
  });
});

describe('reading responses by dates, grid and batch', () => {
  const today = new Date().toISOString().slice(0, 10);
  let gridId: number;
  let boxId: number;
  let batchId: number;

  beforeAll(async () => {
    const grid = await createGrid(server, farm.companyId, roomId);
    gridId = grid.id;
    boxId = grid.boxIds[0]!;
    batchId = await createBatch(server, farm.companyId);
    await server.database.db.insertInto('batch_grid_boxes').values({ batch_id: batchId, company_id: farm.companyId, grid_box_id: boxId }).execute();
    const treatment = await template(farm, 'Treatment');
    for (const form of [scouting, trap, treatment]) {
      const response = await request('POST', '/submit_form', farm.regular.token, { json: { GridBoxID: boxId, submittedBy: farm.regular.id, fieldResponses: answers(form) } });
      expect(response.status).toBe(200);
    }
  });

  const categories = (body: unknown, key = 'responses') => (body as Record<string, Array<{ FormCategory: string }>>)[key]!.map((response) => response.FormCategory).sort();

  it('splits a box’s responses of the days into forms and sticky traps', async () => {
    const forms = await request('GET', `/get_field_responses_by_gridbox_date/forms?GridBoxID=${boxId}&start_date=${today}&end_date=${today}`, farm.regular.token);
    expect(categories(forms.body)).toEqual(['Scouting', 'Treatment']);
    const traps = await request('GET', `/get_field_responses_by_gridbox_date/stickytraps?GridBoxID=${boxId}&start_date=${today}&end_date=${today}`, farm.regular.token);
    expect(categories(traps.body)).toEqual(['Sticky Trap']);
    const before = await request('GET', `/get_field_responses_by_gridbox_date/forms?GridBoxID=${boxId}&start_date=2020-01-01&end_date=2020-01-02`, farm.regular.token);
    expect(before.body).toEqual({ status: 'success', responses: [] });
  });

  it('answers a grid’s responses, treatments apart, and its sticky traps', async () => {
    const grid = await request('GET', `/get_responses_for_grid2?GridID=${gridId}&start_date=${today}&end_date=${today}`, farm.regular.token);
    expect(categories(grid.body, 'all_responses')).toEqual(['Scouting', 'Sticky Trap', 'Treatment']);
    expect(categories(grid.body, 'treatment_responses')).toEqual(['Treatment']);
    const traps = await request('GET', `/get_sticky_trap_responses_grid?GridID=${gridId}&start_date=${today}&end_date=${today}`, farm.regular.token);
    expect(categories(traps.body)).toEqual(['Sticky Trap']);
  });

  it('answers a batch’s responses', async () => {
    const batch = await request('GET', `/get_batch_form_responses?batch_id=${batchId}`, farm.regular.token);
    expect(batch.body).toMatchObject({ status: 'success' });
    expect(categories(batch.body)).toEqual(['Scouting', 'Sticky Trap', 'Treatment']);
  });

  it('answers the date messages and refuses another company', async () => {
    const get = (path: string, token = farm.regular.token) => request('GET', path, token);
    expect((await get(`/get_responses_for_grid2?GridID=${gridId}&start_date=2026-02-30&end_date=${today}`)).body).toEqual(error(m.datesInvalid));
    expect((await get(`/get_sticky_trap_responses_grid?GridID=${gridId}&end_date=${today}`)).body).toEqual(error(m.datesInvalid));
    expect((await get(`/get_field_responses_by_gridbox_date/forms?GridBoxID=${boxId}&start_date=2026-03-02&end_date=2026-03-01`)).body).toEqual(error(m.datesReversed));
    expect((await get(`/get_responses_for_grid2?GridID=${gridId}&start_date=${today}&end_date=${today}`, other.regular.token)).status).toBe(403);
    expect((await get(`/get_sticky_trap_responses_grid?GridID=${gridId}&start_date=${today}&end_date=${today}`, other.regular.token)).status).toBe(403);
    expect((await get(`/get_field_responses_by_gridbox_date/stickytraps?GridBoxID=${boxId}&start_date=${today}&end_date=${today}`, other.regular.token)).status).toBe(403);
    expect((await get(`/get_batch_form_responses?batch_id=${batchId}`, other.regular.token)).status).toBe(403);
  });
});

describe('the form_responses sync collection', () => {
  type ResponseDocument = PulledDocument & { ResponseID?: number; fieldResponses?: unknown[]; images?: unknown[] };
  const pull = (token: string, done: (documents: Map<string, ResponseDocument>) => boolean) => pullUntil<ResponseDocument>(server, token, 'form_responses', done);

  it('pulls a response with its answers and photo to the company only, and again when a photo is added', async () => {
    const submitted = await request('POST', '/submit_form', farm.regular.token, { json: { GridBoxID: boxIds[1], submittedBy: farm.regular.id, fieldResponses: answers() } });
    const id = String((submitted.body as { response_id: number }).response_id);
    const first = (await pull(farm.regular.token, (documents) => documents.has(id))).get(id);
    expect(first).toMatchObject({ _deleted: false, ResponseID: Number(id), GridBoxID: boxIds[1], TemplateID: scouting.id, images: [] });
    expect(first?.fieldResponses).toHaveLength(2);
    expect((await pull(other.regular.token, () => true)).has(id)).toBe(false);

    const png = new Blob([Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9])], { type: 'image/png' });
    await request('POST', '/submit_form_image', farm.regular.token, { form: { response_id: Number(id), image: png } });
    const withPhoto = (documents: Map<string, ResponseDocument>) => documents.get(id)?.images?.length === 1;
    expect(withPhoto(await pull(farm.regular.token, withPhoto))).toBe(true);
  });
});

describe('submit_form_image', () => {
  const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
  const png = () => new Blob([PNG], { type: 'image/png' });

  it('stores a photo for a response field, audited, and answers each message', async () => {
    const submitted = await request('POST', '/submit_form', farm.regular.token, { json: { GridBoxID: boxIds[0], submittedBy: farm.regular.id, fieldResponses: answers() } });
    const { response_id } = submitted.body as { response_id: number };
    const response = await request('POST', '/submit_form_image', farm.regular.token, { form: { response_id, field_id: scouting.fields[1]!, image: png() } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', response_id, message: m.imageSaved });
    const images = await server.database.db.selectFrom('form_response_images').select(['field_id']).where('response_id', '=', response_id).execute();
    expect(images).toEqual([{ field_id: scouting.fields[1] }]);
    const read = await request('GET', `/get_field_responses_by_gridbox?GridBoxID=${boxIds[0]}`, farm.regular.token);
    const withPhoto = (read.body as { responses: Array<{ ResponseID: number; images: unknown[] }> }).responses.find((one) => one.ResponseID === response_id);
    expect(withPhoto?.images).toEqual([{ ImageID: expect.any(Number), ResponseID: response_id, FieldID: scouting.fields[1], ImagePath: (response.body as { image: string }).image }]);
    expect(await auditTitles(farm.companyId, `Added a photo to form response ${response_id}`)).toEqual([
      { event_title: `Added a photo to form response ${response_id}`, grid_box_id: boxIds[0], room_id: roomId, response_id },
    ]);

    const send = (form: Record<string, string | number | Blob>, token = farm.regular.token) => request('POST', '/submit_form_image', token, { form });
    expect((await send({ image: png() })).body).toEqual(error(m.imageResponseRequired));
    expect((await send({ response_id })).body).toEqual(error(fileMessages.imageRequired));
    expect((await send({ response_id, image: new Blob([Uint8Array.from([1, 2, 3, 4])]) })).status).toBe(415);
    expect((await send({ response_id, field_id: trap.fields[0]!, image: png() })).body).toEqual(error(m.imageFieldNotInForm(trap.fields[0]!)));
    expect((await send({ response_id, image: png() }, other.regular.token)).status).toBe(403);
  });
});
