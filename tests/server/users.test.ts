import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { sessionMessages as m } from '../../common/messages/session';
import { createSuperAdmin, createTenant, createUser, type SignedInUser, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

interface ListedUser {
  user_id: number;
  company_id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  threshold: number | null;
  location: string | null;
}

const loadUsers = (token: string, query: Record<string, string | number> = {}) => server.request<{ status: string; users: ListedUser[] }>('GET', '/load_users', { token, query });
const getThreshold = (token: string, query: Record<string, string | number> = {}) => server.request('GET', '/threshold', { token, query });
const setThreshold = (token: string, json: Record<string, unknown>) => server.request('POST', '/threshold', { token, json });
const updateLocation = (token: string, json: Record<string, unknown>) => server.request('PUT', '/update_location', { token, json });

/** A Regular user of its own, so one test's threshold or location never shows in another's. */
const freshUser = (): Promise<SignedInUser> => createUser(server, farm.companyId, 'Regular');

describe('GET /api/load_users', () => {
  it('lists the company’s users, and nobody else', async () => {
    const response = await loadUsers(farm.regular.token, { company_id: farm.companyId });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('success');
    const users = response.body.users;
    expect(users.map((user) => user.user_id)).toEqual(expect.arrayContaining([farm.admin.id, farm.regular.id]));
    expect(users.every((user) => user.company_id === farm.companyId)).toBe(true);
    expect(users.map((user) => user.user_id)).not.toContain(other.admin.id);
    expect(users.find((user) => user.user_id === farm.admin.id)).toMatchObject({ email: farm.admin.email, role: 'Admin' });
    expect(users.find((user) => user.user_id === farm.regular.id)).toMatchObject({ email: farm.regular.email, role: 'Regular', threshold: null, location: null });
  });

  it('never answers a password hash', async () => {
    const response = await loadUsers(farm.admin.token, { company_id: farm.companyId });
    expect(response.body.users.length).toBeGreaterThan(0);
    for (const user of response.body.users) {
      expect(Object.keys(user).some((key) => key.toLowerCase().includes('password'))).toBe(false);
    }
    expect(JSON.stringify(response.body)).not.toMatch(/argon2|password/i);
  });

  it('is filtered by user_id', async () => {
    const response = await loadUsers(farm.admin.token, { company_id: farm.companyId, user_id: farm.regular.id });
    expect(response.status).toBe(200);
    expect(response.body.users).toHaveLength(1);
    expect(response.body.users[0]).toMatchObject({ user_id: farm.regular.id, email: farm.regular.email });
  });

  it('answers 403 for another company’s company_id', async () => {
    const response = await loadUsers(farm.admin.token, { company_id: other.companyId });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
  });

  it('answers 403 for a user_id of another company', async () => {
    const response = await loadUsers(farm.admin.token, { company_id: farm.companyId, user_id: other.regular.id });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
  });

  it('answers 400 without company_id', async () => {
    const response = await loadUsers(farm.regular.token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.companyIdRequired });
  });

  it('lets a SuperAdmin list any company’s users', async () => {
    const operator = await createSuperAdmin(server);
    const response = await loadUsers(operator.token, { company_id: other.companyId });
    expect(response.status).toBe(200);
    expect(response.body.users.map((user) => user.user_id)).toEqual(expect.arrayContaining([other.admin.id, other.regular.id]));
  });
});

