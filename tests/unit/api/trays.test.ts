import { describe, expect, it } from 'vitest';
import { trayMessages as m } from '../../../common/messages/trays';
import type { TrayTemplateRecord } from '../../../common/schemas/trays';
import { isClientId } from '../../../common/client-ids';
import { ApiError } from '../../../src/api/context';
import {
  createTray,
  createTrayTemplate,
  deleteTray,
  deleteTrayTemplate,
  getAllTrays,
  getTrayTemplates,
  type Tray,
  updateTray,
  useTrayTemplate,
} from '../../../src/api/trays';
import type { Tablet } from '../../support/client';
import { clientIdOf } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet({ batch: true });
const { tablet } = fleet;
let counter = 0;
const unique = (name: string) => `${name} ${(counter += 1)}`;

/** Goes back online and lets the tablet send and pull everything. */
async function reconnect(device: Tablet) {
  await fleet.reconnect(device);
  expect(await device.outbox.count()).toBe(0);
}

/** The farm's batch as the tablet names it (by client id), as the screens pass it. */
const batchKey = () => clientIdOf(fleet.server, 'batches', fleet.batchId);

const local = async (device: Tablet, id: string) => (await device.database.operations.findOne(id).exec())?.toMutableJSON() ?? null;
const ofKind = async (device: Tablet, kind: string) => (await device.database.operations.find({ selector: { kind } }).exec()).map((document) => document.toMutableJSON());

/**
 * A tray or template made on the server (as another device would), pulled by the tablet: the server's
 * answer (integer ids) and `key`, its client id, by which the tablet names it (its local document's key).
 */
async function serverTray(device: Tablet, fields: Record<string, unknown> = {}) {
  const response = await fleet.server.request<{ tray: Tray }>('POST', '/create_tray', {
    token: fleet.farm.regular.token,
    json: { tray_name: unique('Tray'), company_id: fleet.farm.companyId, user_id: fleet.farm.regular.id, number_of_plants: 24, ...fields },
  });
  expect(response.status).toBe(200);
  await device.engine.settle();
  const { tray } = response.body;
  return { ...tray, key: await clientIdOf(fleet.server, 'trays', tray.tray_id as number) };
}
async function serverTemplate(device: Tablet, fields: Record<string, unknown> = {}) {
  const response = await fleet.server.request<{ template: TrayTemplateRecord }>('POST', '/create_tray_template', {
    token: fleet.farm.admin.token,
    json: { template_name: unique('Plug tray'), company_id: fleet.farm.companyId, user_id: fleet.farm.admin.id, number_of_plants: 72, ...fields },
  });
  expect(response.status).toBe(200);
  await device.engine.settle();
  const { template } = response.body;
  return { ...template, key: await clientIdOf(fleet.server, 'tray_templates', template.template_id as number) };
}

describe('get_tray_templates', () => {
  it("needs the company: 'companyID is required.'", async () => {
    const device = await tablet();
    await rejects(getTrayTemplates(device.context, { companyId: undefined as never }), m.companyIdRequired);
  });

  it('answers status and templates', async () => {
    const device = await tablet();
    const template = await serverTemplate(device, { description: 'For clones' });
    const answer = await getTrayTemplates(device.context, { companyId: fleet.farm.companyId });
    expect(answer.status).toBe('success');
    expect(answer.templates.find((item) => item.template_id === template.template_id)).toMatchObject({ template_name: template.template_name, number_of_plants: 72, description: 'For clones' });
  });

  it("without an answer: 'Failed to fetch tray templates.'", async () => {
    const device = await tablet();
    fleet.proxy.setOnline(false);
    await rejects(getTrayTemplates(device.context, { companyId: fleet.farm.companyId }), m.fetchTemplatesFailed, ApiError);
  });
});

