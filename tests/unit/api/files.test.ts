import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileClientMessages as cm, fileMessages as m } from '../../../common/messages/files';
import { httpMessages } from '../../../common/messages/http';
import { fileIdOf, fileObjectUrl, getFile } from '../../../src/api/files';
import { createApiClient } from '../../../src/api/client';
import { memorySession, startTablet, type Tablet } from '../../support/client';
import { useFleet } from '../../support/fleet';

const fleet = useFleet({ otherTenant: true, room: true });
/** One tablet for the whole file, never started: these reads go to the server. */
let device: Tablet;
let imagePath: string;

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

beforeAll(async () => {
  const uploaded = await fleet.server.request<{ WhiteboardImage: string }>('POST', '/upload_whiteboard_image', {
    token: fleet.farm.regular.token,
    form: { room_id: fleet.roomId, imageFile: new Blob([PNG], { type: 'image/png' }) },
  });
  imagePath = uploaded.body.WhiteboardImage;
  device = await startTablet(`${fleet.proxy.url}/api`, fleet.farm.regular, { start: false });
});
afterAll(async () => {
  await device.close();
});

describe('fileIdOf', () => {
  it('reads the id from an id, a stored path or a full address; null for anything else', () => {
    const id = '0b6f3c1e-4a2d-4c5b-9e7f-123456789abc';
    expect(fileIdOf(id)).toBe(id);
    expect(fileIdOf(`/api/files/${id}`)).toBe(id);
    expect(fileIdOf(`https://grow.example/api/files/${id.toUpperCase()}?v=2`)).toBe(id);
    expect(fileIdOf('/api/files/not-an-id')).toBeNull();
    expect(fileIdOf('picture.png')).toBeNull();
  });
});

describe('getFile', () => {
  it('answers the stored file as a Blob of its type, with the bearer token', async () => {
    const blob = await getFile(device.context, { file: imagePath });
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(PNG);
    const url = await fileObjectUrl(device.context, { file: imagePath });
    expect(url).toMatch(/^blob:/);
    URL.revokeObjectURL(url);
  });

  it("fails with 'Not a stored file.' before any request for a reference that is no file", async () => {
    await expect(getFile(device.context, { file: 'picture.png' })).rejects.toThrow(cm.referenceInvalid);
  });

  it("keeps the server's message: 'File not found.', another company's file", async () => {
    await expect(getFile(device.context, { file: '/api/files/00000000-0000-4000-8000-000000000000' })).rejects.toThrow(m.notFound);
    // Only the client is needed: a second tablet's local store would be a 14th RxDB collection.
    const user = fleet.other.regular;
    const session = memorySession({ access_token: user.token, refresh_token: user.refreshToken, user_id: user.id, user_role: user.role, company_id: user.companyId });
    const client = createApiClient({ baseURL: `${fleet.proxy.url}/api`, session });
    await expect(getFile({ client }, { file: imagePath })).rejects.toThrow(httpMessages.otherCompany);
  });

  it("fails with 'Failed to load file.' without an answer", async () => {
    fleet.proxy.setOnline(false);
    await expect(getFile(device.context, { file: imagePath })).rejects.toThrow(cm.fetchFailed);
  });
});
