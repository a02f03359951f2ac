/**
 * Tenancy everywhere (issue 12 "Ownership everywhere"): every record a request names goes through the
 * one ownership mechanism (server/http/guards.ts, ownership.ts). Three parts:
 *
 * - Coverage: every field of every route's request schemas (nested ones too) whose name names a
 *   record (ends in `id` or `ids`, any case) is known to the guard for that route, or listed below with
 *   the reason it needs no check. A field added without either fails here.
 * - Each kind of owned record: one route naming another company's record of that kind answers 403,
 *   and one naming a record that does not exist answers 404, in the envelope.
 * - The gaps a probe of every endpoint found: audit links to form responses, ids nested in bodies,
 *   and the sync read-back.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formResponseMessages } from '../../common/messages/form-responses';
import { formMessages } from '../../common/messages/forms';
import { httpMessages } from '../../common/messages/http';
import type { PushAnswer, SyncDocument } from '../../common/schemas/sync';
import type { CatalogRoute } from '../../server/app';
import { OWNED_KINDS, OWNED_PARAMETERS, type OwnedKindName } from '../../server/http/ownership';
import { clientIdOf, createBatch, createGrid, createRoom, createScan, createSuperAdmin, createTenant, type SignedInUser, type Tenant } from '../support/factories';
import { tinyColourClassifier } from '../support/onnx-model';
import { type ApiResponse, type RequestOptions, startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let operator: SignedInUser;

/** An id no record has (ids are PostgreSQL integers; the test databases are small). */
const MISSING = 2_000_000_000;

const forbidden = { status: 'error', message: httpMessages.otherCompany };
const notFound = (kind: OwnedKindName, id: number | string) => ({ status: 'error', message: httpMessages.recordNotFound(`${kind} ${id}`) });
const error = (message: string) => ({ status: 'error', message });

const call = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  operator = await createSuperAdmin(server);
});
afterAll(() => server?.close());

// ---------------------------------------------------------------------------------------------------
// Coverage: every record-naming field is known to the guard or exempted with its reason

/** A field's name names a record: it ends in id or ids, whatever the case (`room_id`, `GridBoxIDs`, `batchid`). */
const NAMES_A_RECORD = /ids?$/i;

/** Fields named like ids that name no record to check, wherever they stand, and why. */
const EXEMPT_NAMES: Record<string, string> = {
  // The uuid a tablet gives the record the call makes (a division's sub-gridboxes and a multi-box
  // submission's responses derive theirs from it): a new record's own name, not a reference to one.
  // One the company already uses answers 409 (client-ids.ts).
  client_id: 'the new record’s own client id',
};

/** Fields of one route (`<METHOD> <url> <part>.<path>`) named like ids that the guard does not read, and why. */
const EXEMPT_FIELDS: Record<string, string> = {
  // The plant problem catalogue is global content shipped with the app (common/plant-problems), not a company's records.
  'GET /api/plant_problems/filter_plant_problems querystring.symptom_group_id': 'a catalogue id',
  'GET /api/plant_problems/filter_plant_problems querystring.symptom_id': 'a catalogue id',
  'GET /api/plant_problems/filter_plant_problems querystring.color_symptom_id': 'a catalogue id',
  'POST /api/plant_problems/add_custom_solution body.problem_id': 'a catalogue id or slug',
  // A file is named by its uuid; the handler loads it and checks its company (guards.ts assertCompanyAccess).
  'GET /api/files/:id params.id': 'checked by the handler once the file is loaded',
  // Document ids whose kind depends on the collection (and a `<kind>:` prefix), as client ids or the
  // server's: the handler reads the rows and checks each one's company (assertCompanyAccess, 403).
  'GET /api/sync/documents querystring.ids': 'checked by the handler per document',
  // An outbox entry's id is its Idempotency-Key, not a record; each entry is guarded as its own request.
  'POST /api/sync/push body.entries[].id': 'an Idempotency-Key',
  // A sub-gridbox's plant label: text the grower sets, stored as it is.
  'PUT /api/update_sub_gridbox body.plant_id': 'a label, not a reference',
  // The plant's label, looked up within the caller's company only (subGridboxQueries.byPlant).
  'POST /api/move_plant body.plant_uid': 'a label, looked up in the caller’s company',
  // A form field's chart group number (spec §3): a plain number, no table holds reports by it.
  'POST /api/save_form_template body.fields[].report_id': 'a chart group number',
  'POST /api/update_form_template body.newFields[].report_id': 'a chart group number',
  'POST /api/update_form_template body.updatedFields[].report_id': 'a chart group number',
  // A command's action names its grid as the grower said it ("in Bench A"): text kept as said, not a reference.
  'POST /api/save_command body.parsed[].grid': 'a grid’s name as said',
  // A Stripe Checkout Session's id: the handler asks Stripe which company it was made for (403 for another's).
  'POST /api/billing/confirm body.session_id': 'checked by the handler against Stripe’s session',
};

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** Every property under a JSON schema, by path (`fieldResponses[].fieldID`), with its own name. */
function propertiesOf(schema: JsonSchema | undefined, path: string, found: Map<string, string>) {
  if (!schema || typeof schema !== 'object') return;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const at = path ? `${path}.${name}` : name;
    found.set(at, name);
    propertiesOf(property, at, found);
  }
  for (const item of [schema.items, schema.prefixItems].flat()) propertiesOf(item, `${path}[]`, found);
  if (typeof schema.additionalProperties === 'object') propertiesOf(schema.additionalProperties, `${path}.*`, found);
  for (const part of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) propertiesOf(part, path, found);
}

