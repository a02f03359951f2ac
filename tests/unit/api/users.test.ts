import { describe, expect, it, vi } from 'vitest';
import { httpMessages } from '../../../common/messages/http';
import { sessionClientMessages as cm, sessionMessages as m } from '../../../common/messages/session';
import {
  type CompanyUser,
  createInvitation,
  deleteInvitation,
  getThreshold,
  loadUsers,
  pendingInvitations,
  setThreshold,
  updateLocation,
} from '../../../src/api/users';
import type { Tablet } from '../../support/client';
import { createUser } from '../../support/factories';
import { useFleet } from '../../support/fleet';

const fleet = useFleet({ otherTenant: true, defaultUser: 'admin', restoreMocks: true });
const { tablet } = fleet;

const localUsers = async (device: Tablet, companyId = fleet.farm.companyId) =>
  ((await device.database.company.findOne(String(companyId)).exec())?.toMutableJSON().users ?? []) as CompanyUser[];

describe('loadUsers', () => {
  it('answers the company’s users from the server before the first pull, one user with user_id', async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    const users = await loadUsers(device.context, { companyId: fleet.farm.companyId });
    expect(users.map((user) => user.user_id).sort()).toEqual([fleet.farm.admin.id, fleet.farm.regular.id].sort());
    expect(users[0]).toMatchObject({ company_id: fleet.farm.companyId, email: expect.any(String), role: expect.any(String) });
    expect(users[0]).not.toHaveProperty('password_hash');
    const one = await loadUsers(device.context, { companyId: fleet.farm.companyId, userId: fleet.farm.regular.id });
    expect(one).toEqual([expect.objectContaining({ user_id: fleet.farm.regular.id, role: 'Regular', email: fleet.farm.regular.email })]);
  });

  it('answers from the company’s local document once pulled, offline too', async () => {
    const device = await tablet(fleet.farm.regular);
    const online = await loadUsers(device.context, { companyId: fleet.farm.companyId });
    fleet.proxy.setOnline(false);
    expect(await loadUsers(device.context, { companyId: fleet.farm.companyId })).toEqual(online);
    expect(await loadUsers(device.context, { companyId: fleet.farm.companyId, userId: fleet.farm.admin.id })).toEqual([expect.objectContaining({ user_id: fleet.farm.admin.id, role: 'Admin' })]);
  });

  it("needs a company id: 'companyID is required.'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(loadUsers(device.context, { companyId: 0 })).rejects.toThrow(m.companyIdRequired);
  });

  it("keeps the server's message for another company, and falls back to 'Failed to load users.' without an answer", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(loadUsers(device.context, { companyId: fleet.other.companyId })).rejects.toThrow(httpMessages.otherCompany);
    fleet.proxy.setOnline(false);
    await expect(loadUsers(device.context, { companyId: fleet.farm.companyId })).rejects.toThrow(cm.usersFetchFailed);
  });
});

describe('threshold', () => {
  it('is not loaded without a user id (null, no request)', async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    const before = fleet.proxy.sent.length;
    expect(await getThreshold(device.context, { userId: undefined })).toBeNull();
    expect(await getThreshold(device.context, { userId: null })).toBeNull();
    expect(fleet.proxy.sent.length).toBe(before);
  });

  it('a change is queued with its optimistic value, reaches the server and reads back', async () => {
    const user = await createUser(fleet.server, fleet.farm.companyId, 'Regular');
    const device = await tablet(user);
    fleet.proxy.setOnline(false);
    await setThreshold(device.context, { userId: user.id, threshold: 0.75 });

    expect(await device.outbox.all()).toEqual([expect.objectContaining({ method: 'POST', path: '/threshold', body: { kind: 'json', data: { user_id: user.id, threshold: 0.75 } } })]);
    expect((await localUsers(device)).find((item) => item.user_id === user.id)?.threshold).toBe(0.75);
    expect(await getThreshold(device.context, { userId: user.id })).toBe(0.75);

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const row = await fleet.server.database.db.selectFrom('users').select('threshold').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.threshold).toBe(0.75);
    expect(await device.outbox.count()).toBe(0);
    expect(JSON.stringify(await localUsers(device))).not.toContain('tmp-');
    expect((await localUsers(device)).find((item) => item.user_id === user.id)?.threshold).toBe(0.75);

    // One tablet open at a time: the open-source RxDB stalls at a 14th collection in one process.
    await fleet.tablets.pop()?.close();
    const fresh = await tablet(user, { start: false });
    expect(await getThreshold(fresh.context, { userId: user.id })).toBe(0.75);
  });

  it("a failed save is only logged with 'An error occurred while updating the threshold:' (nothing thrown, nothing queued)", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(setThreshold(device.context, { userId: fleet.farm.regular.id, threshold: Number.NaN })).resolves.toBeUndefined();
    await expect(setThreshold(device.context, { userId: 0, threshold: 3 })).resolves.toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(2);
    expect(logged.mock.calls.map((call) => call[0])).toEqual([cm.thresholdUpdateFailed, cm.thresholdUpdateFailed]);
    expect(String(logged.mock.calls[0]?.[1])).toContain(m.thresholdRequired);
    expect(await device.outbox.count()).toBe(0);
  });

  it('a save the server refuses (another user’s threshold) shows in the failed list, not as an error', async () => {
    const device = await tablet(fleet.farm.regular);
    await setThreshold(device.context, { userId: fleet.farm.admin.id, threshold: 2 });
    await device.engine.settle();
    expect(device.engine.current().failed).toEqual([expect.objectContaining({ error: httpMessages.notYourself })]);
  });
});

