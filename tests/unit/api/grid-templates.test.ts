import { describe, expect, it } from 'vitest';
import { boxClientId, isClientId, subGridboxClientId } from '../../../common/client-ids';
import { gridTemplateClientMessages as c, gridTemplateMessages as m } from '../../../common/messages/grid-templates';
import { ApiError } from '../../../src/api/context';
import { createGridTemplates, deleteGridTemplates, type GridTemplate, getGridTemplates, submitGridTemplate } from '../../../src/api/grid-templates';
import type { SubGridbox } from '../../../src/api/subgrids';
import type { Tablet } from '../../support/client';
import { clientIdOf, clientIdsOf, createGrid } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet({ room: true, defaultUser: 'admin' });
const { tablet } = fleet;
let counter = 0;
const unique = (name: string) => `${name} ${(counter += 1)}`;

/**
 * A template made on the server (as another device would), pulled by the tablet: the server's answer
 * (integer ids) and `key`, its client id, by which the tablet names it (its local document's key).
 */
async function serverTemplate(device: Tablet, fields: { template_type: 'Grid' | 'SubGrid'; rows: number; columns: number }) {
  const response = await fleet.server.request<{ template: GridTemplate }>('POST', '/create_grid_templates', {
    token: fleet.farm.admin.token,
    json: { template_name: unique('Layout'), company_id: fleet.farm.companyId, user_id: fleet.farm.admin.id, ...fields },
  });
  expect(response.status).toBe(200);
  await device.engine.settle();
  const { template } = response.body;
  return { ...template, key: await clientIdOf(fleet.server, 'grid_templates', template.template_id as number) };
}

/** The farm's room as the tablet names it (by client id), as the screens pass it. */
const roomKey = () => clientIdOf(fleet.server, 'rooms', fleet.roomId);

const templatesOfKind = async (device: Tablet) => (await device.database.operations.find({ selector: { kind: 'grid_template' } }).exec()).map((document) => document.toMutableJSON());

describe('create_grid_templates', () => {
  const input = () => ({ templateName: unique('Tray 4x6'), templateType: 'SubGrid' as const, rows: 4, columns: 6, companyId: fleet.farm.companyId, userId: fleet.farm.admin.id });

  it('gives the seven spec messages', async () => {
    const device = await tablet();
    const context = device.context;
    await rejects(createGridTemplates(context, { ...input(), templateName: '  ' }), m.nameRequired);
    await rejects(createGridTemplates(context, { ...input(), templateType: undefined as never }), m.typeRequired);
    await rejects(createGridTemplates(context, { ...input(), rows: undefined as never }), m.rowsRequired);
    await rejects(createGridTemplates(context, { ...input(), columns: undefined as never }), m.columnsRequired);
    await rejects(createGridTemplates(context, { ...input(), companyId: undefined as never }), m.companyRequired);
    await rejects(createGridTemplates(context, { ...input(), userId: undefined as never }), m.userRequired);
    await rejects(createGridTemplates(context, { ...input(), templateType: 'Tray' as never }), m.typeInvalid);
    expect(await device.outbox.count()).toBe(0);
  });

  it('is in the local list at once under its client id, and the server keeps that id', async () => {
    const device = await tablet();
    fleet.proxy.setOnline(false);
    const name = unique('Bench');
    const { template_id } = await createGridTemplates(device.context, { ...input(), templateName: ` ${name} `, templateType: 'Grid', rows: 2, columns: 3, description: 'Two by three' });
    expect(isClientId(template_id)).toBe(true);
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/create_grid_templates',
      body: {
        kind: 'json',
        data: { template_name: name, template_type: 'Grid', rows: 2, columns: 3, description: 'Two by three', company_id: fleet.farm.companyId, user_id: fleet.farm.admin.id, client_id: template_id },
      },
    });
    expect(entry?.creates).toEqual([template_id]);
    const local = (await device.database.operations.findOne(String(template_id)).exec())?.toMutableJSON();
    expect(local).toMatchObject({ kind: 'grid_template', template_id, template_name: name, template_type: 'Grid', rows: 2, columns: 3 });
    expect(local).not.toHaveProperty('serverId');

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const row = await fleet.server.database.db.selectFrom('grid_templates').selectAll().where('company_id', '=', fleet.farm.companyId).where('template_name', '=', name).executeTakeFirstOrThrow();
    expect([row.template_type, row.rows, row.columns, row.description, row.client_id]).toEqual(['Grid', 2, 3, 'Two by three', template_id]);
    // The server's copy replaced the optimistic one under the same key, with the server's id beside it.
    const mine = (await templatesOfKind(device)).filter((document) => document.template_name === name);
    expect(mine.map((document) => [document.id, document.template_id, document.serverId])).toEqual([[template_id, template_id, row.id]]);
  });
});

