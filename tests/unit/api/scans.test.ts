/**
 * Scans' domain functions (src/api/scans.ts) on a real tablet (outbox, RxDB, sync engine) against the
 * real server, behind a proxy that can cut the network.
 */
import { describe, expect, it } from 'vitest';
import { fileMessages } from '../../../common/messages/files';
import { scanClientMessages, scanMessages } from '../../../common/messages/scans';
import { ValidationError } from '../../../src/api/context';
import {
  deleteScan,
  getGridScanDetails,
  getRoomScanDetails,
  getWhiteboardHistory,
  markGridScanned,
  markRoomScanned,
  resetScannedStatus,
  uploadWhiteboardImage,
} from '../../../src/api/scans';
import { clientIdOf, createGrid, createRoom, createScan } from '../../support/factories';
import { useFleet } from '../../support/fleet';

const fleet = useFleet();
/** `tablet()`: a tablet that has pulled what the server holds, with its context. */
const { reconnect, notFromServer, tabletAndContext: tablet } = fleet;

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

describe('marking scanned', () => {
  it('markRoomScanned is queued; the room shows scanned by the user at once, then on the server', async () => {
    const roomId = await createRoom(fleet.server, fleet.farm.companyId);
    const roomKey = await clientIdOf(fleet.server, 'rooms', roomId);
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    await markRoomScanned(context, { roomId: roomKey, userId: fleet.farm.regular.id });
    expect((await device.outbox.all()).map((entry) => [entry.path, entry.query])).toEqual([['/mark_room_scanned', { room_id: roomKey, user_id: fleet.farm.regular.id }]]);
    const local = await device.database.rooms.findOne(roomKey).exec();
    expect([local?.get('Scanned'), local?.get('LastScannedBy'), typeof local?.get('ScannedDateTime')]).toEqual([true, fleet.farm.regular.id, 'string']);

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const row = await fleet.server.database.db.selectFrom('rooms').select(['scanned', 'last_scanned_by']).where('id', '=', roomId).executeTakeFirstOrThrow();
    expect(row).toEqual({ scanned: true, last_scanned_by: fleet.farm.regular.id });
    expect(await getRoomScanDetails(context, { roomId: roomKey })).toMatchObject({ status: 'success', Scanned: true, LastScannedBy: fleet.farm.regular.id, LastScannedByName: expect.any(String) });
  });

  it('markGridScanned is queued; the grid shows scanned at once, then on the server', async () => {
    const grid = await createGrid(fleet.server, fleet.farm.companyId, await createRoom(fleet.server, fleet.farm.companyId), 1, 1);
    const gridKey = await clientIdOf(fleet.server, 'grids', grid.id);
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    await markGridScanned(context, { gridId: gridKey, userId: fleet.farm.regular.id });
    expect((await device.outbox.all()).map((entry) => entry.path)).toEqual(['/mark_grid_scanned']);
    expect((await device.database.grids.findOne(gridKey).exec())?.get('Scanned')).toBe(true);

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const row = await fleet.server.database.db.selectFrom('grids').select(['scanned', 'last_scanned_by']).where('id', '=', grid.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ scanned: true, last_scanned_by: fleet.farm.regular.id });
    expect(await getGridScanDetails(context, { gridId: gridKey })).toMatchObject({ status: 'success', Scanned: true, LastScannedBy: fleet.farm.regular.id });
  });

  it('marking needs the record and the user', async () => {
    const { context } = await tablet();
    await expect(markRoomScanned(context, { roomId: 0, userId: fleet.farm.regular.id })).rejects.toThrow(new ValidationError(scanMessages.roomIdRequired));
    await expect(markGridScanned(context, { gridId: 1, userId: 0 })).rejects.toThrow(new ValidationError(scanMessages.userIdRequired));
  });

  it('resetScannedStatus (Admin) is queued; every room and grid of the company is cleared at once, then on the server', async () => {
    const roomId = await createRoom(fleet.server, fleet.farm.companyId);
    const grid = await createGrid(fleet.server, fleet.farm.companyId, roomId, 1, 1);
    const [roomKey, gridKey] = [await clientIdOf(fleet.server, 'rooms', roomId), await clientIdOf(fleet.server, 'grids', grid.id)];
    const { device, context } = await tablet(fleet.farm.admin);
    await markRoomScanned(context, { roomId: roomKey, userId: fleet.farm.admin.id });
    await markGridScanned(context, { gridId: gridKey, userId: fleet.farm.admin.id });
    await device.engine.settle();

    fleet.proxy.setOnline(false);
    await resetScannedStatus(context, { companyId: fleet.farm.companyId });
    expect((await device.outbox.all()).map((entry) => entry.path)).toEqual(['/reset_scanned_status']);
    expect((await device.database.rooms.find({ selector: { Scanned: true } }).exec()).length).toBe(0);
    expect((await device.database.grids.findOne(gridKey).exec())?.get('LastScannedBy')).toBeNull();

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const rooms = await fleet.server.database.db.selectFrom('rooms').select('id').where('company_id', '=', fleet.farm.companyId).where('scanned', '=', true).execute();
    expect(rooms).toEqual([]);
    expect((await device.database.rooms.findOne(roomKey).exec())?.get('Scanned')).toBe(false);
  });
});

