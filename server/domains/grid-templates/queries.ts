/** Grid templates: named row × column layouts of a grid or of the sub-gridboxes of a box (spec part 2 §3). */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { GridTemplateType } from '../../../common/messages/grid-templates';
import { isoTime } from '../../../common/schemas/answers';
import type { GridTemplateRecord } from '../../../common/schemas/grid-templates';
import type { DB, GridTemplatesTable } from '../../db/schema';

export const gridTemplateJson = (template: Selectable<GridTemplatesTable>): GridTemplateRecord => ({
  template_id: template.id,
  template_name: template.template_name,
  template_type: template.template_type,
  rows: template.rows,
  columns: template.columns,
  description: template.description,
  company_id: template.company_id,
  user_id: template.user_id,
  created_at: isoTime(template.created_at),
});

export const gridTemplateQueries = {
  /** A company's live templates of one type, by name. */
  ofCompany: (db: Kysely<DB>, companyId: number, type: GridTemplateType) =>
    db
      .selectFrom('grid_templates')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('template_type', '=', type)
      .where('deleted_at', 'is', null)
      .orderBy(sql`lower(template_name)`)
      .orderBy('id')
      .execute(),

  /** A live template of the company, or undefined. */
  ofCompanyById: (db: Kysely<DB>, companyId: number, id: number) =>
    db.selectFrom('grid_templates').selectAll().where('id', '=', id).where('company_id', '=', companyId).where('deleted_at', 'is', null).executeTakeFirst(),

  byId: (db: Kysely<DB>, id: number) => db.selectFrom('grid_templates').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
};