describe('create_tray_template', () => {
  const input = () => ({ templateName: unique('Plug tray'), companyId: fleet.farm.companyId, userId: fleet.farm.admin.id, numberOfPlants: 72 });

  it("needs a name, the company and the user: 'templateName, companyID and userID are required.'", async () => {
    const device = await tablet(fleet.farm.admin);
    await rejects(createTrayTemplate(device.context, { ...input(), templateName: '   ' }), m.templateRequired);
    await rejects(createTrayTemplate(device.context, { ...input(), companyId: undefined as never }), m.templateRequired);
    await rejects(createTrayTemplate(device.context, { ...input(), userId: undefined as never }), m.templateRequired);
  });

  it("needs a positive plant count: 'numberOfPlants must be a positive number.'", async () => {
    const device = await tablet(fleet.farm.admin);
    for (const numberOfPlants of [0, -3, Number.NaN, undefined as never]) await rejects(createTrayTemplate(device.context, { ...input(), numberOfPlants }), m.plantsPositive);
    expect(await device.outbox.count()).toBe(0);
  });

  it('is in the local list at once under its client id, and the server keeps that id', async () => {
    const device = await tablet(fleet.farm.admin);
    const batch = await batchKey();
    fleet.proxy.setOnline(false);
    const name = unique('Plug tray');
    const { template_id } = await createTrayTemplate(device.context, { ...input(), templateName: `  ${name}  `, description: 'Clones', defaultBatchId: batch });
    expect(isClientId(template_id)).toBe(true);
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/create_tray_template',
      body: {
        kind: 'json',
        data: { template_name: name, company_id: fleet.farm.companyId, user_id: fleet.farm.admin.id, number_of_plants: 72, description: 'Clones', default_batch_id: batch, client_id: template_id },
      },
    });
    expect(entry?.creates).toEqual([template_id]);
    const offline = await local(device, String(template_id));
    expect(offline).toMatchObject({ kind: 'tray_template', template_id, template_name: name, number_of_plants: 72, default_batch_id: batch });
    expect(offline).not.toHaveProperty('serverId');

    await reconnect(device);
    const row = await fleet.server.database.db.selectFrom('tray_templates').selectAll().where('company_id', '=', fleet.farm.companyId).where('template_name', '=', name).executeTakeFirstOrThrow();
    expect([row.number_of_plants, row.description, row.default_batch_id, row.client_id]).toEqual([72, 'Clones', fleet.batchId, template_id]);
    // The server's copy replaced the optimistic one under the same key, with the server's id beside it.
    const mine = (await ofKind(device, 'tray_template')).filter((document) => document.template_name === name);
    expect(mine.map((document) => [document.id, document.template_id, document.serverId, document.default_batch_id])).toEqual([[template_id, template_id, row.id, batch]]);
  });
});

describe('delete_tray_template', () => {
  it("needs the template and the company: 'templateID and companyID are required.'", async () => {
    const device = await tablet(fleet.farm.admin);
    await rejects(deleteTrayTemplate(device.context, { templateId: undefined as never, companyId: fleet.farm.companyId }), m.templateIdCompanyRequired);
    await rejects(deleteTrayTemplate(device.context, { templateId: 1, companyId: undefined as never }), m.templateIdCompanyRequired);
  });

  it('leaves the local list at once and is deleted on the server', async () => {
    const device = await tablet(fleet.farm.admin);
    const template = await serverTemplate(device);
    const documentId = template.key;
    expect(await local(device, documentId)).toMatchObject({ kind: 'tray_template', template_id: template.key, serverId: template.template_id });
    fleet.proxy.setOnline(false);
    await deleteTrayTemplate(device.context, { templateId: template.key, companyId: fleet.farm.companyId });
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'DELETE', path: '/delete_tray_template', body: { kind: 'json', data: { template_id: template.key, company_id: fleet.farm.companyId } } });
    expect(await local(device, documentId)).toBeNull();

    await reconnect(device);
    const row = await fleet.server.database.db.selectFrom('tray_templates').select('deleted_at').where('id', '=', template.template_id as number).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(await local(device, documentId)).toBeNull();
  });
});

