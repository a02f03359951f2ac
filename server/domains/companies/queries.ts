/** Companies and their settings (spec part 1 §3 "Company settings", keyed by company id). */
import type { Kysely } from 'kysely';
import type { GridOrder } from '../../../common/messages/settings';
import { isoTime } from '../../../common/schemas/answers';
import type { CompanyRecord } from '../../../common/schemas/companies';
import type { CompanySettings } from '../../../common/schemas/settings';
import type { Company, DB } from '../../db/schema';

/** The company's grid order: written only through setGridOrderBody, which allows GRID_ORDERS alone. */
export const gridOrderOf = (company: Company): GridOrder => company.grid_order as GridOrder;

export const companySettingsJson = (company: Company): CompanySettings => ({
  grid_order: gridOrderOf(company),
  grid_opacity: company.grid_opacity,
  offline_mode: company.offline_mode,
  ai_model: company.ai_model,
  auto_refresh: company.auto_refresh,
  stickytrap_render: company.stickytrap_render,
  language: company.language,
});

export const companyJson = (company: Company): CompanyRecord => ({
  company_id: company.id,
  company_name: company.name,
  contact_name: company.contact_name,
  contact_email: company.contact_email,
  company_type: company.company_type,
  contact_phone: company.contact_phone,
  created_at: isoTime(company.created_at),
  settings: companySettingsJson(company),
});

export const companyQueries = {
  byId: (db: Kysely<DB>, id: number) => db.selectFrom('companies').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst(),
  /** The company row, for handlers whose guard already proved it exists. */
  existing: (db: Kysely<DB>, id: number) => db.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
};