type Part = 'params' | 'querystring' | 'body';

/** The record-naming fields of a route's request: `<part>.<path>` and the field's own name. */
function recordFieldsOf(route: CatalogRoute): Array<{ field: string; part: Part; name: string }> {
  const schema = (route.schema ?? {}) as Partial<Record<Part, unknown>>;
  const fields = new Map<string, { part: Part; name: string }>();
  for (const part of ['params', 'querystring', 'body'] as const) {
    const zod = schema[part];
    if (zod === undefined) continue;
    expect(zod, `${route.method} ${route.url} ${part} is a zod schema`).toBeInstanceOf(z.ZodType);
    // Input and output both: a preprocessed or transformed field shows in one of them at least.
    for (const io of ['input', 'output'] as const) {
      const found = new Map<string, string>();
      propertiesOf(z.toJSONSchema(zod as z.ZodType, { io, unrepresentable: 'any' }) as JsonSchema, '', found);
      for (const [path, name] of found) fields.set(`${part}.${path}`, { part, name });
    }
  }
  // A path parameter its schema does not describe is still a field of the request.
  for (const [, name] of route.url.matchAll(/:(\w+)/g)) if (name && !fields.has(`params.${name}`)) fields.set(`params.${name}`, { part: 'params', name });
  return [...fields].filter(([, { name }]) => NAMES_A_RECORD.test(name)).map(([field, { part, name }]) => ({ field, part, name }));
}