describe('use_tray_template', () => {
  it("needs a tray name, trimmed ('trayName is required.'), and the template, company and user", async () => {
    const device = await tablet();
    const input = { templateId: 1, companyId: fleet.farm.companyId, userId: fleet.farm.regular.id, trayName: 'Tray' };
    await rejects(useTrayTemplate(device.context, { ...input, trayName: '   ' }), m.trayNameRequired);
    await rejects(useTrayTemplate(device.context, { ...input, templateId: undefined as never }), m.templateUseRequired);
    await rejects(useTrayTemplate(device.context, { ...input, companyId: undefined as never }), m.templateUseRequired);
    await rejects(useTrayTemplate(device.context, { ...input, userId: undefined as never }), m.templateUseRequired);
  });

  it("makes a tray at once with the template's plant count and default batch; the server makes it under the tray's client id", async () => {
    const device = await tablet();
    const batch = await batchKey();
    const template = await serverTemplate(device, { number_of_plants: 50, default_batch_id: fleet.batchId });
    // The pulled template names its default batch as the tablet does.
    expect(await local(device, template.key)).toMatchObject({ default_batch_id: batch });
    fleet.proxy.setOnline(false);
    const name = unique('From template');
    const { tray_id, tray } = await useTrayTemplate(device.context, { templateId: template.key, companyId: fleet.farm.companyId, userId: fleet.farm.regular.id, trayName: ` ${name} ` });
    expect(isClientId(tray_id)).toBe(true);
    expect(tray).toMatchObject({ tray_id, tray_name: name, number_of_plants: 50, batch_id: batch });
    expect(await local(device, String(tray_id))).toMatchObject({ kind: 'tray', tray_id, tray_name: name, number_of_plants: 50, batch_id: batch });
    const [entry] = await device.outbox.all();
    expect(entry?.body).toEqual({ kind: 'json', data: { template_id: template.key, company_id: fleet.farm.companyId, user_id: fleet.farm.regular.id, tray_name: name, client_id: tray_id } });
    expect(entry?.creates).toEqual([tray_id]);

    await reconnect(device);
    const row = await fleet.server.database.db.selectFrom('trays').selectAll().where('tray_name', '=', name).executeTakeFirstOrThrow();
    expect([row.number_of_plants, row.batch_id, row.user_id, row.client_id]).toEqual([50, fleet.batchId, fleet.farm.regular.id, tray_id]);
    const mine = (await ofKind(device, 'tray')).filter((document) => document.tray_name === name);
    expect(mine.map((document) => [document.id, document.serverId, document.batch_id])).toEqual([[tray_id, row.id, batch]]);
  });
});

describe('get_all_trays', () => {
  it("needs the company: 'companyID is required.'", async () => {
    const device = await tablet();
    await rejects(getAllTrays(device.context, { companyId: undefined as never }), m.companyIdRequired);
  });

  it('answers status and trays', async () => {
    const device = await tablet();
    const tray = await serverTray(device, { batch_id: fleet.batchId });
    const answer = await getAllTrays(device.context, { companyId: fleet.farm.companyId });
    expect(answer.status).toBe('success');
    expect(answer.trays.find((item) => item.tray_id === tray.tray_id)).toMatchObject({ tray_name: tray.tray_name, number_of_plants: 24, batch_id: fleet.batchId, company_id: fleet.farm.companyId });
  });

  it("without an answer: 'Failed to fetch trays.'", async () => {
    const device = await tablet();
    fleet.proxy.setOnline(false);
    await rejects(getAllTrays(device.context, { companyId: fleet.farm.companyId }), m.fetchTraysFailed, ApiError);
  });
});

