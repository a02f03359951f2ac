import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gridTemplateMessages as m } from '../../common/messages/grid-templates';
import { subgridMessages } from '../../common/messages/subgrids';
import { systemActor, writer } from '../../server/db/writes';
import { createGrid, createRoom, createSuperAdmin, createTenant, createUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let roomId: number;
let otherRoom: number;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  roomId = await createRoom(server, farm.companyId);
  otherRoom = await createRoom(server, other.companyId);
});
afterAll(() => server.close());

interface Template {
  template_id: number;
  template_name: string;
  template_type: 'Grid' | 'SubGrid';
  rows: number;
  columns: number;
  description: string | null;
  company_id: number;
  user_id: number;
}

const request = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });
const error = (message: string) => ({ status: 'error', message });

let counter = 0;
/** A template's fields for `tenant`'s Admin; each call a new name. */
const fields = (tenant: Tenant = farm, extra: Record<string, unknown> = {}) => ({
  template_name: `Layout ${(counter += 1)}`,
  template_type: 'SubGrid',
  rows: 2,
  columns: 3,
  description: 'Propagation tray',
  company_id: tenant.companyId,
  user_id: tenant.admin.id,
  ...extra,
});

const createTemplate = (token: string, json: Record<string, unknown>, headers?: Record<string, string>) =>
  request('POST', '/create_grid_templates', token, { json, ...(headers ? { headers } : {}) });

/** A template of `tenant`, created over HTTP by its Admin. */
async function newTemplate(tenant: Tenant = farm, extra: Record<string, unknown> = {}) {
  const response = await createTemplate(tenant.admin.token, fields(tenant, extra));
  expect(response.status).toBe(200);
  return response.body.template as Template;
}

const auditEvents = (companyId: number, like: string) =>
  server.database.db.selectFrom('audit_events').select(['event_title', 'user_id', 'room_id', 'grid_box_id']).where('company_id', '=', companyId).where('event_title', 'like', like).execute();

describe('create_grid_templates', () => {
  it('creates a template from JSON or form fields and records it', async () => {
    const json = fields(farm, { template_name: 'Clone tray', rows: '4', columns: 6 });
    const response = await createTemplate(farm.admin.token, json);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.created,
      template: { template_name: 'Clone tray', template_type: 'SubGrid', rows: 4, columns: 6, description: 'Propagation tray', company_id: farm.companyId, user_id: farm.admin.id },
    });
    expect(await auditEvents(farm.companyId, 'Created SubGrid template Clone tray%')).toEqual([{ event_title: 'Created SubGrid template Clone tray (4 × 6)', user_id: farm.admin.id, room_id: null, grid_box_id: null }]);

    const form = await request('POST', '/create_grid_templates', farm.admin.token, { form: { ...fields(farm, { template_type: 'Grid' }), description: '' } });
    expect(form.status).toBe(200);
    expect(form.body.template).toMatchObject({ template_type: 'Grid', rows: 2, columns: 3, description: null });
  });

  it('answers each spec message, and ours for a size out of range', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ template_name: ' ' }, m.nameRequired],
      [{ template_type: undefined }, m.typeRequired],
      [{ template_type: '' }, m.typeRequired],
      [{ rows: undefined }, m.rowsRequired],
      [{ columns: '' }, m.columnsRequired],
      [{ company_id: undefined }, m.companyRequired],
      [{ user_id: undefined }, m.userRequired],
      [{ template_type: 'Tray' }, m.typeInvalid],
      [{ rows: 0 }, m.rowsInvalid],
      [{ rows: 'two' }, m.rowsInvalid],
      [{ columns: 101 }, m.columnsInvalid],
    ];
    for (const [change, message] of cases) {
      const response = await createTemplate(farm.admin.token, fields(farm, change));
      expect(response.status).toBe(400);
      expect(response.body).toEqual(error(message));
    }
    expect((await request('POST', '/create_grid_templates', farm.admin.token)).body).toEqual(error(m.nameRequired));
  });

  it('answers 409 for a name its type already has', async () => {
    const template = await newTemplate();
    const response = await createTemplate(farm.admin.token, fields(farm, { template_name: template.template_name.toUpperCase() }));
    expect(response.status).toBe(409);
    expect(response.body).toEqual(error(m.nameTaken(template.template_name.toUpperCase(), 'SubGrid')));
    // The other type may have it.
    expect((await createTemplate(farm.admin.token, fields(farm, { template_name: template.template_name, template_type: 'Grid' }))).status).toBe(200);
  });

  it('makes one template for a repeated request with the same Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': randomUUID() };
    const json = fields();
    const first = await createTemplate(farm.admin.token, json, headers);
    const second = await createTemplate(farm.admin.token, json, headers);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.template_id).toBe(first.body.template_id);
    const rows = await server.database.db.selectFrom('grid_templates').select('id').where('template_name', '=', json.template_name).execute();
    expect(rows).toHaveLength(1);
  });

  it('answers 403 to a Regular user, for another company and for someone else’s user_id', async () => {
    expect((await createTemplate(farm.regular.token, fields(farm, { user_id: farm.regular.id }))).status).toBe(403);
    expect((await createTemplate(farm.admin.token, fields(farm, { company_id: other.companyId }))).status).toBe(403);
    expect((await createTemplate(farm.admin.token, fields(farm, { user_id: other.admin.id }))).status).toBe(403);
    expect((await createTemplate(farm.admin.token, fields(farm, { user_id: farm.regular.id }))).status).toBe(403);
  });
});

