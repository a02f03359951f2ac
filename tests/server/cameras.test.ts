/**
 * Automated cameras (issue 17; server/domains/cameras) over HTTP on a real database with the real job
 * queue. A local HTTP server stands in for IP cameras (PNG snapshots made with sharp, an HTML page, a
 * failing camera); the test server allows private addresses (ALLOW_PRIVATE_WEBHOOKS) and intervals of
 * seconds (CAMERA_MIN_INTERVAL_SECONDS), so scheduled snapshots arrive while the test waits (with a
 * deadline, never a sleep). A second server without the allowance refuses the local address. Phone
 * cameras upload with a device token until it is revoked.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { unlink } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraMessages, fetchProblems, SNAPSHOT_SECRET_MASK } from '../../common/messages/cameras';
import { fileMessages } from '../../common/messages/files';
import { httpMessages } from '../../common/messages/http';
import type { CameraCaptureRecord, CameraImageRecord, CameraRecord, DeviceConfig, DeviceTokenRecord } from '../../common/schemas/cameras';
import { removeExpiredCameraImages } from '../../server/domains/cameras/retention';
import { createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { waitFor } from '../support/mail';
import { type ApiResponse, startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let roomId: number;
let camera: Awaited<ReturnType<typeof startCamera>>;

/** A small PNG of one colour: each snapshot differs, as a real camera's frames do. */
const png = (shade: number) => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: shade % 256, g: 160, b: 40 } } }).png().toBuffer();

interface Hit {
  path: string;
  authorization: string | undefined;
}

/** IP cameras on 127.0.0.1: /snap.png answers a PNG, /page.html a web page, /down 503; each request is recorded. */
async function startCamera() {
  const hits: Hit[] = [];
  const http: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://camera.test');
    hits.push({ path: `${url.pathname}${url.search}`, authorization: request.headers.authorization });
    if (url.pathname === '/snap.png') {
      void png(hits.length * 37).then((bytes) => response.writeHead(200, { 'content-type': 'image/png' }).end(bytes));
    } else if (url.pathname === '/page.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body>Login</body></html>');
    } else {
      response.writeHead(503, { 'content-type': 'text/plain' }).end('busy');
    }
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return { base, hits, close: () => new Promise<void>((resolve) => http.close(() => resolve())) };
}

beforeAll(async () => {
  server = await startServer({ allowPrivateWebhooks: true, cameraMinIntervalSeconds: 1 });
  farm = await createTenant(server);
  other = await createTenant(server);
  roomId = await createRoom(server, farm.companyId, 'Flower 1');
  camera = await startCamera();
});
afterAll(async () => {
  await server?.close();
  await camera?.close();
});