describe('scan details', () => {
  it('swallow failures and answer null', async () => {
    const { context } = await tablet();
    expect(await getRoomScanDetails(context, { roomId: 987654 })).toBeNull();
    expect(await getGridScanDetails(context, { gridId: 987654 })).toBeNull();
    expect(await getRoomScanDetails(context, { roomId: 0 })).toBeNull();
  });
});

describe('whiteboard', () => {
  it('uploadWhiteboardImage is queued with the file as a Blob part; the history and the room show it from the server', async () => {
    const roomId = await createRoom(fleet.server, fleet.farm.companyId);
    const roomKey = await clientIdOf(fleet.server, 'rooms', roomId);
    const { device, context } = await tablet();
    fleet.proxy.setOnline(false);
    await uploadWhiteboardImage(context, { roomId: roomKey, image: new File([PNG], 'board.png', { type: 'image/png' }) });
    const [entry] = await device.outbox.all();
    expect(entry).toMatchObject({ method: 'POST', path: '/upload_whiteboard_image' });
    const parts = entry?.body.kind === 'multipart' ? entry.body.parts : [];
    expect(parts.map((part) => ('blob' in part ? [part.name, part.fileName] : [part.name, part.value]))).toEqual([
      ['room_id', roomKey],
      ['imageFile', 'board.png'],
    ]);
    // Decision: nothing changes locally until the server names the stored file.
    expect((await device.database.rooms.findOne(roomKey).exec())?.get('WhiteboardImage')).toBeNull();

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    const history = await getWhiteboardHistory(context, { roomId: roomKey });
    expect(history.history).toHaveLength(1);
    expect(history.history[0]).toMatchObject({ ImagePath: expect.stringMatching(/^\/api\/files\//), UploadedBy: fleet.farm.regular.id });
    expect((await device.database.rooms.findOne(roomKey).exec())?.get('WhiteboardImage')).toBe(history.history[0]?.ImagePath);
  });

  it('uploadWhiteboardImage needs a room id and an image file', async () => {
    const { context } = await tablet();
    await expect(uploadWhiteboardImage(context, { roomId: 0, image: new Blob([PNG]) })).rejects.toThrow(new ValidationError(scanMessages.roomIdRequired));
    await expect(uploadWhiteboardImage(context, { roomId: 1, image: new Blob([]) })).rejects.toThrow(new ValidationError(fileMessages.imageRequired));
  });

  it('getWhiteboardHistory needs a room id', async () => {
    const { context } = await tablet();
    await expect(getWhiteboardHistory(context, { roomId: 0 })).rejects.toThrow(new ValidationError(scanMessages.roomIdRequired));
  });
});

describe('deleteScan', () => {
  it('needs scan id and company id: "Delete scan needs scan id and company id"', async () => {
    const { context } = await tablet(fleet.farm.admin);
    const message = new ValidationError(scanClientMessages.deleteScanFieldsRequired);
    await expect(deleteScan(context, { companyId: fleet.farm.companyId, scanId: 0 })).rejects.toThrow(message);
    await expect(deleteScan(context, { companyId: 0, scanId: 5 })).rejects.toThrow(message);
  });

  it('is queued and tombstones the scan on the server', async () => {
    const scanId = await createScan(fleet.server, fleet.farm.companyId);
    const { device, context } = await tablet(fleet.farm.admin);
    fleet.proxy.setOnline(false);
    await deleteScan(context, { companyId: fleet.farm.companyId, scanId });
    expect((await device.outbox.all()).map((entry) => [entry.method, entry.path, entry.query])).toEqual([['DELETE', '/delete_scan', { company_id: fleet.farm.companyId, scan_id: scanId }]]);

    await reconnect(device);
    expect(await notFromServer(device)).toEqual([]);
    expect(await device.outbox.count()).toBe(0);
    const row = await fleet.server.database.db.selectFrom('scans').select('deleted_at').where('id', '=', scanId).executeTakeFirstOrThrow();
    expect(row.deleted_at).not.toBeNull();
  });
});