describe('update_tray', () => {
  it("needs the tray and the company ('trayID and companyID are required.') and a positive count ('numberOfPlants must be positive.')", async () => {
    const device = await tablet();
    await rejects(updateTray(device.context, { trayId: undefined as never, companyId: fleet.farm.companyId, trayName: 'A' }), m.trayIdCompanyRequired);
    await rejects(updateTray(device.context, { trayId: 1, companyId: undefined as never, trayName: 'A' }), m.trayIdCompanyRequired);
    await rejects(updateTray(device.context, { trayId: 1, companyId: fleet.farm.companyId, numberOfPlants: 0 }), m.plantsPositiveOnUpdate);
    await rejects(updateTray(device.context, { trayId: 1, companyId: fleet.farm.companyId, numberOfPlants: -2 }), m.plantsPositiveOnUpdate);
    await rejects(updateTray(device.context, { trayId: 1, companyId: fleet.farm.companyId, trayName: '  ' }), m.trayNameRequired);
    expect(await device.outbox.count()).toBe(0);
  });

  it('sends and changes only the fields given, locally at once and on the server', async () => {
    const device = await tablet();
    const batch = await batchKey();
    const tray = await serverTray(device, { batch_id: fleet.batchId });
    fleet.proxy.setOnline(false);
    const name = unique('Renamed');
    const shown = await updateTray(device.context, { trayId: tray.key, companyId: fleet.farm.companyId, trayName: name });
    expect(shown).toMatchObject({ tray_id: tray.key, tray_name: name, number_of_plants: 24, batch_id: batch });
    await updateTray(device.context, { trayId: tray.key, companyId: fleet.farm.companyId, batchId: null });
    const [rename, unlink] = await device.outbox.all();
    expect(rename?.body).toEqual({ kind: 'json', data: { tray_id: tray.key, company_id: fleet.farm.companyId, tray_name: name } });
    expect(unlink?.body).toEqual({ kind: 'json', data: { tray_id: tray.key, company_id: fleet.farm.companyId, batch_id: null } });
    expect(await local(device, tray.key)).toMatchObject({ tray_name: name, number_of_plants: 24, batch_id: null });

    await reconnect(device);
    const row = await fleet.server.database.db.selectFrom('trays').selectAll().where('id', '=', tray.tray_id as number).executeTakeFirstOrThrow();
    expect([row.tray_name, row.number_of_plants, row.batch_id]).toEqual([name, 24, null]);
    expect(await local(device, tray.key)).toMatchObject({ tray_id: tray.key, serverId: tray.tray_id, tray_name: name, number_of_plants: 24, batch_id: null });
  });
});

describe('create_tray', () => {
  const input = () => ({ trayName: unique('Tray'), companyId: fleet.farm.companyId, userId: fleet.farm.regular.id, numberOfPlants: 24 });

  it("needs a tray name, trimmed ('trayName is required.'), a positive count, the company and the user", async () => {
    const device = await tablet();
    await rejects(createTray(device.context, { ...input(), trayName: '  ' }), m.trayNameRequired);
    await rejects(createTray(device.context, { ...input(), trayName: undefined as never }), m.trayNameRequired);
    for (const numberOfPlants of [0, -1, Number.NaN]) await rejects(createTray(device.context, { ...input(), numberOfPlants }), m.plantsPositive);
    await rejects(createTray(device.context, { ...input(), companyId: undefined as never }), m.trayCompanyUserRequired);
    await rejects(createTray(device.context, { ...input(), userId: undefined as never }), m.trayCompanyUserRequired);
    expect(await device.outbox.count()).toBe(0);
  });

  it('is in the local list at once under its client id, and the server keeps that id', async () => {
    const device = await tablet();
    const batch = await batchKey();
    fleet.proxy.setOnline(false);
    const name = unique('Seedlings');
    const { tray_id } = await createTray(device.context, { ...input(), trayName: ` ${name}`, batchId: batch });
    expect(isClientId(tray_id)).toBe(true);
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({
      method: 'POST',
      path: '/create_tray',
      body: { kind: 'json', data: { tray_name: name, company_id: fleet.farm.companyId, user_id: fleet.farm.regular.id, number_of_plants: 24, batch_id: batch, client_id: tray_id } },
    });
    expect(entry?.creates).toEqual([tray_id]);
    const offline = await local(device, String(tray_id));
    expect(offline).toMatchObject({ kind: 'tray', tray_id, tray_name: name, number_of_plants: 24, batch_id: batch });
    expect(offline).not.toHaveProperty('serverId');

    await reconnect(device);
    const row = await fleet.server.database.db.selectFrom('trays').selectAll().where('tray_name', '=', name).executeTakeFirstOrThrow();
    expect([row.number_of_plants, row.batch_id, row.client_id]).toEqual([24, fleet.batchId, tray_id]);
    const mine = (await ofKind(device, 'tray')).filter((document) => document.tray_name === name);
    expect(mine.map((document) => [document.id, document.tray_id, document.serverId, document.batch_id])).toEqual([[tray_id, tray_id, row.id, batch]]);
  });
});