describe('get_grid_templates', () => {
  it('lists the company’s live templates of a type, SubGrid by default', async () => {
    const tenant = await createTenant(server);
    const sub = await newTemplate(tenant, { template_name: 'B sub' });
    const sub2 = await newTemplate(tenant, { template_name: 'a sub' });
    const grid = await newTemplate(tenant, { template_type: 'Grid' });
    await newTemplate(other);
    const subs = await request('GET', '/get_grid_templates', tenant.regular.token, { query: { company_id: tenant.companyId } });
    expect(subs.status).toBe(200);
    expect((subs.body.templates as Template[]).map((template) => template.template_id)).toEqual([sub2.template_id, sub.template_id]);
    const grids = await request('GET', '/get_grid_templates', tenant.regular.token, { query: { company_id: tenant.companyId, type: 'Grid' } });
    expect(grids.body).toEqual({ status: 'success', templates: [expect.objectContaining({ template_id: grid.template_id, rows: 2, columns: 3 })] });
  });

  it('answers the spec messages and 403 for another company', async () => {
    expect((await request('GET', '/get_grid_templates', farm.regular.token)).body).toEqual(error(m.companyIdRequired));
    expect((await request('GET', '/get_grid_templates', farm.regular.token, { query: { company_id: farm.companyId, type: 'Tray' } })).body).toEqual(error(m.listTypeInvalid));
    expect((await request('GET', '/get_grid_templates', farm.regular.token, { query: { company_id: other.companyId } })).status).toBe(403);
  });
});

