/**
 * Grids' domain functions (src/api/grids.ts) on a real tablet (outbox, RxDB, sync engine) against the
 * real server, behind a proxy that can cut the network.
 */
import { describe, expect, it } from 'vitest';
import { fileMessages } from '../../../common/messages/files';
import { gridMessages } from '../../../common/messages/grids';
import { scanMessages } from '../../../common/messages/scans';
import { ValidationError } from '../../../src/api/context';
import { deleteGrid, getCulledGridboxes, getGridBackground, getGridboxesNames, getPlantHistoryDate, updateCullingStatus, updateGridBoxName, uploadGridImage } from '../../../src/api/grids';
import { clientIdOf, clientIdsOf, createBatch, createGrid } from '../../support/factories';
import { useFleet } from '../../support/fleet';

const fleet = useFleet({ room: true });
/** `tablet()`: a tablet that has pulled what the server holds, with its context. */
const { reconnect, notFromServer, tabletAndContext: tablet } = fleet;

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

describe('deleteGrid', () => {
  it('is queued; the grid, its boxes and the batches’ links to them leave the local store at once', async () => {
    const grid = await createGrid(fleet.server, fleet.farm.companyId, fleet.roomId, 2, 1);
    const batchId = await createBatch(fleet.server, fleet.farm.companyId);
    expect((await fleet.server.request('POST', '/link_grid_batch', { token: fleet.farm.admin.token, query: { grid_id: grid.id, batch_id: batchId } })).status).toBe(200);
    const [gridKey, batchKey] = [await clientIdOf(fleet.server, 'grids', grid.id), await clientIdOf(fleet.server, 'batches', batchId)];
    const { device, context } = await tablet(fleet.farm.admin);
    expect((await device.database.batches.findOne(batchKey).exec())?.get('GridIDs')).toEqual([gridKey]);

    fleet.proxy.setOnline(false);
    await deleteGrid(context, { gridId: gridKey });
    expect((await device.outbox.all()).map((entry) => [entry.method, entry.path, entry.query])).toEqual([['PUT', '/delete_grid', { grid_id: gridKey }]]);
    expect(await device.database.grids.findOne(gridKey).exec()).toBeNull();
    expect(await device.database.grid_boxes.find({ selector: { gridId: gridKey } }).exec()).toHaveLength(0);
    expect((await device.database.batches.findOne(batchKey).exec())?.get('GridIDs')).toEqual([]);

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const row = await fleet.server.database.db.selectFrom('grids').select('deleted_at').where('id', '=', grid.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
    expect(await device.database.grids.findOne(gridKey).exec()).toBeNull();
  });

  it('needs a grid id', async () => {
    const { context } = await tablet(fleet.farm.admin);
    await expect(deleteGrid(context, { gridId: 0 })).rejects.toThrow(new ValidationError(gridMessages.gridIdRequired));
  });
});

describe('culled boxes', () => {
  it('getCulledGridboxes answers the grid’s culled boxes after a queued cull reached the server', async () => {
    const grid = await createGrid(fleet.server, fleet.farm.companyId, fleet.roomId, 2, 1);
    const { device, context } = await tablet();
    await updateCullingStatus(context, { gridBoxId: await clientIdOf(fleet.server, 'grid_boxes', grid.boxIds[1] as number), userId: fleet.farm.regular.id, culled: true });
    await device.engine.settle();
    const culled = await getCulledGridboxes(context, { gridId: grid.id });
    expect(culled.map((box) => [box.id, box.culled, box.CulledBy])).toEqual([[grid.boxIds[1], true, fleet.farm.regular.id]]);
  });

  it('getCulledGridboxes needs GridID', async () => {
    const { context } = await tablet();
    await expect(getCulledGridboxes(context, { gridId: 0 })).rejects.toThrow(new ValidationError(gridMessages.gridIdMissing));
  });
});

describe('grid box names', () => {
  it('updateGridBoxName is queued and shown at once; an empty name clears it', async () => {
    const grid = await createGrid(fleet.server, fleet.farm.companyId, fleet.roomId, 2, 1);
    const [first, second] = grid.boxIds as [number, number];
    const [firstKey, secondKey] = await clientIdsOf(fleet.server, 'grid_boxes', [first, second]);
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    await updateGridBoxName(context, { gridBoxId: firstKey!, customName: '  Mother plant ' });
    await updateGridBoxName(context, { gridBoxId: secondKey!, customName: '' });
    expect((await device.outbox.all()).map((entry) => entry.path)).toEqual(['/update_grid_box_name', '/update_grid_box_name']);
    expect((await device.database.grid_boxes.findOne(firstKey!).exec())?.get('CustomName')).toBe('Mother plant');
    expect((await device.database.grid_boxes.findOne(secondKey!).exec())?.get('CustomName')).toBeNull();

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const rows = await fleet.server.database.db.selectFrom('grid_boxes').select(['id', 'custom_name']).where('grid_id', '=', grid.id).orderBy('x').execute();
    expect(rows.map((row) => row.custom_name)).toEqual(['Mother plant', null]);
    expect(await getGridboxesNames(context, { gridId: grid.id })).toEqual([
      { id: first, CustomName: 'Mother plant', X: 1, Y: 1 },
      { id: second, CustomName: null, X: 2, Y: 1 },
    ]);
  });

  it('updateGridBoxName needs GridBoxID', async () => {
    const { context } = await tablet();
    await expect(updateGridBoxName(context, { gridBoxId: 0, customName: 'x' })).rejects.toThrow(new ValidationError(gridMessages.gridBoxIdRequired));
  });
});

describe('getPlantHistoryDate', () => {
  it('answers the plant position’s history by day', async () => {
    const grid = await createGrid(fleet.server, fleet.farm.companyId, fleet.roomId, 1, 1);
    const boxId = grid.boxIds[0] as number;
    const { device, context } = await tablet();
    await updateGridBoxName(context, { gridBoxId: await clientIdOf(fleet.server, 'grid_boxes', boxId), customName: 'Clone 4' });
    await device.engine.settle();
    const history = await getPlantHistoryDate(context, { companyId: fleet.farm.companyId, gridBoxId: boxId });
    expect(history).toHaveLength(1);
    expect(history[0]?.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(history[0]?.events.map((event) => event.EventTitle)).toEqual(['Renamed plant to Clone 4']);
  });

  it('a 404 is an empty list', async () => {
    const { context } = await tablet();
    expect(await getPlantHistoryDate(context, { companyId: fleet.farm.companyId, gridBoxId: 987654 })).toEqual([]);
  });
});

describe('grid images', () => {
  it('uploadGridImage is queued with the file as a Blob part, and the grid gets its image from the server', async () => {
    const grid = await createGrid(fleet.server, fleet.farm.companyId, fleet.roomId, 1, 1);
    const gridKey = await clientIdOf(fleet.server, 'grids', grid.id);
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    await uploadGridImage(context, { gridId: gridKey, image: new Blob([PNG], { type: 'image/png' }), fileName: 'bench.png' });
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'POST', path: '/upload_grid_image', query: { GridID: gridKey } });
    const part = entry?.body.kind === 'multipart' ? entry.body.parts[0] : undefined;
    expect(part && 'blob' in part ? [part.name, part.fileName, part.blob.size] : null).toEqual(['image', 'bench.png', PNG.length]);
    // Decision: nothing changes locally until the server names the stored file.
    expect((await device.database.grids.findOne(gridKey).exec())?.get('ImageName')).toBeNull();

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const row = await fleet.server.database.db.selectFrom('grids').select('image_name').where('id', '=', grid.id).executeTakeFirstOrThrow();
    expect(row.image_name).toMatch(/^\/api\/files\//);
    expect((await device.database.grids.findOne(gridKey).exec())?.get('ImageName')).toBe(row.image_name);
    const backgrounds = await getGridBackground(context, { roomId: fleet.roomId });
    expect(backgrounds?.find((background) => background.id === grid.id)).toEqual({ id: grid.id, Name: expect.any(String), ImageName: row.image_name });
  });

  it('uploadGridImage needs GridID and an image file', async () => {
    const { context } = await tablet();
    await expect(uploadGridImage(context, { gridId: 0, image: new Blob([PNG]) })).rejects.toThrow(new ValidationError(scanMessages.gridImageIdRequired));
    await expect(uploadGridImage(context, { gridId: 1, image: new Blob([]) })).rejects.toThrow(new ValidationError(fileMessages.imageRequired));
    await expect(uploadGridImage(context, { gridId: 1, image: undefined as unknown as Blob })).rejects.toThrow(new ValidationError(fileMessages.imageRequired));
  });

  it('getGridBackground swallows failures and answers null', async () => {
    const { context } = await tablet();
    expect(await getGridBackground(context, { roomId: 987654 })).toBeNull();
    expect(await getGridBackground(context, { roomId: 0 })).toBeNull();
  });
});
