/**
 * get_report_info (spec part 2 §7; issue 15): what the report screens offer to choose from: the
 * company's live rooms, the problem types seen (with how many and when first and last), the form
 * categories and forms with their fields, the batches, the products sprayed, and the first and last
 * days a problem was seen (a date range's bounds).
 */
import { type Kysely, sql } from 'kysely';
import type { FormCategory } from '../../../common/messages/forms';
import type { ReportInfoAnswer } from '../../../common/schemas/reports';
import type { DB } from '../../db/schema';
import { categoryOf, formFieldJson } from '../forms/queries';
import { type ProblemCountRow, ProblemNames } from './problem-counts';
import { type Payload, roomsOf } from './trends';

export async function reportInfo(db: Kysely<DB>, companyId: number): Promise<Payload<ReportInfoAnswer>> {
  const rooms = await roomsOf(db, companyId);
  const roomIds = rooms.map((room) => room.id);
  // The problem types seen in live rooms and grids (dismissed ones were never there), by the same key as the trends.
  const { rows: types } =
    roomIds.length === 0
      ? { rows: [] }
      : await sql<Pick<ProblemCountRow, 'key' | 'slug' | 'name' | 'count'> & { first: string; last: string }>`
          SELECT COALESCE(p.problem_slug, lower(p.problem_type)) AS key, min(p.problem_slug) AS slug, min(p.problem_type COLLATE "C") AS name, count(*)::int AS count,
            to_char(min(p.observed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS first, to_char(max(p.observed_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS last
          FROM plant_problems p JOIN grids g ON g.id = p.grid_id AND g.deleted_at IS NULL
          WHERE p.room_id = ANY(${roomIds}::int[]) AND p.deleted_at IS NULL AND p.status <> 'dismissed'
          GROUP BY 1`.execute(db);
  const names = new ProblemNames();
  for (const type of types) names.see(type);
  const templates = await db.selectFrom('form_templates').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('template_name').orderBy('id').execute();
  const fields = await db
    .selectFrom('form_fields')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .where('template_id', 'in', templates.length > 0 ? templates.map((template) => template.id) : [-1])
    .orderBy('template_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
  const batches = await db
    .selectFrom('batches')
    .select(['id', 'batch_number', 'strain_name', 'batch_status', 'start_date', 'end_date'])
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .orderBy('batch_number')
    .orderBy('id')
    .execute();
  const products = await db
    .selectFrom('spray_applications')
    .select(sql<string>`min(product_name)`.as('name'))
    .where('company_id', '=', companyId)
    .where('deleted_at', 'is', null)
    .groupBy(sql`lower(product_name)`)
    .orderBy(sql`lower(product_name)`)
    .execute();
  const categories = new Set<FormCategory>(templates.map((template) => categoryOf(template.form_category)));
  const days = types.flatMap((type) => [type.first, type.last]).sort();
  return {
    rooms: rooms.map((room) => ({ RoomID: room.id, Name: room.name })),
    problem_types: types
      .map((type) => ({ ...names.of(type.key), count: type.count, first_observed: type.first, last_observed: type.last }))
      .sort((a, b) => b.count - a.count || a.problem_type.localeCompare(b.problem_type)),
    form_categories: [...categories].sort(),
    templates: templates.map((template) => ({
      TemplateID: template.id,
      TemplateName: template.template_name,
      FormCategory: categoryOf(template.form_category),
      fields: fields.filter((field) => field.template_id === template.id).map(formFieldJson),
    })),
    batches: batches.map((batch) => ({
      BatchID: batch.id,
      BatchNumber: batch.batch_number,
      StrainName: batch.strain_name,
      BatchStatus: batch.batch_status,
      StartDate: batch.start_date,
      EndDate: batch.end_date,
    })),
    product_names: products.map((product) => product.name),
    first_observed: days[0] ?? null,
    last_observed: days.at(-1) ?? null,
  };
}
