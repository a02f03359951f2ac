/** Companies: created by the platform operator (SuperAdmin), read by their members. */
import { auditTitles } from '../../../common/messages/audit-titles';
import { sessionMessages as m } from '../../../common/messages/session';
import { createCompanyAnswer, loadCompanyAnswer } from '../../../common/schemas/companies';
import { companyIdPath, createCompanyBody } from '../../../common/schemas/session';
import { writer } from '../../db/writes';
import { notFound } from '../../http/errors';
import { type App, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { companyJson, companyQueries } from './queries';

const createSchema = { body: createCompanyBody, response: { 200: createCompanyAnswer } };
const loadSchema = { params: companyIdPath, response: { 200: loadCompanyAnswer } };

async function createCompany(request: RequestOf<typeof createSchema>) {
  const { company_name, contact_name, contact_email, company_type, contact_phone } = request.body;
  const { id } = await writer(request.db, actorOfRequest(request)).insert('companies', {
    name: company_name,
    contact_name,
    contact_email,
    company_type: company_type ?? null,
    contact_phone: contact_phone ?? null,
  });
  await recordAudit(request.db, actorOfRequest(request, id), { title: auditTitles.createdCompany(company_name) });
  return success({ company_id: id }, m.companyCreated);
}

async function loadCompanyById(request: RequestOf<typeof loadSchema>) {
  const company = await companyQueries.byId(request.db, request.params.id);
  if (!company) throw notFound(m.companyNotFound);
  return success({ company: companyJson(company) });
}

export async function companyRoutes(app: App) {
  app.post('/Create_company', { schema: createSchema, config: { access: 'superadmin' } }, createCompany);
  app.get('/Load_company_by_id/:id', { schema: loadSchema, config: { owns: { id: 'company' } } }, loadCompanyById);
}