describe('coverage: every field that names a record is known to the ownership mechanism', () => {
  it('for every route, or is exempted with its reason', () => {
    const catalog = server.app.routeCatalog.filter((route) => route.url.startsWith('/api/'));
    expect(catalog.length).toBeGreaterThan(100);
    const unknown: string[] = [];
    const exemptionsUsed = new Set<string>();
    for (const route of catalog) {
      const { owns, carriesRequests } = (route.config ?? {}) as { owns?: Record<string, OwnedKindName>; carriesRequests?: boolean };
      const names: Record<string, OwnedKindName> = { ...OWNED_PARAMETERS, ...owns };
      for (const { field, part, name } of recordFieldsOf(route)) {
        const key = `${route.method} ${route.url} ${field}`;
        // The guard reads these names at any depth of the path, query and body; not the body of a
        // route carrying other requests (the push), whose entries are guarded one by one.
        const guarded = Object.hasOwn(names, name) && !(carriesRequests && part === 'body');
        if (guarded) continue;
        if (Object.hasOwn(EXEMPT_NAMES, name)) {
          exemptionsUsed.add(name);
          continue;
        }
        if (Object.hasOwn(EXEMPT_FIELDS, key)) {
          exemptionsUsed.add(key);
          continue;
        }
        unknown.push(key);
      }
    }
    expect(unknown, 'fields naming records that the guard does not check: add them to ownership.ts (or the route’s config.owns), or exempt them here with the reason').toEqual([]);
    // An exemption no route needs any more goes.
    expect([...Object.keys(EXEMPT_NAMES), ...Object.keys(EXEMPT_FIELDS)].filter((key) => !exemptionsUsed.has(key))).toEqual([]);
  });

  it('knows the nested fields the issue names', () => {
    const fieldsOf = (method: string, url: string) => recordFieldsOf(server.app.routeCatalog.find((route) => route.method === method && route.url === url)!).map(({ field }) => field);
    for (const url of ['/api/submit_form', '/api/submit_form_boxes', '/api/submit_form_multiselect', '/api/submit_form_room']) {
      expect(fieldsOf('POST', url)).toContain('body.fieldResponses[].fieldID');
    }
    expect(fieldsOf('POST', '/api/update_form_template')).toContain('body.updatedFields[].FieldID');
    expect(Object.hasOwn(OWNED_PARAMETERS, 'fieldID') && Object.hasOwn(OWNED_PARAMETERS, 'FieldID')).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------
// Records of another company, of every kind

interface Form {
  id: number;
  fields: number[];
}

async function saveForm(tenant: Tenant, name = `Form ${randomUUID()}`): Promise<Form> {
  const response = await call('POST', '/save_form_template', tenant.admin.token, {
    json: {
      templateName: name,
      companyID: tenant.companyId,
      fields: [
        { fieldName: 'Pest pressure', fieldType: 'Radio', fieldOptions: ['Low', 'High'], isRequired: 0 },
        { fieldName: 'Notes', fieldType: 'Textarea', fieldOptions: [], isRequired: 0 },
      ],
    },
  });
  expect(response.status).toBe(200);
  const body = response.body as { template_id: number; field_ids: number[] };
  return { id: body.template_id, fields: body.field_ids };
}

/** The id a successful call answers under `key`. */
async function idFrom(response: Promise<ApiResponse>, key: string): Promise<number> {
  const { status, body } = await response;
  expect(status, JSON.stringify(body)).toBe(200);
  return body[key] as number;
}

type Records = Record<Exclude<OwnedKindName, 'company' | 'user'>, number> & { roomId: number; boxId: number };

/** One live record of every kind for the tenant (through the API where a record takes more than a row). */
async function recordsOf(tenant: Tenant): Promise<Records> {
  const admin = (method: string, path: string, options: Omit<RequestOptions, 'token'>) => call(method, path, tenant.admin.token, options);
  const room = await createRoom(server, tenant.companyId);
  const grid = await createGrid(server, tenant.companyId, room);
  const box = grid.boxIds[0] as number;
  const form = await saveForm(tenant);
  const [field] = form.fields as [number];
  expect((await admin('POST', '/create_sub_gridboxes', { query: { parent_gridbox_id: box, user_id: tenant.admin.id, nx: 1, ny: 1 } })).status).toBe(200);
  const sub = await server.database.db.selectFrom('sub_gridboxes').select('id').where('company_id', '=', tenant.companyId).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const scan = { id: await createScan(server, tenant.companyId, room) };
  const event = (await admin('POST', '/add_audit_event', { json: { EventTitle: 'Scouted' } })).body as { event: { EventID: number } };
  const report = await idFrom(
    call('POST', '/save_report', tenant.regular.token, { json: { company_id: tenant.companyId, report_name: `Mildew ${randomUUID()}`, chart_type: 'line', report_data: [], room_ids: [room] } }),
    'report_id',
  );
  const shared = await admin('POST', '/share_report', { json: { report_id: report } });
  expect(shared.status, JSON.stringify(shared.body)).toBe(200);
  const observed = await idFrom(
    call('POST', '/submit_form', tenant.regular.token, { json: { submittedBy: tenant.regular.id, GridBoxID: box, fieldResponses: [{ fieldID: field, inputData: 'High' }] } }),
    'response_id',
  );
  const task = await idFrom(call('POST', '/update_task_fields', tenant.regular.token, { json: { response_id: observed, title: 'Check thrips' } }), 'task_id');
  const camera = await idFrom(admin('POST', '/create_camera', { json: { company_id: tenant.companyId, name: `Phone ${randomUUID()}`, room_id: room, kind: 'device', interval_minutes: 10 } }), 'camera_id');
  const comment = await idFrom(call('POST', '/add_comment', tenant.regular.token, { json: { ResponseID: observed, UserID: tenant.regular.id, CommentText: 'Seen' } }), 'CommentID');
  return {
    roomId: room,
    boxId: box,
    room,
    grid: grid.id,
    grid_box: box,
    sub_gridbox: sub.id,
    batch: await createBatch(server, tenant.companyId),
    scan: scan.id,
    invitation: await idFrom(admin('POST', '/create_invitation', { json: { email: `${randomUUID()}@example.test`, role: 'Regular' } }), 'invitation_id'),
    audit_event: event.event.EventID,
    grid_template: await idFrom(
      admin('POST', '/create_grid_templates', { json: { template_name: `Layout ${randomUUID()}`, template_type: 'Grid', rows: 1, columns: 2, company_id: tenant.companyId, user_id: tenant.admin.id } }),
      'template_id',
    ),
    tray_template: await idFrom(admin('POST', '/create_tray_template', { json: { template_name: `Trays ${randomUUID()}`, company_id: tenant.companyId, user_id: tenant.admin.id, number_of_plants: 12 } }), 'template_id'),
    tray: await idFrom(admin('POST', '/create_tray', { json: { tray_name: `Tray ${randomUUID()}`, company_id: tenant.companyId, user_id: tenant.admin.id, number_of_plants: 24 } }), 'tray_id'),
    form_template: form.id,
    form_field: field,
    answered_form_field: field,
    form_response: await idFrom(
      call('POST', '/submit_form', tenant.regular.token, { json: { submittedBy: tenant.regular.id, GridBoxID: box, fieldResponses: [{ fieldID: field, inputData: 'Low' }] } }),
      'response_id',
    ),
    plant_problem: await idFrom(
      call('POST', '/create_gridbox_problem', tenant.regular.token, { json: { GridBoxID: box, problem_type: 'Powdery mildew', severity: 2, user_id: tenant.regular.id } }),
      'problem_id',
    ),
    spray_product: await idFrom(admin('POST', '/add_spray_product', { query: { company_id: tenant.companyId }, json: { ProductName: `Spray ${randomUUID()}` } }), 'product_id'),
    saved_report: report,
    report_share: (shared.body as { share: { share_id: number } }).share.share_id,
    task,
    response_comment: comment,
    notification: await idFrom(admin('POST', '/create_task_notification', { json: { user_id: tenant.admin.id, method: 'email', email_recipient: 'tasks@example.test' } }), 'notification_id'),
    ai_model: ((
      await admin('POST', '/upload_ai_model', {
        form: { company_id: tenant.companyId, name: `Colours ${randomUUID()}`, labels: JSON.stringify(['red', 'green', 'blue']), model: new Blob([new Uint8Array(tinyColourClassifier())]) },
      })
    ).body as { ai_model: { model_id: number } }).ai_model.model_id,
    camera,
    camera_device_token: ((await admin('POST', '/create_camera_device_token', { json: { camera_id: camera } })).body as { device_token: { token_id: number } }).device_token.token_id,
    consultant_access: ((await admin('POST', '/consultants/invite', { json: { email: `${randomUUID()}@example.test`, days: 30 } })).body as { access: { access_id: number } }).access.access_id,
  };
}

describe('every kind of owned record: another company’s answers 403, a missing one 404', () => {
  let theirs: Records;
  let mine: Records;
  beforeAll(async () => {
    theirs = await recordsOf(other);
    mine = await recordsOf(farm);
  });

  /** For each kind, a call of `farm` naming record `id` of that kind (one route per kind; the guard is the same for all). */
  const naming: Record<OwnedKindName, (id: number) => Promise<ApiResponse>> = {
    company: (id) => call('GET', '/load_users', farm.regular.token, { query: { company_id: id } }),
    user: (id) => call('GET', '/load_users', farm.regular.token, { query: { company_id: farm.companyId, user_id: id } }),
    invitation: (id) => call('DELETE', '/delete_invitation', farm.admin.token, { query: { invitation_id: id } }),
    audit_event: (id) => call('PUT', `/update_audit_event/${id}`, farm.admin.token, { json: { EventTitle: 'Rewritten' } }),
    room: (id) => call('GET', '/get_audit_events', farm.regular.token, { query: { company_id: farm.companyId, room_id: id } }),
    grid: (id) => call('GET', '/get_culled_gridboxes', farm.regular.token, { query: { GridID: id } }),
    grid_box: (id) => call('GET', '/check_for_stickytrap', farm.regular.token, { query: { GridBoxID: id } }),
    sub_gridbox: (id) => call('DELETE', '/delete_sub_gridbox', farm.admin.token, { query: { sub_gridbox_id: id } }),
    scan: (id) => call('DELETE', '/delete_scan', farm.admin.token, { query: { company_id: farm.companyId, scan_id: id } }),
    batch: (id) => call('GET', '/get_batch_form_responses', farm.regular.token, { query: { batch_id: id } }),
    grid_template: (id) => call('DELETE', '/delete_grid_templates', farm.admin.token, { query: { template_id: id, company_id: farm.companyId } }),
    tray: (id) => call('POST', '/update_tray', farm.regular.token, { json: { tray_id: id, company_id: farm.companyId, tray_name: 'Moved' } }),
    tray_template: (id) => call('DELETE', '/delete_tray_template', farm.admin.token, { json: { template_id: id, company_id: farm.companyId } }),
    form_template: (id) => call('GET', '/get_form_templates', farm.regular.token, { query: { company_id: farm.companyId, template_id: id } }),
    form_field: (id) => call('DELETE', '/delete_field_hide_until_link', farm.admin.token, { query: { form_field_hidden_FieldID: id } }),
    answered_form_field: (id) =>
      call('POST', '/submit_form', farm.regular.token, { json: { submittedBy: farm.regular.id, GridBoxID: mine.boxId, fieldResponses: [{ fieldID: id, inputData: 'Low' }] } }),
    form_response: (id) => call('GET', '/get_field_responses', farm.regular.token, { query: { response_id: id } }),
    plant_problem: (id) => call('POST', '/manage_problem', farm.regular.token, { json: { problemID: id, action: 'resolve', userID: farm.regular.id } }),
    spray_product: (id) => call('GET', '/get_treatment', farm.regular.token, { query: { treatment_type: 'biological', company_id: farm.companyId, product_id: id } }),
    saved_report: (id) => call('GET', '/get_saved_reports', farm.regular.token, { query: { company_id: farm.companyId, report_id: id } }),
    report_share: (id) => call('POST', '/revoke_report_share', farm.admin.token, { json: { share_id: id } }),
    task: (id) => call('DELETE', '/delete_task', farm.admin.token, { query: { task_id: id } }),
    response_comment: (id) => call('PUT', '/edit_comment', farm.regular.token, { json: { CommentID: id, UserID: farm.regular.id, CommentText: 'Edited' } }),
    notification: (id) => call('GET', '/get_notification_deliveries', farm.admin.token, { query: { notification_id: id } }),
    ai_model: (id) => call('GET', '/get_ai_model_file', farm.regular.token, { query: { model_id: id } }),
    camera: (id) => call('GET', '/get_camera', farm.admin.token, { query: { camera_id: id } }),
    camera_device_token: (id) => call('DELETE', '/revoke_camera_device_token', farm.admin.token, { json: { token_id: id } }),
    consultant_access: (id) => call('POST', '/consultants/revoke', farm.admin.token, { json: { access_id: id } }),
  };

  const idOf = (records: Records, tenant: Tenant, kind: OwnedKindName) => (kind === 'company' ? tenant.companyId : kind === 'user' ? tenant.admin.id : records[kind]);

  it('has a call for every kind ownership.ts declares', () => {
    expect(Object.keys(naming).sort()).toEqual(Object.keys(OWNED_KINDS).sort());
  });

  it.each(Object.keys(OWNED_KINDS) as OwnedKindName[])('%s', async (kind) => {
    const foreign = await naming[kind](idOf(theirs, other, kind));
    expect(foreign.status, JSON.stringify(foreign.body)).toBe(403);
    expect(foreign.body).toEqual(forbidden);
    // A company that does not exist is just not the caller's (403) but for a SuperAdmin, who may name any.
    const missing = kind === 'company' ? await call('GET', '/load_users', operator.token, { query: { company_id: MISSING } }) : await naming[kind](MISSING);
    expect(missing.status, JSON.stringify(missing.body)).toBe(404);
    expect(missing.body).toEqual(notFound(kind, MISSING));
    // And the caller's own record gets past the guard (whatever its route then says of it).
    const ownId = idOf(mine, farm, kind);
    const own = await naming[kind](ownId);
    expect(own.body).not.toEqual(forbidden);
    expect(own.body).not.toEqual(notFound(kind, ownId));
  });
});

// ---------------------------------------------------------------------------------------------------
// Gap 1: an audit event's link to a form response

describe('audit events link form responses of their own company only', () => {
  let theirResponse: number;
  let ownResponse: number;
  let ownEvent: number;
  let ownBox: number;
  beforeAll(async () => {
    const theirForm = await saveForm(other);
    const theirBox = (await createGrid(server, other.companyId, await createRoom(server, other.companyId))).boxIds[0] as number;
    theirResponse = await idFrom(
      call('POST', '/submit_form', other.regular.token, { json: { submittedBy: other.regular.id, GridBoxID: theirBox, fieldResponses: [{ fieldID: theirForm.fields[0], inputData: 'Low' }] } }),
      'response_id',
    );
    const ownForm = await saveForm(farm);
    ownBox = (await createGrid(server, farm.companyId, await createRoom(server, farm.companyId))).boxIds[0] as number;
    ownResponse = await idFrom(
      call('POST', '/submit_form', farm.regular.token, { json: { submittedBy: farm.regular.id, GridBoxID: ownBox, fieldResponses: [{ fieldID: ownForm.fields[0], inputData: 'Low' }] } }),
      'response_id',
    );
    ownEvent = ((await call('POST', '/add_audit_event', farm.regular.token, { json: { EventTitle: 'Own event' } })).body as { event: { EventID: number } }).event.EventID;
  });

  /** Events of another company than the response's that link it (its own submission's event links it, rightly). */
  const pointersTo = (responseId: number) =>
    server.database.db.selectFrom('audit_events').select(['id', 'company_id']).where('response_id', '=', responseId).where('company_id', '!=', other.companyId).execute();

  it('add_audit_event: another company’s response_id answers 403, a missing one 404, however it is sent', async () => {
    const add = (options: Omit<RequestOptions, 'token'>) => call('POST', '/add_audit_event', farm.regular.token, options);
    for (const options of [
      { json: { EventTitle: 'Read their form', response_id: theirResponse } },
      { json: { EventTitle: 'Read their form', response_id: String(theirResponse) } },
      { form: { EventTitle: 'Read their form', response_id: theirResponse } },
      { json: { EventTitle: 'Read their form', response_id: await clientIdOf(server, 'form_responses', theirResponse) } },
    ]) {
      const response = await add(options);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(forbidden);
    }
    const missing = await add({ json: { EventTitle: 'Read no form', response_id: MISSING } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFound('form_response', MISSING));
    expect((await add({ json: { EventTitle: 'Read my form', response_id: ownResponse } })).status).toBe(200);
    expect(await pointersTo(theirResponse)).toEqual([]);
  });

  it('update_audit_event: another company’s response_id answers 403, a missing one 404', async () => {
    const update = (json: object) => call('PUT', `/update_audit_event/${ownEvent}`, farm.admin.token, { json });
    expect(await update({ response_id: theirResponse })).toMatchObject({ status: 403, body: forbidden });
    expect(await update({ response_id: MISSING })).toMatchObject({ status: 404, body: notFound('form_response', MISSING) });
    expect((await update({ response_id: ownResponse })).status).toBe(200);
    expect(await pointersTo(theirResponse)).toEqual([]);
  });

  it('in a push, the entry naming another company’s response answers 403 and the others apply', async () => {
    const entry = (data: object) => ({ id: randomUUID(), method: 'POST', path: '/add_audit_event', body: { kind: 'json', data } });
    const pushed = await server.request<PushAnswer>('POST', '/sync/push', {
      token: farm.regular.token,
      json: { entries: [entry({ EventTitle: 'Mine', response_id: ownResponse }), entry({ EventTitle: 'Theirs', response_id: theirResponse }), entry({ EventTitle: 'None', response_id: MISSING })] },
    });
    expect(pushed.status).toBe(200);
    expect(pushed.body.results.map((result) => result.status)).toEqual([200, 403, 404]);
    expect(await pointersTo(theirResponse)).toEqual([]);
  });

  it('a SuperAdmin, who may name any company’s records, links an event to its own company’s only (404 otherwise)', async () => {
    const linked = await call('POST', '/add_audit_event', operator.token, { json: { CompanyID: farm.companyId, EventTitle: 'Linked across', response_id: theirResponse } });
    expect(linked.status).toBe(404);
    expect(linked.body).toEqual(notFound('form_response', theirResponse));
    const room = await call('POST', '/add_audit_event', operator.token, { json: { CompanyID: farm.companyId, EventTitle: 'Linked across', RoomID: await createRoom(server, other.companyId) } });
    expect(room.status).toBe(404);
    const updated = await call('PUT', `/update_audit_event/${ownEvent}`, operator.token, { json: { response_id: theirResponse } });
    expect(updated.status).toBe(404);
    expect(await pointersTo(theirResponse)).toEqual([]);
    // Within one company, as before.
    const within = await call('POST', '/add_audit_event', operator.token, { json: { CompanyID: other.companyId, EventTitle: 'Checked their form', response_id: theirResponse } });
    expect(within.status).toBe(200);
    expect(within.body).toMatchObject({ event: { CompanyID: other.companyId, response_id: theirResponse } });
  });
});

// ---------------------------------------------------------------------------------------------------
// Gap 2: ids nested in bodies

describe('ids nested in bodies', () => {
  let mine: Form;
  let second: Form;
  let theirs: Form;
  let roomId: number;
  let boxIds: number[];

  beforeAll(async () => {
    mine = await saveForm(farm);
    second = await saveForm(farm);
    theirs = await saveForm(other);
    roomId = await createRoom(server, farm.companyId);
    boxIds = (await createGrid(server, farm.companyId, roomId)).boxIds;
  });

  const answer = (fieldID: number | string) => [{ fieldID, inputData: 'Low' }];
  /** The four submission calls, answering `fieldResponses`. */
  const submissions = (fieldResponses: unknown) => ({
    submit_form: { submittedBy: farm.regular.id, GridBoxID: boxIds[0], fieldResponses },
    submit_form_boxes: { submittedBy: farm.regular.id, GridBoxIDs: `${boxIds[0]},${boxIds[1]}`, fieldResponses },
    submit_form_multiselect: { submittedBy: farm.regular.id, roomID: roomId, GridBoxIDs: [boxIds[0], boxIds[1]], fieldResponses },
    submit_form_room: { submittedBy: farm.regular.id, roomID: roomId, fieldResponses },
  });
  const submitEach = async (fieldResponses: unknown) => {
    const answers: Record<string, ApiResponse> = {};
    for (const [path, json] of Object.entries(submissions(fieldResponses))) answers[path] = await call('POST', `/${path}`, farm.regular.token, { json });
    return answers;
  };
  const responsesWith = (fieldId: number) => server.database.db.selectFrom('form_field_responses').select('id').where('field_id', '=', fieldId).execute();

  it('fieldResponses[].fieldID: another company’s field answers 403 and a missing one 404, in all four submissions', async () => {
    for (const [path, response] of Object.entries(await submitEach([...answer(mine.fields[0]!), ...answer(theirs.fields[0]!)]))) {
      expect({ path, status: response.status, body: response.body }).toEqual({ path, status: 403, body: forbidden });
    }
    for (const [path, response] of Object.entries(await submitEach(answer(MISSING)))) {
      expect({ path, status: response.status, body: response.body }).toEqual({ path, status: 404, body: notFound('answered_form_field', MISSING) });
    }
    // By client id too (resolved before validation, client-ids.ts).
    const byClientId = await submitEach(answer(await clientIdOf(server, 'form_fields', theirs.fields[0]!)));
    expect(Object.values(byClientId).map((response) => response.status)).toEqual([403, 403, 403, 403]);
    expect(await responsesWith(theirs.fields[0]!)).toHaveLength(0);
  });

  it('the caller’s own fields are answered as before: two templates 400, a deleted template’s kept', async () => {
    for (const response of Object.values(await submitEach([...answer(mine.fields[0]!), ...answer(second.fields[0]!)]))) {
      expect(response.body).toEqual(error(formResponseMessages.oneTemplate));
    }
    for (const response of Object.values(await submitEach(answer(mine.fields[0]!)))) expect(response.status).toBe(200);
    // A form filled offline whose template was deleted before it arrived is kept (README "Forms offline").
    const deleted = await saveForm(farm);
    expect((await call('DELETE', '/delete_template', farm.admin.token, { query: { template_id: deleted.id } })).status).toBe(200);
    for (const response of Object.values(await submitEach(answer(deleted.fields[0]!)))) expect(response.status, JSON.stringify(response.body)).toBe(200);
  });

  it('updatedFields[].FieldID in update_form_template: another company’s field 403, a missing one 404, another own template’s 400 as before', async () => {
    const update = (FieldID: number) =>
      call('POST', '/update_form_template', farm.admin.token, { json: { templateID: mine.id, newFields: [], updatedFields: [{ FieldID, fieldName: 'Renamed', fieldType: 'Text' }] } });
    expect(await update(theirs.fields[0]!)).toMatchObject({ status: 403, body: forbidden });
    expect(await update(MISSING)).toMatchObject({ status: 404, body: notFound('form_field', MISSING) });
    expect(await update(second.fields[0]!)).toMatchObject({ status: 400, body: error(formMessages.fieldNotInTemplate(second.fields[0]!)) });
    expect((await update(mine.fields[1]!)).status).toBe(200);
    const name = await server.database.db.selectFrom('form_fields').select('field_name').where('id', '=', theirs.fields[0]!).executeTakeFirstOrThrow();
    expect(name.field_name).toBe('Pest pressure');
  });

  it('in a push: nested ids are proven ahead for the caller’s fields, and each entry naming another company’s or a missing one is refused alone', async () => {
    const entry = (fieldID: number) => ({ id: randomUUID(), method: 'POST', path: '/submit_form', body: { kind: 'json', data: submissions(answer(fieldID)).submit_form } });
    const pushed = await server.request<PushAnswer>('POST', '/sync/push', {
      token: farm.regular.token,
      json: { entries: [entry(mine.fields[0]!), entry(theirs.fields[0]!), entry(MISSING), entry(mine.fields[1]!)] },
    });
    expect(pushed.status).toBe(200);
    expect(pushed.body.results.map((result) => [result.status, result.body])).toEqual([
      [200, expect.objectContaining({ status: 'success' })],
      [403, forbidden],
      [404, notFound('answered_form_field', MISSING)],
      [200, expect.objectContaining({ status: 'success' })],
    ]);
    expect(await responsesWith(theirs.fields[0]!)).toHaveLength(0);
  });
});

// ---------------------------------------------------------------------------------------------------
// Gap 3: the sync read-back

describe('GET /api/sync/documents names only the caller’s company’s documents', () => {
  let kept: number;
  let removed: number;
  let theirs: number;
  beforeAll(async () => {
    const grid = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 2, 1);
    [kept, removed] = grid.boxIds as [number, number];
    await server.database.db.updateTable('grid_boxes').set({ deleted_at: new Date() }).where('id', '=', removed).execute();
    theirs = (await createGrid(server, other.companyId, await createRoom(server, other.companyId), 1, 1)).boxIds[0] as number;
  });

  const readBack = (token: string, query: Record<string, string | number>) => server.request<{ status: string; documents: SyncDocument[] }>('GET', '/sync/documents', { token, query: { collection: 'grid_boxes', ...query } });

  it('another company’s document answers 403, by the server’s ids and by client ids', async () => {
    expect(await readBack(farm.regular.token, { ids: `${kept},${theirs}` })).toMatchObject({ status: 403, body: forbidden });
    const clientIds = `${await clientIdOf(server, 'grid_boxes', kept)},${await clientIdOf(server, 'grid_boxes', theirs)}`;
    expect(await readBack(farm.regular.token, { ids: clientIds, naming: 'client' })).toMatchObject({ status: 403, body: forbidden });
    const tray = await idFrom(call('POST', '/create_tray', other.admin.token, { json: { tray_name: `Tray ${randomUUID()}`, company_id: other.companyId, user_id: other.admin.id, number_of_plants: 6 } }), 'tray_id');
    expect(await server.request('GET', '/sync/documents', { token: farm.regular.token, query: { collection: 'operations', ids: `tray:${tray}` } })).toMatchObject({ status: 403, body: forbidden });
  });

  it('leaves out ids that name nothing, and answers a deleted document as its tombstone', async () => {
    for (const [ids, naming] of [
      // 2^31: past what an id column holds, so no record's either.
      [`${kept},${removed},${MISSING},2147483648`, 'server'],
      [`${await clientIdOf(server, 'grid_boxes', kept)},${await clientIdOf(server, 'grid_boxes', removed)},${randomUUID()}`, 'client'],
    ] as const) {
      const response = await readBack(farm.regular.token, { ids, naming });
      expect(response.status).toBe(200);
      expect(response.body.documents.map((document) => document._deleted).sort()).toEqual([false, true]);
    }
  });

  it('a SuperAdmin reads the company it acts for: another company’s documents are not found there', async () => {
    const response = await readBack(operator.token, { company_id: farm.companyId, ids: `${kept},${theirs}` });
    expect(response.status).toBe(200);
    expect(response.body.documents.map((document) => document.id)).toEqual([String(kept)]);
    const theirsRead = await readBack(operator.token, { company_id: other.companyId, ids: `${theirs}` });
    expect(theirsRead.body.documents.map((document) => document.id)).toEqual([String(theirs)]);
  });
});
