/**
 * The answers of the companies domain (server/domains/companies) and the synced `company` document.
 * Its requests are in session.ts, beside the other account calls.
 */
import { z } from 'zod';
import { answer, timestamp } from './answers';
import { customSolutionRecord, problemColorMappingRecord } from './problems';
import { companySettings } from './settings';
import { userRecord } from './users';

/** A company, as GET /Load_company_by_id answers it (server/domains/companies/queries.ts `companyJson`). */
export const companyRecord = z.object({
  company_id: z.number().int(),
  company_name: z.string(),
  contact_name: z.string().nullable(),
  contact_email: z.string().nullable(),
  company_type: z.string().nullable(),
  contact_phone: z.string().nullable(),
  created_at: timestamp,
  settings: companySettings,
});

export type CompanyRecord = z.infer<typeof companyRecord>;

/** A custom batch status, as the company document lists it (made by the server only: its id is the server's). */
export const companyBatchStatus = z.object({ id: z.number().int(), status_name: z.string() });

/**
 * The synced `company` document: the company with its users, custom batch statuses, problem colours and
 * its own solutions to catalogue problems inside (companies/collection.ts), so the tablet has them offline.
 */
export const companyDocument = companyRecord.extend({
  users: z.array(userRecord),
  custom_batch_statuses: z.array(companyBatchStatus),
  problem_color_mappings: z.array(problemColorMappingRecord),
  custom_solutions: z.array(customSolutionRecord),
});

export type CompanyDocumentRecord = z.infer<typeof companyDocument>;

export const createCompanyAnswer = answer({ company_id: z.number().int() });
export const loadCompanyAnswer = answer({ company: companyRecord });