const ok = <T>(response: ApiResponse<T>): T => {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

/** An IP camera of the farm photographing `path` every `seconds`; answers it as created. */
async function addIpCamera(path: string, seconds: number, extra: Record<string, unknown> = {}): Promise<CameraRecord> {
  const body = ok(
    await server.request<{ camera: CameraRecord }>('POST', '/create_camera', {
      token: farm.admin.token,
      json: { company_id: farm.companyId, name: `Camera ${path}`, room_id: roomId, kind: 'ip', snapshot_url: `${camera.base}${path}`, interval_minutes: seconds / 60, ...extra },
    }),
  );
  return body.camera;
}

const imagesOf = async (cameraId: number, token = farm.admin.token, query: Record<string, string | number> = {}) =>
  ok(await server.request<{ images: CameraImageRecord[]; total: number }>('GET', '/get_camera_images', { token, query: { camera_id: cameraId, ...query } }));

const cameraOf = async (cameraId: number, token = farm.admin.token) => ok(await server.request<{ camera: CameraRecord }>('GET', '/get_camera', { token, query: { camera_id: cameraId } })).camera;

describe('IP cameras', () => {
  it('photographs a camera on its schedule: the snapshots appear in its timeline, newest first, with thumbnails and an analysis', async () => {
    const added = await addIpCamera('/snap.png', 1);
    expect(added).toMatchObject({ kind: 'ip', state: 'waiting', interval_seconds: 1, enabled: true, room_name: 'Flower 1', last_image: null });
    // Three images: the first at once, the others by the schedule.
    const { images } = await waitFor('three scheduled snapshots', async () => {
      const timeline = await imagesOf(added.camera_id);
      return timeline.total >= 3 && timeline;
    });
    expect(images.every((image) => image.source === 'fetch' && image.camera_id === added.camera_id)).toBe(true);
    const times = images.map((image) => Date.parse(image.captured_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(camera.hits.filter((hit) => hit.path === '/snap.png').length).toBeGreaterThanOrEqual(3);

    // The image is the camera's bytes, served to the company only.
    const [newest] = images;
    const file = await fetch(`${server.url}${newest!.image_path}`, { headers: { authorization: `Bearer ${farm.regular.token}` } });
    expect(file.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).width).toBe(64);
    expect((await server.request('GET', newest!.image_path.replace(/^\/api/, ''), { token: other.admin.token })).status).toBe(403);

    // Each image gets its thumbnail and its analysis (or the reason there is none) from the image job.
    const analysed = await waitFor('an analysed image', async () => (await imagesOf(added.camera_id)).images.find((image) => image.analysis !== null && image.thumbnail_path !== null));
    expect(analysed.analysis).toHaveProperty('type');
    const thumbnail = await fetch(`${server.url}${analysed.thumbnail_path!}`, { headers: { authorization: `Bearer ${farm.admin.token}` } });
    expect(thumbnail.headers.get('content-type')).toBe('image/jpeg');

    const listed = ok(await server.request<{ cameras: CameraRecord[] }>('GET', '/get_cameras', { token: farm.regular.token, query: { company_id: farm.companyId } }));
    const mine = listed.cameras.find((entry) => entry.camera_id === added.camera_id)!;
    expect(mine).toMatchObject({ state: 'ok', failures: 0, last_error: null });
    expect(mine.last_image).not.toBeNull();
    expect(mine.last_capture_at).not.toBeNull();

    // Paused: it stops being scheduled.
    const paused = ok(await server.request<{ camera: CameraRecord }>('POST', '/update_camera', { token: farm.admin.token, json: { camera_id: added.camera_id, name: added.name, room_id: roomId, snapshot_url: `${camera.base}/snap.png`, interval_minutes: 1 / 60, enabled: false } }));
    expect(paused.camera).toMatchObject({ enabled: false, next_capture_at: null });
  });

  it('a page, not an image, is refused: the camera shows failing with the reason and no image is kept', async () => {
    const added = await addIpCamera('/page.html', 60);
    const failing = await waitFor('the camera failing', async () => {
      const now = await cameraOf(added.camera_id);
      return now.state === 'failing' && now;
    });
    expect(failing.last_error).toBe(fetchProblems.notImage('text/html'));
    expect((await imagesOf(added.camera_id)).total).toBe(0);
  });

  it('a camera that keeps failing shows failing after a few tries in a row, with the camera’s answer', async () => {
    const added = await addIpCamera('/down', 1);
    const failing = await waitFor('the camera failing', async () => {
      const now = await cameraOf(added.camera_id);
      return now.state === 'failing' && now;
    });
    expect(failing.failures).toBeGreaterThanOrEqual(3);
    expect(failing.last_error).toBe(fetchProblems.status(503));
  });

  it('masks the credentials of a snapshot address in answers, uses them for the fetch, and keeps them when the masked address is saved back', async () => {
    const added = await addIpCamera('/snap.png?pwd=hunter2&size=small', 3600, { snapshot_url: `http://viewer:secret@${camera.base.slice('http://'.length)}/snap.png?pwd=hunter2&size=small` });
    expect(added.snapshot_url).toContain(`viewer:${encodeURIComponent(SNAPSHOT_SECRET_MASK)}@`);
    expect(added.snapshot_url).not.toContain('secret');
    expect(added.snapshot_url).not.toContain('hunter2');
    expect(added.snapshot_url).toContain('size=small');
    // Growers see no address at all.
    expect((await cameraOf(added.camera_id, farm.regular.token)).snapshot_url).toBeNull();
    // The first fetch went with the credentials.
    await waitFor('the first fetch', () => camera.hits.find((hit) => hit.path.includes('pwd=hunter2')));
    const first = camera.hits.find((hit) => hit.path.includes('pwd=hunter2'))!;
    expect(first.authorization).toBe(`Basic ${Buffer.from('viewer:secret').toString('base64')}`);

    // Saved back as shown (renamed): the stored secrets stay, and a capture asked now uses them.
    ok(await server.request('POST', '/update_camera', { token: farm.admin.token, json: { camera_id: added.camera_id, name: 'Bench camera', room_id: roomId, snapshot_url: added.snapshot_url, interval_minutes: 60 } }));
    const before = camera.hits.length;
    ok(await server.request('POST', '/capture_camera_now', { token: farm.admin.token, query: { camera_id: added.camera_id } }));
    const again = await waitFor('the capture asked now', () => camera.hits.slice(before).find((hit) => hit.path.startsWith('/snap.png?')));
    expect(again.path).toContain('pwd=hunter2');
    expect(again.authorization).toBe(`Basic ${Buffer.from('viewer:secret').toString('base64')}`);
    expect((await cameraOf(added.camera_id)).name).toBe('Bench camera');
  });

  it('checks where a camera looks and its interval', async () => {
    const grid = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId, 'Veg 1'));
    const create = (fields: Record<string, unknown>) =>
      server.request('POST', '/create_camera', { token: farm.admin.token, json: { name: 'Checked', room_id: roomId, kind: 'ip', snapshot_url: `${camera.base}/snap.png`, interval_minutes: 10, ...fields } });
    expect((await create({ grid_id: grid.id })).body).toEqual({ status: 'error', message: cameraMessages.gridNotInRoom });
    expect((await create({ interval_minutes: 2000 })).body).toEqual({ status: 'error', message: cameraMessages.intervalOutOfRange(1) });
    expect((await create({ snapshot_url: '' })).body).toEqual({ status: 'error', message: cameraMessages.snapshotUrlRequired });
    expect((await create({ snapshot_url: 'ftp://camera.test/x.jpg' })).body).toEqual({ status: 'error', message: cameraMessages.snapshotUrlInvalid });
    expect((await create({ model_key: 'custom-nothing' })).body).toEqual({ status: 'error', message: cameraMessages.modelUnknown('custom-nothing') });
    expect((await create({ kind: 'device' })).body).toEqual({ status: 'error', message: cameraMessages.snapshotUrlForDevice });
  });
});

