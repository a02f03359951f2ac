/** Queries of form responses and their answers, and the JSON shapes the spec's readers expect. */
import type { Kysely } from 'kysely';
import { formResponseMessages as m } from '../../../common/messages/form-responses';
import type { DB } from '../../db/schema';
import { type Actor, writer } from '../../db/writes';
import { badRequest } from '../../http/errors';

export interface Answer {
  fieldID: number;
  inputData: string | null;
}

/** The sticky-trap forms are those of this category (spec §5). */
export const STICKY_TRAP_CATEGORY = 'Sticky Trap';

const isBlank = (value: string | null) => value === null || value.trim() === '';

export const responseQueries = {
  /**
   * The one live template the answers belong to. The template is not sent (spec §7): it follows from the
   * fields answered, which must all be live fields of one template of the company.
   */
  async templateOfAnswers(db: Kysely<DB>, companyId: number, answers: Answer[]): Promise<number> {
    const ids = [...new Set(answers.map((answer) => answer.fieldID))];
    const fields = await db
      .selectFrom('form_fields')
      .innerJoin('form_templates', 'form_templates.id', 'form_fields.template_id')
      .select(['form_fields.id', 'form_fields.template_id'])
      .where('form_fields.id', 'in', ids)
      .where('form_fields.company_id', '=', companyId)
      .where('form_fields.deleted_at', 'is', null)
      .where('form_templates.deleted_at', 'is', null)
      .execute();
    const found = new Set(fields.map((field) => field.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw badRequest(m.fieldNotFound(missing));
    const templates = new Set(fields.map((field) => field.template_id));
    if (templates.size !== 1) throw badRequest(m.oneTemplate);
    return fields[0]!.template_id;
  },

  /** Every active required field of the template needs a non-blank answer; the message names the first missing one. */
  async checkRequired(db: Kysely<DB>, templateId: number, answers: Answer[]) {
    const required = await db
      .selectFrom('form_fields')
      .select(['id', 'field_name'])
      .where('template_id', '=', templateId)
      .where('is_required', '=', 1)
      .where('is_active', '=', 1)
      .where('deleted_at', 'is', null)
      .orderBy('position')
      .execute();
    const answered = new Set(answers.filter((answer) => !isBlank(answer.inputData)).map((answer) => answer.fieldID));
    const missing = required.find((field) => !answered.has(field.id));
    if (missing) throw badRequest(m.fieldRequired(missing.field_name));
  },

  async roomOfBox(db: Kysely<DB>, gridBoxId: number) {
    const row = await db
      .selectFrom('grid_boxes')
      .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
      .select('grids.room_id')
      .where('grid_boxes.id', '=', gridBoxId)
      .executeTakeFirstOrThrow();
    return row.room_id;
  },

  async create(db: Kysely<DB>, actor: Actor, values: { templateId: number; gridBoxId: number | null; roomId: number | null; submittedBy: number }, answers: Answer[]) {
    const write = writer(db, actor);
    const { id } = await write.insert('form_responses', {
      company_id: actor.companyId,
      template_id: values.templateId,
      grid_box_id: values.gridBoxId,
      room_id: values.roomId,
      submitted_by: values.submittedBy,
    });
    await write.insertMany(
      'form_field_responses',
      answers.map((answer) => ({ company_id: actor.companyId, response_id: id, field_id: answer.fieldID, input_data: answer.inputData })),
    );
    return id;
  },

  async byId(db: Kysely<DB>, id: number) {
    return db.selectFrom('form_responses').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  },

  /** The answers of the given responses, with the field's name and type so a reader needs no template. */
  async answersOf(db: Kysely<DB>, responseIds: number[]) {
    if (responseIds.length === 0) return [];
    const rows = await db
      .selectFrom('form_field_responses')
      .innerJoin('form_fields', 'form_fields.id', 'form_field_responses.field_id')
      .select([
        'form_field_responses.id',
        'form_field_responses.response_id',
        'form_field_responses.field_id',
        'form_field_responses.input_data',
        'form_fields.field_name',
        'form_fields.field_type',
      ])
      .where('form_field_responses.response_id', 'in', responseIds)
      .where('form_field_responses.deleted_at', 'is', null)
      .orderBy('form_fields.position')
      .orderBy('form_field_responses.id')
      .execute();
    return rows.map((row) => ({
      FieldResponseID: row.id,
      ResponseID: row.response_id,
      FieldID: row.field_id,
      FieldName: row.field_name,
      FieldType: row.field_type,
      InputData: row.input_data,
    }));
  },

  /** A grid box's live responses, newest first, optionally of one category only. */
  async responsesOfBox(db: Kysely<DB>, gridBoxId: number, category?: string) {
    let query = db
      .selectFrom('form_responses')
      .innerJoin('form_templates', 'form_templates.id', 'form_responses.template_id')
      .select([
        'form_responses.id',
        'form_responses.template_id',
        'form_responses.grid_box_id',
        'form_responses.room_id',
        'form_responses.submitted_by',
        'form_responses.submitted_at',
        'form_templates.template_name',
        'form_templates.form_category',
      ])
      .where('form_responses.grid_box_id', '=', gridBoxId)
      .where('form_responses.deleted_at', 'is', null);
    if (category !== undefined) query = query.where('form_templates.form_category', '=', category);
    return query.orderBy('form_responses.submitted_at', 'desc').orderBy('form_responses.id', 'desc').execute();
  },
};

type ResponseRow = Awaited<ReturnType<typeof responseQueries.responsesOfBox>>[number];

export const responseJson = (response: ResponseRow, fieldResponses: Awaited<ReturnType<typeof responseQueries.answersOf>>) => ({
  ResponseID: response.id,
  TemplateID: response.template_id,
  TemplateName: response.template_name,
  FormCategory: response.form_category,
  GridBoxID: response.grid_box_id,
  RoomID: response.room_id,
  SubmittedBy: response.submitted_by,
  SubmittedAt: new Date(response.submitted_at).toISOString(),
  fieldResponses: fieldResponses.filter((answer) => answer.ResponseID === response.id),
});
