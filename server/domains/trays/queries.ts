/** Trays and tray templates (spec part 2 §3). */
import type { Kysely, Selectable } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import type { TrayRecord, TrayTemplateRecord } from '../../../common/schemas/trays';
import type { DB, TrayTemplatesTable, TraysTable } from '../../db/schema';

type Tray = Selectable<TraysTable>;
type TrayTemplate = Selectable<TrayTemplatesTable>;

export const trayJson = (tray: Tray): TrayRecord => ({
  tray_id: tray.id,
  tray_name: tray.tray_name,
  number_of_plants: tray.number_of_plants,
  batch_id: tray.batch_id,
  company_id: tray.company_id,
  user_id: tray.user_id,
  created_at: isoTime(tray.created_at),
  updated_at: isoTime(tray.updated_at),
});

export const trayTemplateJson = (template: TrayTemplate): TrayTemplateRecord => ({
  template_id: template.id,
  template_name: template.template_name,
  number_of_plants: template.number_of_plants,
  description: template.description,
  default_batch_id: template.default_batch_id,
  company_id: template.company_id,
  user_id: template.user_id,
  created_at: isoTime(template.created_at),
});

export const trayQueries = {
  byCompany: (db: Kysely<DB>, companyId: number) =>
    db.selectFrom('trays').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('id').execute(),

  /**
   * A live tray of the named company. The guard has checked each id against the caller, but a
   * SuperAdmin may name a tray and a company that do not go together: that tray is not found there.
   */
  inCompany: (db: Kysely<DB>, id: number, companyId: number) =>
    db.selectFrom('trays').selectAll().where('id', '=', id).where('company_id', '=', companyId).where('deleted_at', 'is', null).executeTakeFirst(),

  byId: (db: Kysely<DB>, id: number) => db.selectFrom('trays').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  templatesByCompany: (db: Kysely<DB>, companyId: number) =>
    db.selectFrom('tray_templates').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('id').execute(),

  /** A live tray template of the named company (see `inCompany`). */
  templateInCompany: (db: Kysely<DB>, id: number, companyId: number) =>
    db.selectFrom('tray_templates').selectAll().where('id', '=', id).where('company_id', '=', companyId).where('deleted_at', 'is', null).executeTakeFirst(),

  templateById: (db: Kysely<DB>, id: number) => db.selectFrom('tray_templates').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** Whether a batch is live in the company (for a batch id that came from a template, not the request). */
  async batchIsLive(db: Kysely<DB>, batchId: number, companyId: number) {
    const batch = await db.selectFrom('batches').select('id').where('id', '=', batchId).where('company_id', '=', companyId).where('deleted_at', 'is', null).executeTakeFirst();
    return batch !== undefined;
  },
};
