import { beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../../common/messages/http';
import { sessionClientMessages as cm, sessionMessages as m } from '../../../common/messages/session';
import { SETTINGS_DEFAULTS } from '../../../common/messages/settings';
import { createCompany, loadCompanyById } from '../../../src/api/companies';
import { createSuperAdmin, type SignedInUser } from '../../support/factories';
import { useFleet } from '../../support/fleet';

const fleet = useFleet({ otherTenant: true });
const { tablet } = fleet;
let operator: SignedInUser;

beforeAll(async () => {
  operator = await createSuperAdmin(fleet.server);
});

const newCompany = { companyName: 'Green Acres', contactName: 'Ada Grower', contactEmail: 'ada@green.example', companyType: 'Greenhouse', contactPhone: '+1 555 0100' };

describe('createCompany', () => {
  it('creates the company (SuperAdmin) and answers its id', async () => {
    const device = await tablet(operator, { start: false });
    const answer = await createCompany(device.context, newCompany);
    expect(answer).toMatchObject({ status: 'success', message: m.companyCreated, company_id: expect.any(Number) });
    const row = await fleet.server.database.db.selectFrom('companies').selectAll().where('id', '=', answer.company_id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Green Acres', contact_name: 'Ada Grower', contact_email: 'ada@green.example', company_type: 'Greenhouse', contact_phone: '+1 555 0100' });
  });

  it('checks the fields before any request', async () => {
    const device = await tablet(operator, { start: false });
    await expect(createCompany(device.context, { ...newCompany, companyName: ' ' })).rejects.toThrow(m.companyNameRequired);
    await expect(createCompany(device.context, { ...newCompany, contactName: '' })).rejects.toThrow(m.contactNameRequired);
    await expect(createCompany(device.context, { ...newCompany, contactEmail: '' })).rejects.toThrow(m.contactEmailRequired);
    await expect(createCompany(device.context, { ...newCompany, contactEmail: 'not-an-address' })).rejects.toThrow(m.emailInvalid);
  });

  it("keeps the server's message (an Admin may not), else 'Failed to create company.'", async () => {
    const device = await tablet(fleet.farm.admin, { start: false });
    await expect(createCompany(device.context, newCompany)).rejects.toThrow(httpMessages.roleForbidden);
    fleet.proxy.setOnline(false);
    await expect(createCompany(device.context, newCompany)).rejects.toThrow(m.companyCreateFailed);
  });
});

describe('loadCompanyById', () => {
  it('answers the company with its settings from the server before the first pull', async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    const company = await loadCompanyById(device.context, { companyId: fleet.farm.companyId });
    expect(company).toMatchObject({ company_id: fleet.farm.companyId, company_name: expect.any(String), created_at: expect.any(String), settings: SETTINGS_DEFAULTS });
    expect(company).not.toHaveProperty('users');
  });

  it('answers the same from the local document once pulled, offline too', async () => {
    const device = await tablet(fleet.farm.regular);
    const fromServer = (await fleet.server.request<{ company: unknown }>('GET', `/Load_company_by_id/${fleet.farm.companyId}`, { token: fleet.farm.regular.token })).body.company;
    fleet.proxy.setOnline(false);
    expect(await loadCompanyById(device.context, { companyId: fleet.farm.companyId })).toEqual(fromServer);
  });

  it("checks the id: 'Company id must be a positive whole number.'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(loadCompanyById(device.context, { companyId: -1 })).rejects.toThrow(m.companyIdInvalid);
  });

  it("keeps the server's message for another company, else 'Failed to load company.'", async () => {
    const device = await tablet(fleet.farm.regular, { start: false });
    await expect(loadCompanyById(device.context, { companyId: fleet.other.companyId })).rejects.toThrow(httpMessages.otherCompany);
    fleet.proxy.setOnline(false);
    await expect(loadCompanyById(device.context, { companyId: fleet.farm.companyId })).rejects.toThrow(cm.companyFetchFailed);
  });
});