describe('delete_grid_templates', () => {
  it('tombstones a template so it is no longer listed, and records it', async () => {
    const template = await newTemplate();
    const response = await request('DELETE', '/delete_grid_templates', farm.admin.token, { query: { template_id: template.template_id, company_id: farm.companyId } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.deleted, template_id: template.template_id });
    const listed = await request('GET', '/get_grid_templates', farm.regular.token, { query: { company_id: farm.companyId } });
    expect((listed.body.templates as Template[]).some((row) => row.template_id === template.template_id)).toBe(false);
    expect(await auditEvents(farm.companyId, `Deleted SubGrid template ${template.template_name}`)).toHaveLength(1);
    expect((await request('DELETE', '/delete_grid_templates', farm.admin.token, { query: { template_id: template.template_id, company_id: farm.companyId } })).status).toBe(404);
    // Its name is free again.
    expect((await createTemplate(farm.admin.token, fields(farm, { template_name: template.template_name }))).status).toBe(200);
  });

  it('answers 404 to a SuperAdmin naming a template with another company than its own', async () => {
    const superAdmin = await createSuperAdmin(server);
    const template = await newTemplate(other);
    const mismatched = await request('DELETE', '/delete_grid_templates', superAdmin.token, { query: { template_id: template.template_id, company_id: farm.companyId } });
    expect(mismatched.status).toBe(404);
    expect(mismatched.body).toEqual(error(m.templateNotFound));
    expect((await request('DELETE', '/delete_grid_templates', superAdmin.token, { query: { template_id: template.template_id, company_id: other.companyId } })).status).toBe(200);
  });

  it('answers the spec messages', async () => {
    expect((await request('DELETE', '/delete_grid_templates', farm.admin.token, { query: { company_id: farm.companyId } })).body).toEqual(error(m.templateIdRequired));
    expect((await request('DELETE', '/delete_grid_templates', farm.admin.token, { query: { template_id: 1 } })).body).toEqual(error(m.companyIdRequired));
  });

  it('answers 403 to a Regular user and for another company’s template or company', async () => {
    const template = await newTemplate();
    expect((await request('DELETE', '/delete_grid_templates', farm.regular.token, { query: { template_id: template.template_id, company_id: farm.companyId } })).status).toBe(403);
    const otherTemplate = await newTemplate(other);
    expect((await request('DELETE', '/delete_grid_templates', farm.admin.token, { query: { template_id: otherTemplate.template_id, company_id: farm.companyId } })).status).toBe(403);
    expect((await request('DELETE', '/delete_grid_templates', farm.admin.token, { query: { template_id: template.template_id, company_id: other.companyId } })).status).toBe(403);
  });
});