describe('threshold', () => {
  it('is the caller’s own: saved, then read back', async () => {
    const grower = await freshUser();
    expect((await getThreshold(grower.token, { user_id: grower.id })).body).toEqual({ status: 'success', threshold: null });
    const saved = await setThreshold(grower.token, { user_id: grower.id, threshold: 4.5 });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ status: 'success', message: m.thresholdUpdated, threshold: 4.5 });
    const read = await getThreshold(grower.token, { user_id: grower.id });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ status: 'success', threshold: 4.5 });
    const listed = await loadUsers(farm.admin.token, { company_id: farm.companyId, user_id: grower.id });
    expect(listed.body.users[0]?.threshold).toBe(4.5);
  });

  it('accepts a number sent as text', async () => {
    const grower = await freshUser();
    expect((await setThreshold(grower.token, { user_id: String(grower.id), threshold: '12' })).body).toMatchObject({ status: 'success', threshold: 12 });
    expect((await getThreshold(grower.token, { user_id: grower.id })).body).toMatchObject({ threshold: 12 });
  });

  it('answers 403 for another user of the same company, even to an Admin, and changes nothing', async () => {
    const grower = await freshUser();
    await setThreshold(grower.token, { user_id: grower.id, threshold: 3 });
    const read = await getThreshold(farm.admin.token, { user_id: grower.id });
    expect(read.status).toBe(403);
    expect(read.body).toMatchObject({ status: 'error' });
    const write = await setThreshold(farm.admin.token, { user_id: grower.id, threshold: 99 });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ status: 'error' });
    expect((await setThreshold(farm.regular.token, { user_id: grower.id, threshold: 99 })).status).toBe(403);
    expect((await getThreshold(grower.token, { user_id: grower.id })).body).toMatchObject({ threshold: 3 });
  });

  it('answers 403 for another company’s user', async () => {
    const read = await getThreshold(farm.regular.token, { user_id: other.regular.id });
    expect(read.status).toBe(403);
    expect(read.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    const write = await setThreshold(farm.regular.token, { user_id: other.regular.id, threshold: 5 });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    expect((await getThreshold(other.regular.token, { user_id: other.regular.id })).body).toMatchObject({ threshold: null });
  });

  it.each([
    ['a non-numeric threshold', 'abc'],
    ['a blank threshold', ''],
    ['no threshold', undefined],
  ])('answers 400 for %s', async (_case, threshold) => {
    const response = await setThreshold(farm.regular.token, { user_id: farm.regular.id, threshold });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.thresholdRequired });
  });

  it('answers 400 without user_id, reading or saving', async () => {
    const read = await getThreshold(farm.regular.token);
    expect(read.status).toBe(400);
    expect(read.body).toEqual({ status: 'error', message: m.userIdRequired });
    const write = await setThreshold(farm.regular.token, { threshold: 5 });
    expect(write.status).toBe(400);
    expect(write.body).toEqual({ status: 'error', message: m.userIdRequired });
    expect((await getThreshold(farm.regular.token, { user_id: 'abc' })).body).toEqual({ status: 'error', message: m.userIdRequired });
  });
});

describe('PUT /api/update_location', () => {
  it('saves the caller’s own location, visible in load_users', async () => {
    const grower = await freshUser();
    const response = await updateLocation(grower.token, { user_id: grower.id, location: 'Greenhouse 2, bench 4' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', message: m.locationUpdated, location: 'Greenhouse 2, bench 4' });
    const listed = await loadUsers(farm.admin.token, { company_id: farm.companyId, user_id: grower.id });
    expect(listed.body.users[0]).toMatchObject({ user_id: grower.id, location: 'Greenhouse 2, bench 4' });
  });

  it('answers 403 for another user’s location and leaves it unchanged', async () => {
    const grower = await freshUser();
    await updateLocation(grower.token, { user_id: grower.id, location: 'Room A' });
    const sameCompany = await updateLocation(farm.admin.token, { user_id: grower.id, location: 'Moved' });
    expect(sameCompany.status).toBe(403);
    expect(sameCompany.body).toMatchObject({ status: 'error' });
    const otherCompany = await updateLocation(farm.admin.token, { user_id: other.regular.id, location: 'Moved' });
    expect(otherCompany.status).toBe(403);
    expect(otherCompany.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    expect((await loadUsers(farm.admin.token, { company_id: farm.companyId, user_id: grower.id })).body.users[0]?.location).toBe('Room A');
    expect((await loadUsers(other.admin.token, { company_id: other.companyId, user_id: other.regular.id })).body.users[0]?.location).toBeNull();
  });

  it.each([
    ['no user_id', () => ({ location: 'Room A' })],
    ['no location', () => ({ user_id: farm.regular.id })],
    ['a blank location', () => ({ user_id: farm.regular.id, location: '   ' })],
    ['an empty body', () => ({})],
  ])('answers 400 for %s', async (_case, body) => {
    const response = await updateLocation(farm.regular.token, body());
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.locationRequired });
  });
});
