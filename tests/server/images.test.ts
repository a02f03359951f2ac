import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileMessages } from '../../common/messages/files';
import { httpMessages } from '../../common/messages/http';
import { scanMessages as m } from '../../common/messages/scans';
import { createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let roomId: number;
let gridId: number;
let otherRoomId: number;
let otherGridId: number;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  roomId = await createRoom(server, farm.companyId);
  gridId = (await createGrid(server, farm.companyId, roomId)).id;
  otherRoomId = await createRoom(server, other.companyId);
  otherGridId = (await createGrid(server, other.companyId, otherRoomId)).id;
});
afterAll(() => server.close());

/** Minimal byte signatures: the server checks the bytes, not the name or the declared type. */
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const WEBP = Uint8Array.from([...Buffer.from('RIFF'), 4, 0, 0, 0, ...Buffer.from('WEBPVP8 ')]);
const TEXT = new TextEncoder().encode('just some text, not an image');

const blob = (bytes: Uint8Array<ArrayBuffer>, type = 'image/png') => new Blob([bytes], { type });

type Form = Record<string, string | number | Blob>;
const uploadWhiteboard = (token: string, form: Form, target = server) => target.request('POST', '/upload_whiteboard_image', { token, form });
const uploadGrid = (token: string, query: Record<string, number>, form: Form, target = server) =>
  target.request('POST', '/upload_grid_image', { token, query, form });