describe('submit_grid_template', () => {
  const submit = (token: string, json: Record<string, unknown>) => request('POST', '/submit_grid_template', token, { json });

  it('makes a grid of columns × rows boxes in the room from a Grid template, for any member', async () => {
    const template = await newTemplate(farm, { template_type: 'Grid', rows: 2, columns: 3 });
    const response = await submit(farm.regular.token, { template_id: template.template_id, company_id: farm.companyId, room_id: roomId, grid_name: 'Bench 4', user_id: farm.regular.id });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.gridSubmitted, template_type: 'Grid', grid: { Name: 'Bench 4', RoomID: roomId, nx: 3, ny: 2 } });
    const boxes = (response.body.grid as { boxes: Array<{ X: number; Y: number }> }).boxes;
    expect(boxes.map((box) => [box.X, box.Y])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
      [1, 2],
      [2, 2],
      [3, 2],
    ]);
    const events = await auditEvents(farm.companyId, `Created grid Bench 4 (3 × 2) from template ${template.template_name}`);
    expect(events).toEqual([expect.objectContaining({ user_id: farm.regular.id, room_id: roomId })]);

    // Without a name the grid is named after the template; without user_id the caller acts.
    const unnamed = await request('POST', '/submit_grid_template', farm.regular.token, { form: { template_id: template.template_id, company_id: farm.companyId, room_id: roomId } });
    expect(unnamed.body).toMatchObject({ status: 'success', grid: { Name: template.template_name } });
  });

  it('divides a box into rows × columns sub-gridboxes from a SubGrid template', async () => {
    const template = await newTemplate(farm, { rows: 2, columns: 2 });
    const box = (await createGrid(server, farm.companyId, roomId, 1, 1)).boxIds[0] as number;
    const response = await submit(farm.regular.token, { template_id: template.template_id, company_id: farm.companyId, parent_gridbox_id: box, user_id: farm.regular.id });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.subGridSubmitted, template_type: 'SubGrid', parent_gridbox_id: box, total_count: 4, max_allowed: 64 });
    const subs = response.body.sub_gridboxes as Array<{ SubX: number; SubY: number; PlantID: string | null }>;
    expect(subs.map((sub) => [sub.SubX, sub.SubY])).toEqual([
      [1, 1],
      [2, 1],
      [1, 2],
      [2, 2],
    ]);
    expect(subs.every((sub) => sub.PlantID !== null)).toBe(true);
    expect(await auditEvents(farm.companyId, `Created 4 sub-gridboxes from template ${template.template_name}`)).toEqual([
      expect.objectContaining({ grid_box_id: box, room_id: roomId }),
    ]);

    // The same layout again collides with itself; elsewhere, without plant ids on request.
    const again = await submit(farm.regular.token, { template_id: template.template_id, company_id: farm.companyId, parent_gridbox_id: box });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ ...error(subgridMessages.positionsOccupied(['1-1', '2-1', '1-2', '2-2'])), total_count: 4, max_allowed: 64 });
    const secondBox = (await createGrid(server, farm.companyId, roomId, 1, 1)).boxIds[0] as number;
    const bare = await submit(farm.regular.token, { template_id: template.template_id, company_id: farm.companyId, parent_gridbox_id: secondBox, auto_initialize_plants: 'false' });
    expect((bare.body.sub_gridboxes as Array<{ PlantID: string | null }>).every((sub) => sub.PlantID === null)).toBe(true);
  });

  it('answers 409 when a SubGrid template exceeds the company’s maximum per box', async () => {
    const tenant = await createTenant(server);
    await writer(server.database.db, systemActor(tenant.companyId)).update('companies', tenant.companyId, { max_sub_gridboxes: 3 });
    const template = await newTemplate(tenant, { rows: 2, columns: 2 });
    const box = (await createGrid(server, tenant.companyId, await createRoom(server, tenant.companyId), 1, 1)).boxIds[0] as number;
    const response = await submit(tenant.regular.token, { template_id: template.template_id, company_id: tenant.companyId, parent_gridbox_id: box });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ ...error(subgridMessages.limitReached(3)), total_count: 0, max_allowed: 3 });
  });

  it('answers the spec messages, and ours when the room or box the type needs is missing', async () => {
    const grid = await newTemplate(farm, { template_type: 'Grid' });
    const sub = await newTemplate(farm);
    expect((await submit(farm.regular.token, { company_id: farm.companyId, room_id: roomId })).body).toEqual(error(m.templateIdRequired));
    expect((await submit(farm.regular.token, { template_id: grid.template_id, room_id: roomId })).body).toEqual(error(m.companyIdRequired));
    expect((await submit(farm.regular.token, { template_id: grid.template_id, company_id: farm.companyId })).body).toEqual(error(m.roomRequired));
    expect((await submit(farm.regular.token, { template_id: sub.template_id, company_id: farm.companyId, room_id: roomId })).body).toEqual(error(m.parentRequired));
    expect((await submit(farm.regular.token, { template_id: sub.template_id, company_id: farm.companyId, parent_gridbox_id: 'x' })).body).toEqual(error(m.idInvalid('parent_gridbox_id')));
    expect((await submit(farm.regular.token, { template_id: sub.template_id, company_id: farm.companyId, parent_gridbox_id: 1, auto_initialize_plants: 'maybe' })).body).toEqual(
      error(m.autoInitializeInvalid),
    );
  });

  it('answers 403 for another company’s template, company, room or box, or someone else’s user_id', async () => {
    const otherGrid = await newTemplate(other, { template_type: 'Grid' });
    const grid = await newTemplate(farm, { template_type: 'Grid' });
    const sub = await newTemplate(farm);
    const otherBox = (await createGrid(server, other.companyId, otherRoom, 1, 1)).boxIds[0] as number;
    const colleague = await createUser(server, farm.companyId, 'Regular');
    const cases: Array<Record<string, unknown>> = [
      { template_id: otherGrid.template_id, company_id: farm.companyId, room_id: roomId },
      { template_id: grid.template_id, company_id: other.companyId, room_id: roomId },
      { template_id: grid.template_id, company_id: farm.companyId, room_id: otherRoom },
      { template_id: sub.template_id, company_id: farm.companyId, parent_gridbox_id: otherBox },
      { template_id: grid.template_id, company_id: farm.companyId, room_id: roomId, user_id: colleague.id },
    ];
    for (const json of cases) expect((await submit(farm.regular.token, json)).status).toBe(403);
  });
});