describe('get_grid_templates', () => {
  it("needs the company and a known type: 'company_id is required', 'type must be \"Grid\" or \"SubGrid\"'", async () => {
    const device = await tablet(fleet.farm.regular);
    await rejects(getGridTemplates(device.context, { companyId: undefined as never }), m.companyIdRequired);
    await rejects(getGridTemplates(device.context, { companyId: fleet.farm.companyId, type: 'Tray' as never }), m.listTypeInvalid);
  });

  it('lists SubGrid templates unless told otherwise', async () => {
    const device = await tablet(fleet.farm.regular);
    const grid = await serverTemplate(device, { template_type: 'Grid', rows: 1, columns: 2 });
    const sub = await serverTemplate(device, { template_type: 'SubGrid', rows: 2, columns: 2 });
    const subs = await getGridTemplates(device.context, { companyId: fleet.farm.companyId });
    expect(subs.status).toBe('success');
    expect(subs.templates.every((template) => template.template_type === 'SubGrid')).toBe(true);
    expect(subs.templates.map((template) => template.template_id)).toContain(sub.template_id);
    const grids = await getGridTemplates(device.context, { companyId: fleet.farm.companyId, type: 'Grid' });
    expect(grids.templates.find((template) => template.template_id === grid.template_id)).toMatchObject({ template_name: grid.template_name, rows: 1, columns: 2 });
  });

  it("without an answer: 'Failed to fetch templates'", async () => {
    const device = await tablet(fleet.farm.regular);
    fleet.proxy.setOnline(false);
    await rejects(getGridTemplates(device.context, { companyId: fleet.farm.companyId }), c.fetchFailed, ApiError);
  });
});

describe('delete_grid_templates', () => {
  it("needs the template and the company: 'template_id is required', 'company_id is required'", async () => {
    const device = await tablet();
    await rejects(deleteGridTemplates(device.context, { templateId: undefined as never, companyId: fleet.farm.companyId }), m.templateIdRequired);
    await rejects(deleteGridTemplates(device.context, { templateId: 1, companyId: undefined as never }), m.companyIdRequired);
  });

  it('leaves the local list at once and is deleted on the server', async () => {
    const device = await tablet();
    const template = await serverTemplate(device, { template_type: 'SubGrid', rows: 1, columns: 1 });
    const documentId = template.key;
    expect((await device.database.operations.findOne(documentId).exec())?.toMutableJSON()).toMatchObject({ kind: 'grid_template', template_id: template.key, serverId: template.template_id });
    fleet.proxy.setOnline(false);
    await deleteGridTemplates(device.context, { templateId: template.key, companyId: fleet.farm.companyId });
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'DELETE', path: '/delete_grid_templates', query: { template_id: template.key, company_id: fleet.farm.companyId } });
    expect(await device.database.operations.findOne(documentId).exec()).toBeNull();

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const row = await fleet.server.database.db.selectFrom('grid_templates').select('deleted_at').where('id', '=', template.template_id as number).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(await device.database.operations.findOne(documentId).exec()).toBeNull();
  });
});