describe('who may do what', () => {
  it('a Regular user cannot add, change or delete cameras, nor make device links (403)', async () => {
    const added = await addIpCamera('/snap.png', 3600);
    const json = { company_id: farm.companyId, name: 'Mine', room_id: roomId, kind: 'device', interval_minutes: 10 };
    expect(await server.request('POST', '/create_camera', { token: farm.regular.token, json })).toMatchObject({ status: 403, body: { status: 'error', message: httpMessages.roleForbidden } });
    expect((await server.request('DELETE', '/delete_camera', { token: farm.regular.token, json: { camera_id: added.camera_id } })).status).toBe(403);
    expect((await server.request('POST', '/capture_camera_now', { token: farm.regular.token, json: { camera_id: added.camera_id } })).status).toBe(403);
    expect((await server.request('GET', '/get_camera_device_tokens', { token: farm.regular.token, query: { camera_id: added.camera_id } })).status).toBe(403);
  });

  it('another company’s camera answers 403, a missing one 404', async () => {
    const added = await addIpCamera('/snap.png', 3600);
    const forbidden = { status: 403, body: { status: 'error', message: httpMessages.otherCompany } };
    const as = other.admin.token;
    expect(await server.request('GET', '/get_camera', { token: as, query: { camera_id: added.camera_id } })).toMatchObject(forbidden);
    expect(await server.request('GET', '/get_camera_images', { token: as, query: { camera_id: added.camera_id } })).toMatchObject(forbidden);
    expect(await server.request('POST', '/update_camera', { token: as, json: { camera_id: added.camera_id, name: 'Taken', room_id: await createRoom(server, other.companyId), snapshot_url: `${camera.base}/snap.png` } })).toMatchObject(forbidden);
    expect(await server.request('DELETE', '/delete_camera', { token: as, json: { camera_id: added.camera_id } })).toMatchObject(forbidden);
    expect(await server.request('POST', '/capture_camera_now', { token: as, json: { camera_id: added.camera_id } })).toMatchObject(forbidden);
    expect(await server.request('GET', '/get_cameras', { token: as, query: { company_id: farm.companyId } })).toMatchObject(forbidden);
    // Their own room for my company's camera is refused too.
    expect(await server.request('POST', '/create_camera', { token: farm.admin.token, json: { name: 'x', room_id: await createRoom(server, other.companyId), kind: 'device', interval_minutes: 10 } })).toMatchObject(forbidden);
    expect(await server.request('GET', '/get_camera', { token: farm.admin.token, query: { camera_id: 2_000_000_000 } })).toMatchObject({ status: 404, body: { status: 'error', message: httpMessages.recordNotFound('camera 2000000000') } });
    // Deleted: gone for everyone.
    ok(await server.request('DELETE', '/delete_camera', { token: farm.admin.token, query: { camera_id: added.camera_id } }));
    expect((await server.request('GET', '/get_camera', { token: farm.admin.token, query: { camera_id: added.camera_id } })).status).toBe(404);
  });
});