async function download(path: string, token?: string) {
  const response = await fetch(`${server.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, type: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('POST /upload_whiteboard_image and GET /get_whiteboard_history', () => {
  it.each([
    ['PNG', PNG, 'image/png'],
    ['JPEG', JPEG, 'image/jpeg'],
    ['WebP', WEBP, 'image/webp'],
  ])('a %s is stored, set on the room and served to the company only', async (_name, bytes, type) => {
    const room = await createRoom(server, farm.companyId);
    const response = await uploadWhiteboard(farm.regular.token, { room_id: room, imageFile: blob(bytes, type) });
    expect(response.status).toBe(200);
    const path = response.body.WhiteboardImage as string;
    expect(path).toMatch(/^\/api\/files\/[0-9a-f-]{36}$/);
    expect(response.body).toMatchObject({ status: 'success', message: m.whiteboardUploaded, room: { RoomID: room, WhiteboardImage: path } });

    const served = await download(path, farm.admin.token);
    expect(served.status).toBe(200);
    expect(served.type).toBe(type);
    expect(served.bytes).toEqual(bytes);
    expect((await download(path, other.admin.token)).status).toBe(403);
    expect((await download(path)).status).toBe(401);
  });

  it('a file the database knows but this instance’s storage does not (uploads not shared) answers 404, not 500', async () => {
    const room = await createRoom(server, farm.companyId);
    const path = (await uploadWhiteboard(farm.regular.token, { room_id: room, imageFile: blob(PNG) })).body.WhiteboardImage as string;
    const stored = await server.database.db.selectFrom('files').select('storage_key').where('id', '=', path.split('/').at(-1)!).executeTakeFirstOrThrow();
    rmSync(join(server.config.dataDir, 'uploads', ...stored.storage_key!.split('/')));
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${farm.admin.token}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ status: 'error', message: fileMessages.notFound });
  });

  it('the history lists every upload, newest first, and the audit trail has them', async () => {
    const room = await createRoom(server, farm.companyId);
    const first = await uploadWhiteboard(farm.regular.token, { room_id: room, imageFile: blob(PNG) });
    const second = await uploadWhiteboard(farm.admin.token, { room_id: room, imageFile: blob(JPEG, 'image/jpeg') });
    const response = await server.request('GET', '/get_whiteboard_history', { token: farm.regular.token, query: { room_id: room } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      history: [
        { ImagePath: second.body.WhiteboardImage, UploadedBy: farm.admin.id },
        { ImagePath: first.body.WhiteboardImage, UploadedBy: farm.regular.id },
      ],
    });
    const history = response.body.history as { id: number; UploadedAt: string }[];
    expect(history).toHaveLength(2);
    expect(history[0]?.UploadedAt).toEqual(expect.any(String));
    const events = await server.database.db.selectFrom('audit_events').select('id').where('room_id', '=', room).execute();
    expect(events).toHaveLength(2);
  });

  it('a text file named .png answers 415', async () => {
    const response = await uploadWhiteboard(farm.regular.token, { room_id: roomId, imageFile: new File([TEXT], 'fake.png', { type: 'image/png' }) });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ status: 'error', message: fileMessages.imageType });
  });

  it('a missing file answers 400, a missing room 400', async () => {
    const noFile = await uploadWhiteboard(farm.regular.token, { room_id: roomId });
    expect(noFile.status).toBe(400);
    expect(noFile.body).toEqual({ status: 'error', message: fileMessages.imageRequired });
    const noRoom = await uploadWhiteboard(farm.regular.token, { imageFile: blob(PNG) });
    expect(noRoom.status).toBe(400);
    expect(noRoom.body).toEqual({ status: 'error', message: m.roomIdRequired });
    const noHistoryRoom = await server.request('GET', '/get_whiteboard_history', { token: farm.regular.token });
    expect(noHistoryRoom.body).toEqual({ status: 'error', message: m.roomIdRequired });
  });

  it('another company’s room answers 403', async () => {
    expect((await uploadWhiteboard(farm.regular.token, { room_id: otherRoomId, imageFile: blob(PNG) })).status).toBe(403);
    expect((await server.request('GET', '/get_whiteboard_history', { token: farm.regular.token, query: { room_id: otherRoomId } })).status).toBe(403);
  });
});

describe('POST /upload_grid_image and GET /get_grid_background', () => {
  it('sets the grid’s image, which the room’s grid backgrounds then show', async () => {
    const room = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, room);
    const bare = await createGrid(server, farm.companyId, room);
    const response = await uploadGrid(farm.regular.token, { GridID: grid.id }, { image: blob(WEBP, 'image/webp') });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', ImageName: expect.stringMatching(/^\/api\/files\//) });
    const path = response.body.ImageName as string;
    const served = await download(path, farm.regular.token);
    expect(served).toMatchObject({ status: 200, type: 'image/webp' });
    expect(served.bytes).toEqual(WEBP);

    const backgrounds = await server.request('GET', '/get_grid_background', { token: farm.regular.token, query: { RoomID: room } });
    expect(backgrounds.status).toBe(200);
    expect(backgrounds.body).toEqual({
      status: 'success',
      grids: [
        { id: grid.id, Name: expect.any(String), ImageName: path },
        { id: bare.id, Name: expect.any(String), ImageName: null },
      ],
    });
    const events = await server.database.db.selectFrom('audit_events').select('id').where('room_id', '=', room).execute();
    expect(events).toHaveLength(1);
  });

  it('answers 400 without GridID, RoomID or image, and 415 for wrong bytes', async () => {
    expect((await uploadGrid(farm.regular.token, {}, { image: blob(PNG) })).body).toEqual({ status: 'error', message: m.gridImageIdRequired });
    const noFile = await uploadGrid(farm.regular.token, { GridID: gridId }, {});
    expect(noFile.status).toBe(400);
    expect(noFile.body).toEqual({ status: 'error', message: fileMessages.imageRequired });
    expect((await uploadGrid(farm.regular.token, { GridID: gridId }, { image: blob(TEXT) })).status).toBe(415);
    const noRoom = await server.request('GET', '/get_grid_background', { token: farm.regular.token });
    expect(noRoom.status).toBe(400);
    expect(noRoom.body).toEqual({ status: 'error', message: m.gridRoomIdRequired });
  });

  it('another company’s grid or room answers 403', async () => {
    expect((await uploadGrid(farm.regular.token, { GridID: otherGridId }, { image: blob(PNG) })).status).toBe(403);
    expect((await server.request('GET', '/get_grid_background', { token: farm.regular.token, query: { RoomID: otherRoomId } })).status).toBe(403);
  });
});

describe('upload limit', () => {
  let small: TestServer;
  let tenant: Tenant;
  beforeAll(async () => {
    small = await startServer({ uploadLimitBytes: 1024 });
    tenant = await createTenant(small);
  });
  afterAll(() => small.close());

  it('a file over the limit answers 413 on both uploads', async () => {
    const room = await createRoom(small, tenant.companyId);
    const grid = await createGrid(small, tenant.companyId, room);
    const big = new Uint8Array(4096);
    big.set(PNG);
    const whiteboard = await uploadWhiteboard(tenant.regular.token, { room_id: room, imageFile: blob(big) }, small);
    expect(whiteboard.status).toBe(413);
    expect(whiteboard.body).toEqual({ status: 'error', message: httpMessages.payloadTooLarge });
    expect((await uploadGrid(tenant.regular.token, { GridID: grid.id }, { image: blob(big) }, small)).status).toBe(413);
    // Nothing was kept.
    const stored = await small.database.db.selectFrom('rooms').select('whiteboard_image').where('id', '=', room).executeTakeFirstOrThrow();
    expect(stored.whiteboard_image).toBeNull();
  });
});