describe('delete_tray', () => {
  it("needs the tray and the company: 'trayID and companyID are required.'", async () => {
    const device = await tablet(fleet.farm.admin);
    await rejects(deleteTray(device.context, { trayId: undefined as never, companyId: fleet.farm.companyId }), m.trayIdCompanyRequired);
    await rejects(deleteTray(device.context, { trayId: 1, companyId: undefined as never }), m.trayIdCompanyRequired);
  });

  it('leaves the local list at once and is deleted on the server', async () => {
    const device = await tablet(fleet.farm.admin);
    const tray = await serverTray(device);
    const documentId = tray.key;
    expect(await local(device, documentId)).toMatchObject({ kind: 'tray', tray_id: tray.key, serverId: tray.tray_id });
    fleet.proxy.setOnline(false);
    await deleteTray(device.context, { trayId: tray.key, companyId: fleet.farm.companyId });
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'POST', path: '/delete_tray', body: { kind: 'json', data: { tray_id: tray.key, company_id: fleet.farm.companyId } } });
    expect(await local(device, documentId)).toBeNull();

    await reconnect(device);
    const row = await fleet.server.database.db.selectFrom('trays').select('deleted_at').where('id', '=', tray.tray_id as number).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(await local(device, documentId)).toBeNull();
  });

  it('a tray made offline and then renamed reaches the server once, renamed', async () => {
    const device = await tablet();
    fleet.proxy.setOnline(false);
    const { tray_id } = await createTray(device.context, { trayName: unique('Offline'), companyId: fleet.farm.companyId, userId: fleet.farm.regular.id, numberOfPlants: 10 });
    const name = unique('Offline renamed');
    await updateTray(device.context, { trayId: tray_id, companyId: fleet.farm.companyId, trayName: name, numberOfPlants: 12 });
    expect(await local(device, String(tray_id))).toMatchObject({ tray_name: name, number_of_plants: 12 });
    // The rename names the tray by its client id and goes after its create.
    const [create, rename] = await device.outbox.all();
    expect(create?.creates).toEqual([tray_id]);
    expect(rename?.clientIds).toEqual([tray_id]);
    expect(rename?.body).toEqual({ kind: 'json', data: { tray_id, company_id: fleet.farm.companyId, tray_name: name, number_of_plants: 12 } });

    await reconnect(device);
    const rows = await fleet.server.database.db.selectFrom('trays').selectAll().where('tray_name', '=', name).execute();
    expect(rows.map((row) => [row.number_of_plants, row.client_id])).toEqual([[12, tray_id]]);
    const mine = (await ofKind(device, 'tray')).filter((document) => document.tray_name === name);
    expect(mine.map((document) => [document.id, document.serverId, document.number_of_plants])).toEqual([[tray_id, rows[0]?.id, 12]]);
    expect(await fleet.notFromServer(device)).toEqual([]);
  });
});