describe('updateLocation', () => {
  it("needs the user id and a location: 'userID and location are required.'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(updateLocation(device.context, { userId: fleet.farm.regular.id, location: ' ' })).rejects.toThrow(m.locationRequired);
    await expect(updateLocation(device.context, { userId: 0, location: 'Greenhouse 2' })).rejects.toThrow(m.locationRequired);
  });

  it('is queued with its optimistic value and reaches the server', async () => {
    const user = await createUser(fleet.server, fleet.farm.companyId, 'Regular');
    const device = await tablet(user);
    fleet.proxy.setOnline(false);
    expect(await updateLocation(device.context, { userId: user.id, location: 'Greenhouse 2' })).toEqual({ location: 'Greenhouse 2' });
    expect(await device.outbox.all()).toEqual([expect.objectContaining({ method: 'PUT', path: '/update_location' })]);
    expect((await localUsers(device)).find((item) => item.user_id === user.id)?.location).toBe('Greenhouse 2');

    fleet.proxy.setOnline(true);
    await device.engine.syncNow();
    await device.engine.settle();
    const row = await fleet.server.database.db.selectFrom('users').select('location').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.location).toBe('Greenhouse 2');
    expect(await device.outbox.count()).toBe(0);
    expect((await localUsers(device)).find((item) => item.user_id === user.id)?.location).toBe('Greenhouse 2');
  });
});

describe('invitations', () => {
  it('invite, list pending, withdraw', async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    const email = `invitee-${Date.now()}@example.test`;
    const invited = await createInvitation(device.context, { email, role: 'Regular' });
    expect(invited).toMatchObject({ status: 'success', message: m.invitationCreated, invite_token: expect.any(String), invitation_id: expect.any(Number) });

    const pending = await pendingInvitations(device.context, { companyId: fleet.farm.companyId });
    expect(pending).toEqual([expect.objectContaining({ invitation_id: invited.invitation_id, email, role: 'Regular' })]);

    expect(await deleteInvitation(device.context, { invitationId: invited.invitation_id })).toMatchObject({ status: 'success', message: m.invitationDeleted });
    expect(await pendingInvitations(device.context, { companyId: fleet.farm.companyId })).toEqual([]);
  });

  it("checks the invitation's fields before any request", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(createInvitation(device.context, { email: '', role: 'Regular' })).rejects.toThrow(m.emailRequired);
    await expect(createInvitation(device.context, { email: 'x@example.test', role: 'SuperAdmin' as 'Admin' })).rejects.toThrow(m.roleInvalid);
    await expect(deleteInvitation(device.context, { invitationId: 0 })).rejects.toThrow(m.invitationIdRequired);
  });

  it("pending invitations need a company: 'companyID is required.'", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(pendingInvitations(device.context, { companyId: undefined })).rejects.toThrow(m.companyIdRequired);
  });

  it("pending invitations keep the server's message, else 'Failed to fetch pending invitations.'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(pendingInvitations(device.context, { companyId: fleet.farm.companyId })).rejects.toThrow(httpMessages.roleForbidden);
    fleet.proxy.setOnline(false);
    await expect(pendingInvitations(device.context, { companyId: fleet.farm.companyId })).rejects.toThrow(m.pendingInvitationsFailed);
  });

  it("an address that already has an account keeps the server's message; no answer gives 'Failed to send invitation.'", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(createInvitation(device.context, { email: fleet.farm.regular.email, role: 'Regular' })).rejects.toThrow(m.emailTaken);
    fleet.proxy.setOnline(false);
    await expect(createInvitation(device.context, { email: 'later@example.test', role: 'Regular' })).rejects.toThrow(cm.invitationFailed);
  });
});
