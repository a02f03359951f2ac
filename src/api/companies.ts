/**
 * Companies (spec part 2 §7 "Weather, location, scroll, chat, invitations, company"): the platform
 * operator creates them; members read their own. The company's local document (collection `company`)
 * carries its settings, users and custom batch statuses; settings.ts and users.ts read it too.
 */
import { sessionClientMessages as cm, sessionMessages as m } from '../../common/messages/session';
import type { z } from 'zod';
import type { CompanyRecord, createCompanyAnswer, loadCompanyAnswer } from '../../common/schemas/companies';
import { companyIdPath, createCompanyBody } from '../../common/schemas/session';
import type { LocalDocument } from '../../sync/store';
import { type ApiContext, check, online, formData } from './context';

/** The company's local document (id `String(company_id)`), or null before the first pull. */
export function localCompany(context: Pick<ApiContext, 'store'>, companyId: number): Promise<LocalDocument | null> {
  return context.store.get('company', String(companyId));
}

/** The signed-in user's company, from the session. */
export async function sessionCompanyId(context: Pick<ApiContext, 'client'>): Promise<number | null> {
  return (await context.client.session.get())?.company_id ?? null;
}

/**
 * POST /Create_company (SuperAdmin only): multipart company_name, contact_name, contact_email and the
 * optional company_type and contact_phone; online, since a new company has no local document yet and
 * its id is needed to go on. Fails with the server's message or 'Failed to create company.'.
 */
export async function createCompany(context: Pick<ApiContext, 'client'>, input: { companyName: string; contactName: string; contactEmail: string; companyType?: string; contactPhone?: string }) {
  const values = check(createCompanyBody, {
    company_name: input.companyName,
    contact_name: input.contactName,
    contact_email: input.contactEmail,
    company_type: input.companyType,
    contact_phone: input.contactPhone,
  });
  return online<z.infer<typeof createCompanyAnswer>>(context, { method: 'POST', path: '/Create_company', body: formData(values) }, m.companyCreateFailed);
}

const COMPANY_FIELDS = ['company_id', 'company_name', 'contact_name', 'contact_email', 'company_type', 'contact_phone', 'created_at', 'settings'] as const satisfies ReadonlyArray<keyof CompanyRecord>;

/**
 * GET /Load_company_by_id/{id}: the company. Answered from the local document when the tablet has it
 * (offline too, and with pending setting changes), else from the server (its message, or 'Failed to
 * load company.').
 */
export async function loadCompanyById(context: Pick<ApiContext, 'client' | 'store'>, input: { companyId: number }): Promise<CompanyRecord> {
  const { id } = check(companyIdPath, { id: input.companyId });
  const local = await localCompany(context, id);
  if (local) return Object.fromEntries(COMPANY_FIELDS.map((field) => [field, local[field] ?? null])) as unknown as CompanyRecord;
  const answer = await online<z.infer<typeof loadCompanyAnswer>>(context, { path: `/Load_company_by_id/${id}` }, cm.companyFetchFailed);
  return answer.company;
}