describe('snapshot addresses without the operator’s allowance', () => {
  let strict: TestServer;
  let tenant: Tenant;
  beforeAll(async () => {
    strict = await startServer();
    tenant = await createTenant(strict);
  });
  afterAll(() => strict?.close());

  it('refuses a local address when the camera is saved, with the reason', async () => {
    const room = await createRoom(strict, tenant.companyId);
    const create = (snapshot_url: string) =>
      strict.request('POST', '/create_camera', { token: tenant.admin.token, json: { name: 'Local', room_id: room, kind: 'ip', snapshot_url, interval_minutes: 10 } });
    expect((await create(`${camera.base}/snap.png`)).body).toEqual({ status: 'error', message: cameraMessages.snapshotUrlRefused('The address must start with https://.') });
    const loopback = await create(`https://127.0.0.1:${new URL(camera.base).port}/snap.png`);
    expect(loopback.status).toBe(400);
    expect(loopback.body).toEqual({ status: 'error', message: cameraMessages.snapshotUrlRefused('Refused: 127.0.0.1 is a loopback address; the server only calls public internet addresses.') });
    const metadata = await create('https://169.254.169.254/latest/meta-data');
    expect((metadata.body as { message: string }).message).toContain('a link-local address');
  });
});

describe('phone cameras', () => {
  const upload = (token: string | null, fields: { image?: Blob; captured_at?: string; client_id?: string }) =>
    server.request<{ image_id: number; captured_at: string; repeated: boolean }>('POST', '/camera_device/upload', {
      form: Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Record<string, string | Blob>,
      headers: token === null ? {} : { authorization: `Camera ${token}` },
    });
  const config = (token: string) => server.request<{ camera: DeviceConfig }>('GET', '/camera_device/config', { headers: { authorization: `Camera ${token}` } });

  it('uploads with a device link, keeps the phone’s capture time, stores a repeat once, and stops working once the link is revoked', async () => {
    const grid = await createGrid(server, farm.companyId, roomId, 3, 2, 'Bench A');
    const added = ok(
      await server.request<{ camera: CameraRecord }>('POST', '/create_camera', {
        token: farm.admin.token,
        json: { name: 'Phone over bench A', room_id: roomId, grid_id: grid.id, kind: 'device', interval_minutes: 5 },
      }),
    ).camera;
    expect(added).toMatchObject({ kind: 'device', snapshot_url: null, next_capture_at: null, grid_name: 'Bench A', state: 'waiting' });
    const link = ok(await server.request<{ token: string; url: string; device_token: DeviceTokenRecord }>('POST', '/create_camera_device_token', { token: farm.admin.token, query: { camera_id: added.camera_id } }));
    expect(link.url).toBe(`http://grow.test/camera?token=${encodeURIComponent(link.token)}`);

    expect(ok(await config(link.token)).camera).toEqual({ camera_id: added.camera_id, name: 'Phone over bench A', room_name: 'Flower 1', grid_name: 'Bench A', grid_box_name: null, interval_seconds: 300, enabled: true });

    // A photo taken two days ago while the phone was offline keeps its time.
    const takenOffline = new Date(Date.now() - 2 * 86_400_000);
    takenOffline.setMilliseconds(0);
    const clientId = crypto.randomUUID();
    const image = new Blob([new Uint8Array(await png(90))], { type: 'image/png' });
    const first = ok(await upload(link.token, { image, captured_at: takenOffline.toISOString(), client_id: clientId }));
    expect(first).toMatchObject({ repeated: false, captured_at: takenOffline.toISOString() });
    // Sent again (its answer lost): stored once.
    expect(ok(await upload(link.token, { image, captured_at: takenOffline.toISOString(), client_id: clientId }))).toMatchObject({ image_id: first.image_id, repeated: true });
    const now = ok(await upload(link.token, { image, captured_at: new Date().toISOString(), client_id: crypto.randomUUID() }));
    const timeline = await imagesOf(added.camera_id);
    expect(timeline.images.map((entry) => entry.image_id)).toEqual([now.image_id, first.image_id]);
    expect(timeline.images[1]).toMatchObject({ source: 'device', captured_at: takenOffline.toISOString() });
    // Within a range of the camera's time.
    const day = takenOffline.toISOString().slice(0, 10);
    expect((await imagesOf(added.camera_id, farm.admin.token, { start: day, end: day })).images.map((entry) => entry.image_id)).toEqual([first.image_id]);
    expect(await cameraOf(added.camera_id)).toMatchObject({ state: 'ok', last_capture_at: new Date(now.captured_at).toISOString() });

    // The company's captures across its cameras (scan history) list it with its camera.
    const captures = ok(await server.request<{ captures: CameraCaptureRecord[] }>('GET', '/get_camera_captures', { token: farm.regular.token, query: { room_id: roomId } })).captures;
    expect(captures.find((entry) => entry.image_id === first.image_id)).toMatchObject({ camera_name: 'Phone over bench A', room_name: 'Flower 1', grid_id: grid.id });

    // Not an image; no link; another company cannot revoke it.
    expect(await upload(link.token, { image: new Blob(['hello'], { type: 'image/png' }), captured_at: new Date().toISOString() })).toMatchObject({ status: 415, body: { message: fileMessages.imageType } });
    expect(await upload(null, { image, captured_at: new Date().toISOString() })).toMatchObject({ status: 401, body: { message: cameraMessages.deviceTokenMissing } });
    expect((await server.request('DELETE', '/revoke_camera_device_token', { token: other.admin.token, json: { token_id: link.device_token.token_id } })).status).toBe(403);

    // Revoked: the phone's calls answer 401 with the reason; the Admins' list keeps it, revoked.
    ok(await server.request('DELETE', '/revoke_camera_device_token', { token: farm.admin.token, query: { token_id: link.device_token.token_id } }));
    expect(await config(link.token)).toMatchObject({ status: 401, body: { status: 'error', message: cameraMessages.deviceTokenInvalid } });
    expect(await upload(link.token, { image, captured_at: new Date().toISOString() })).toMatchObject({ status: 401, body: { message: cameraMessages.deviceTokenInvalid } });
    const tokens = ok(await server.request<{ tokens: DeviceTokenRecord[] }>('GET', '/get_camera_device_tokens', { token: farm.admin.token, query: { camera_id: added.camera_id } })).tokens;
    expect(tokens).toEqual([expect.objectContaining({ token_id: link.device_token.token_id, revoked_by: farm.admin.id })]);
    expect(tokens[0]!.revoked_at).not.toBeNull();
    expect(tokens[0]!.last_used_at).not.toBeNull();
  });

  it('deleting a phone camera ends its links; an IP camera has none', async () => {
    const added = ok(await server.request<{ camera: CameraRecord }>('POST', '/create_camera', { token: farm.admin.token, json: { name: 'Spare phone', room_id: roomId, kind: 'device', interval_minutes: 5 } })).camera;
    const link = ok(await server.request<{ token: string }>('POST', '/create_camera_device_token', { token: farm.admin.token, json: { camera_id: added.camera_id } }));
    ok(await config(link.token));
    ok(await server.request('DELETE', '/delete_camera', { token: farm.admin.token, json: { camera_id: added.camera_id } }));
    expect((await config(link.token)).status).toBe(401);
    const ip = await addIpCamera('/snap.png', 3600);
    expect((await server.request('POST', '/create_camera_device_token', { token: farm.admin.token, json: { camera_id: ip.camera_id } })).body).toEqual({ status: 'error', message: cameraMessages.tokenForDeviceOnly });
  });
});