describe('submit_grid_template', () => {
  it("needs the template and the company: 'template_id is required', 'company_id is required'", async () => {
    const device = await tablet(fleet.farm.regular);
    await rejects(submitGridTemplate(device.context, { templateId: undefined as never, companyId: fleet.farm.companyId, roomId: fleet.roomId }), m.templateIdRequired);
    await rejects(submitGridTemplate(device.context, { templateId: 1, companyId: undefined as never, roomId: fleet.roomId }), m.companyIdRequired);
  });

  it('needs a room for a Grid template and a grid box for a SubGrid one, when the tablet knows the template', async () => {
    const device = await tablet(fleet.farm.regular);
    const grid = await serverTemplate(device, { template_type: 'Grid', rows: 1, columns: 1 });
    const sub = await serverTemplate(device, { template_type: 'SubGrid', rows: 1, columns: 1 });
    await rejects(submitGridTemplate(device.context, { templateId: grid.key, companyId: fleet.farm.companyId }), m.roomRequired);
    await rejects(submitGridTemplate(device.context, { templateId: sub.key, companyId: fleet.farm.companyId }), m.parentRequired);
    expect(await device.outbox.count()).toBe(0);
  });

  it("a Grid template lays out a grid at once under the submit's client id; the server makes it under the same ids", async () => {
    const device = await tablet(fleet.farm.regular);
    const room = await roomKey();
    const template = await serverTemplate(device, { template_type: 'Grid', rows: 2, columns: 3 });
    fleet.proxy.setOnline(false);
    const name = unique('Flower bench');
    const submitted = await submitGridTemplate(device.context, { templateId: template.key, companyId: fleet.farm.companyId, roomId: room, gridName: name, userId: fleet.farm.regular.id });
    if (submitted.template_type !== 'Grid') throw new Error('expected a grid');
    const offlineGrid = (await device.database.grids.findOne(submitted.GridID).exec())?.toMutableJSON();
    expect(offlineGrid).toMatchObject({ Name: name, RoomID: room, nx: 3, ny: 2 });
    expect(offlineGrid).not.toHaveProperty('serverId');
    // The boxes' client ids derive from the grid's and their place, row by row.
    const derived = [1, 2].flatMap((y) => [1, 2, 3].map((x) => boxClientId(submitted.GridID, x, y)));
    expect(submitted.boxIds).toEqual(derived);
    expect((await device.database.grid_boxes.find({ selector: { gridId: submitted.GridID } }).exec()).map((box) => box.id).sort()).toEqual([...derived].sort());
    const [entry] = await device.outbox.all();
    // The submit's client id is the new grid's.
    expect(entry?.body).toEqual({
      kind: 'json',
      data: { template_id: template.key, company_id: fleet.farm.companyId, grid_name: name, room_id: room, auto_initialize_plants: 1, user_id: fleet.farm.regular.id, client_id: submitted.GridID },
    });
    expect(entry?.creates).toEqual([submitted.GridID, ...derived]);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const grid = await fleet.server.database.db.selectFrom('grids').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    expect([grid.client_id, grid.room_id]).toEqual([submitted.GridID, fleet.roomId]);
    const boxes = await fleet.server.database.db.selectFrom('grid_boxes').select(['id', 'x', 'y']).where('grid_id', '=', grid.id).orderBy('y').orderBy('x').execute();
    expect(await clientIdsOf(fleet.server, 'grid_boxes', boxes.map((box) => box.id))).toEqual(derived);
    // Nothing moved: the server's copies replaced the optimistic ones under the same keys.
    expect((await device.database.grids.findOne(submitted.GridID).exec())?.toMutableJSON()).toMatchObject({ Name: name, RoomID: room, serverId: grid.id });
    const localBoxes = await device.database.grid_boxes.find({ selector: { gridId: submitted.GridID } }).exec();
    const localServerIds = new Map(localBoxes.map((box) => [box.id, box.get('serverId')]));
    expect(derived.map((id) => localServerIds.get(id))).toEqual(boxes.map((box) => box.id));
    expect(await fleet.notFromServer(device)).toEqual([]);
  });

  it("a SubGrid template divides a box at once under ids derived from the submit's client id; the server makes the sub-gridboxes under them", async () => {
    const device = await tablet(fleet.farm.regular);
    const template = await serverTemplate(device, { template_type: 'SubGrid', rows: 1, columns: 2 });
    const { boxIds } = await createGrid(fleet.server, fleet.farm.companyId, fleet.roomId, 1, 1);
    const box = boxIds[0] as number;
    const boxKey = await clientIdOf(fleet.server, 'grid_boxes', box);
    await device.engine.settle();
    fleet.proxy.setOnline(false);
    const submitted = await submitGridTemplate(device.context, { templateId: template.key, companyId: fleet.farm.companyId, parentGridboxId: boxKey });
    expect(submitted).toMatchObject({ template_type: 'SubGrid', parent_gridbox_id: boxKey });
    const [entry] = await device.outbox.all();
    const division = (entry?.body as { data: { client_id: string } }).data.client_id;
    expect(entry?.body).toEqual({ kind: 'json', data: { template_id: template.key, company_id: fleet.farm.companyId, parent_gridbox_id: boxKey, auto_initialize_plants: 1, client_id: division } });
    const derived = [subGridboxClientId(division, 1, 1), subGridboxClientId(division, 2, 1)];
    expect(entry?.creates).toEqual(derived);
    const subsOf = async () => ((await device.database.grid_boxes.findOne(boxKey).exec())?.toMutableJSON().sub_gridboxes ?? []) as SubGridbox[];
    expect((await subsOf()).map((sub) => [sub.SubX, sub.SubY, sub.Sub_gridboxID, sub.ParentGridboxID, sub.pending])).toEqual([
      [1, 1, derived[0], boxKey, true],
      [2, 1, derived[1], boxKey, true],
    ]);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const rows = await fleet.server.database.db.selectFrom('sub_gridboxes').selectAll().where('parent_gridbox_id', '=', box).orderBy('subx').execute();
    expect(rows.map((row) => [row.subx, row.suby, row.client_id])).toEqual([
      [1, 1, derived[0]],
      [2, 1, derived[1]],
    ]);
    // The server's copy of the box replaced the optimistic list: the same ids, not pending, with plant ids.
    const synced = await subsOf();
    expect(synced.map((sub) => [sub.Sub_gridboxID, sub.ParentGridboxID, sub.PlantID])).toEqual(rows.map((row) => [row.client_id, boxKey, row.plant_id]));
    expect(synced.some((sub) => sub.pending)).toBe(false);
  });

  it('a template the tablet has not pulled yet still goes, and the pull brings the result', async () => {
    const device = await tablet(fleet.farm.regular);
    fleet.proxy.setOnline(false);
    const template = await fleet.server.request<{ template: GridTemplate }>('POST', '/create_grid_templates', {
      token: fleet.farm.admin.token,
      json: { template_name: unique('Unseen'), template_type: 'Grid', rows: 1, columns: 1, company_id: fleet.farm.companyId, user_id: fleet.farm.admin.id },
    });
    const name = unique('Unseen grid');
    // A screen names the template by its client id: the server accepts it, though the tablet has not pulled the template.
    const templateKey = await clientIdOf(fleet.server, 'grid_templates', template.body.template.template_id as number);
    const room = await roomKey();
    expect(await submitGridTemplate(device.context, { templateId: templateKey, companyId: fleet.farm.companyId, roomId: room, gridName: name })).toEqual({ template_type: null });
    const [entry] = await device.outbox.all();
    const gridKey = (entry?.body as { data: { client_id: string } }).data.client_id;
    expect(entry?.creates).toEqual([]);
    expect(await device.database.grids.findOne(gridKey).exec()).toBeNull();
    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    // The grid took the submit's client id on the server, and the pull brings it under that id.
    const grid = await fleet.server.database.db.selectFrom('grids').select(['id', 'client_id']).where('name', '=', name).executeTakeFirstOrThrow();
    expect(grid.client_id).toBe(gridKey);
    expect((await device.database.grids.findOne(gridKey).exec())?.toMutableJSON()).toMatchObject({ Name: name, RoomID: room, serverId: grid.id });
  });
});
