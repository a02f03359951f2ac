import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { sessionMessages as m } from '../../common/messages/session';
import { createSuperAdmin, createTenant, type SignedInUser, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let operator: SignedInUser;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  operator = await createSuperAdmin(server);
});
afterAll(() => server.close());

interface CompanyAnswer {
  status: string;
  company: {
    company_id: number;
    company_name: string;
    contact_name: string | null;
    contact_email: string | null;
    company_type: string | null;
    contact_phone: string | null;
    settings: Record<string, unknown>;
  };
}

const validCompany = {
  company_name: 'Green Valley Growers',
  contact_name: 'Rosa Verde',
  contact_email: 'Rosa@GreenValley.test',
  company_type: 'Greenhouse',
  contact_phone: '+31 20 123 4567',
};

const createCompany = (token: string, form: Record<string, string>) => server.request<{ status: string; message?: string; company_id: number }>('POST', '/Create_company', { token, form });
const loadCompany = (token: string, id: number | string) => server.request<CompanyAnswer>('GET', `/Load_company_by_id/${id}`, { token });

describe('POST /api/Create_company', () => {
  it('a SuperAdmin creates a company and gets its id', async () => {
    const response = await createCompany(operator.token, validCompany);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'success', message: m.companyCreated, company_id: expect.any(Number) });
    const created = await loadCompany(operator.token, response.body.company_id);
    expect(created.status).toBe(200);
    expect(created.body.company).toMatchObject({
      company_id: response.body.company_id,
      company_name: 'Green Valley Growers',
      contact_name: 'Rosa Verde',
      contact_email: 'rosa@greenvalley.test',
      company_type: 'Greenhouse',
      contact_phone: '+31 20 123 4567',
    });
  });

  it('needs only the name and the contact; type and phone may be left out', async () => {
    const response = await createCompany(operator.token, { company_name: 'Bare Farm', contact_name: 'Ann', contact_email: 'ann@bare.test' });
    expect(response.status).toBe(200);
    const created = await loadCompany(operator.token, response.body.company_id);
    expect(created.body.company).toMatchObject({ company_name: 'Bare Farm', company_type: null, contact_phone: null });
  });

  it('records the creation in the new company’s audit trail, by the SuperAdmin', async () => {
    const response = await createCompany(operator.token, { ...validCompany, company_name: 'Audited Farm' });
    const events = await server.request<{ events: Array<{ EventTitle: string; UserID: number; CompanyID: number }> }>('GET', '/get_audit_events', {
      token: operator.token,
      query: { company_id: response.body.company_id },
    });
    expect(events.status).toBe(200);
    expect(events.body.events).toEqual([expect.objectContaining({ EventTitle: 'Created company Audited Farm', UserID: operator.id, CompanyID: response.body.company_id })]);
  });

  it.each([
    ['an Admin', () => farm.admin],
    ['a Regular user', () => farm.regular],
  ])('answers 403 to %s and creates nothing', async (_case, who) => {
    const response = await createCompany(who().token, { ...validCompany, company_name: 'Not Allowed Farm' });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.roleForbidden });
    const found = await server.database.db.selectFrom('companies').select('id').where('name', '=', 'Not Allowed Farm').execute();
    expect(found).toEqual([]);
  });

  it.each([
    ['company_name', m.companyNameRequired],
    ['contact_name', m.contactNameRequired],
    ['contact_email', m.contactEmailRequired],
  ])('answers 400 without %s', async (field, message) => {
    const missing = Object.fromEntries(Object.entries(validCompany).filter(([key]) => key !== field));
    const response = await createCompany(operator.token, missing);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message });
    const blank = await createCompany(operator.token, { ...validCompany, [field]: '  ' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ status: 'error', message });
  });

  it('answers 400 for an invalid contact email', async () => {
    const response = await createCompany(operator.token, { ...validCompany, contact_email: 'not-an-email' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.emailInvalid });
  });
});

describe('GET /api/Load_company_by_id/{id}', () => {
  it('a member reads their company, with the default settings', async () => {
    const response = await loadCompany(farm.regular.token, farm.companyId);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('success');
    expect(response.body.company).toMatchObject({ company_id: farm.companyId, company_name: expect.any(String), contact_email: farm.admin.email });
    expect(response.body.company.settings).toMatchObject({ grid_order: 'row', ai_model: 'plantDiseaseRecognition', auto_refresh: 0, stickytrap_render: 1 });
  });

  it('shows the name the company was created with', async () => {
    const created = await createCompany(operator.token, { ...validCompany, company_name: 'Named Farm' });
    expect((await loadCompany(operator.token, created.body.company_id)).body.company.company_name).toBe('Named Farm');
  });

  it('answers 403 for another company’s id, to a member of any role', async () => {
    for (const who of [farm.regular, farm.admin]) {
      const response = await loadCompany(who.token, other.companyId);
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
    }
  });

  it('a SuperAdmin reads any company', async () => {
    const response = await loadCompany(operator.token, other.companyId);
    expect(response.status).toBe(200);
    expect(response.body.company).toMatchObject({ company_id: other.companyId, contact_email: other.admin.email });
  });

  it('answers 404 to a SuperAdmin for a company that does not exist', async () => {
    const response = await loadCompany(operator.token, 987654);
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ status: 'error' });
  });

  it.each(['abc', '1.5', '0'])('answers 400 for the id "%s"', async (id) => {
    const response = await loadCompany(farm.regular.token, id);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.companyIdInvalid });
  });

  it('answers 401 without a token', async () => {
    const response = await server.request('GET', `/Load_company_by_id/${farm.companyId}`);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.unauthenticated });
  });
});