describe('retention', () => {
  it('removes images past their retention with their files', async () => {
    const added = ok(await server.request<{ camera: CameraRecord }>('POST', '/create_camera', { token: farm.admin.token, json: { name: 'Old phone', room_id: roomId, kind: 'device', interval_minutes: 5 } })).camera;
    const link = ok(await server.request<{ token: string }>('POST', '/create_camera_device_token', { token: farm.admin.token, json: { camera_id: added.camera_id } }));
    const longAgo = new Date(Date.now() - 100 * 86_400_000).toISOString();
    const image = new Blob([new Uint8Array(await png(10))], { type: 'image/png' });
    const old = ok(await server.request<{ image_id: number }>('POST', '/camera_device/upload', { form: { image, captured_at: longAgo }, headers: { authorization: `Camera ${link.token}` } }));
    const recent = ok(await server.request<{ image_id: number }>('POST', '/camera_device/upload', { form: { image, captured_at: new Date().toISOString() }, headers: { authorization: `Camera ${link.token}` } }));
    const oldImage = (await imagesOf(added.camera_id)).images.find((entry) => entry.image_id === old.image_id)!;

    const uploads = join(server.config.dataDir, 'uploads');
    const removed = await removeExpiredCameraImages(server.database.db, (key) => unlink(join(uploads, ...key.split('/'))), 90);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect((await imagesOf(added.camera_id)).images.map((entry) => entry.image_id)).toEqual([recent.image_id]);
    expect((await server.request('GET', oldImage.image_path.replace(/^\/api/, ''), { token: farm.admin.token })).status).toBe(404);
  });
});
