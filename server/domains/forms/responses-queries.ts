/** Queries of form responses and their answers, and the JSON shapes the spec's readers expect. */
import type { Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { firstMissingRequired } from '../../../common/form-rules';
import { formResponseMessages as m } from '../../../common/messages/form-responses';
import { isoTime } from '../../../common/schemas/answers';
import type { FieldAnswerRecord, FormResponseRecord, ResponseImageRecord } from '../../../common/schemas/form-responses';
import type { DB } from '../../db/schema';
import { type Actor, writer } from '../../db/writes';
import { badRequest } from '../../http/errors';
import { taskQueries } from '../tasks/queries';
import { correctionQueries } from './corrections-queries';
import { categoryOf, fieldTypeOf } from './queries';

export interface Answer {
  fieldID: number;
  inputData: string | null;
}

export interface ResponseFilter {
  ids?: number[];
  gridBoxId?: number;
  gridId?: number;
  batchId?: number;
  category?: string;
  /** Calendar days, both included, in UTC (the spec names no time zone). */
  startDate?: string;
  endDate?: string;
}

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export const responseQueries = {
  /**
   * The one template the answers belong to. The template is not sent (spec §7): it follows from the
   * fields answered, which must all be fields of one template of the company. The guard has already
   * answered another company's field 403 and one that never was 404 (ownership.ts
   * `answered_form_field`): `fieldNotFound` is left for a SuperAdmin's field of a company other than
   * the one it submits for. A field or template deleted since is accepted: a form filled offline on a
   * tablet whose copy was older is still a grower's observation, and is kept (README "Forms
   * offline"). Answered with its name (for the audit trail) and the answered fields' names and types
   * (a Problem field's answer is read), in one statement.
   */
  async templateOfAnswers(db: Kysely<DB>, companyId: number, answers: Answer[]): Promise<{ id: number; name: string; fields: Map<number, { name: string; type: string }> }> {
    const ids = [...new Set(answers.map((answer) => answer.fieldID))];
    const fields = await db
      .selectFrom('form_fields')
      .innerJoin('form_templates', 'form_templates.id', 'form_fields.template_id')
      .select(['form_fields.id', 'form_fields.template_id', 'form_fields.field_name', 'form_fields.field_type', 'form_templates.template_name'])
      .where('form_fields.id', 'in', ids)
      .where('form_fields.company_id', '=', companyId)
      .execute();
    const found = new Set(fields.map((field) => field.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) throw badRequest(m.fieldNotFound(missing));
    const templates = new Set(fields.map((field) => field.template_id));
    if (templates.size !== 1) throw badRequest(m.oneTemplate);
    return { id: fields[0]!.template_id, name: fields[0]!.template_name, fields: new Map(fields.map((field) => [field.id, { name: field.field_name, type: field.field_type }])) };
  },

  /**
   * Every required field that showed with these answers when the form was filled needs a non-blank
   * answer (common/form-rules.ts: a field hidden until another is answered cannot be filled); the
   * message names the first one missing. Fields as they were at `filledAt`: one added, changed or
   * deleted after it (a form filled offline, sent later) is not held against the answers.
   */
  async checkRequired(db: Kysely<DB>, templateId: number, answers: Answer[], filledAt: Date) {
    // The template's fields and its live rules in one statement: a tablet replays its submissions
    // hundreds to a push, and each statement is a round trip (dates come back as JSON text here).
    const { fields, rules } = await db
      .selectNoFrom((eb) => [
        jsonArrayFrom(
          eb
            .selectFrom('form_fields')
            .select(['id', 'field_name', 'field_type', 'is_required', 'is_active', 'created_at', 'updated_at', 'deleted_at'])
            .where('template_id', '=', templateId)
            .orderBy('position')
            .orderBy('id'),
        ).as('fields'),
        jsonArrayFrom(eb.selectFrom('form_field_hide_rules').select(['hidden_field_id', 'linked_field_id', 'linked_input']).where('template_id', '=', templateId).where('deleted_at', 'is', null)).as('rules'),
      ])
      .executeTakeFirstOrThrow();
    const asFilled = fields.filter((field) => field.deleted_at === null || new Date(field.deleted_at) > filledAt);
    const unchangedSince = (field: (typeof fields)[number]) => new Date(field.created_at) <= filledAt && new Date(field.updated_at) <= filledAt;
    const missing = firstMissingRequired(
      asFilled.map((field) => ({ FieldID: field.id, FieldName: field.field_name, FieldType: field.field_type, IsRequired: unchangedSince(field) ? field.is_required : 0, IsActive: field.is_active })),
      rules.map((rule) => ({ form_field_hidden_FieldID: rule.hidden_field_id, form_field_linked_FieldID: rule.linked_field_id, form_field_linked_input: rule.linked_input })),
      new Map(answers.map((answer) => [String(answer.fieldID), answer.inputData])),
    );
    if (missing) throw badRequest(m.fieldRequired(missing.FieldName));
  },

  /**
   * The room of each box, and the batch the box held when the form was filled (its latest link by then),
   * which the response is filed under; with the box's company, grid, position and name, which a problem
   * its answers name is recorded with (problems/record.ts ProblemBox).
   */
  async placesOfBoxes(db: Kysely<DB>, gridBoxIds: number[], filledAt: Date) {
    const rows = await db
      .selectFrom('grid_boxes')
      .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
      .select((eb) => [
        'grid_boxes.id',
        'grid_boxes.company_id',
        'grid_boxes.grid_id',
        'grid_boxes.x',
        'grid_boxes.y',
        'grid_boxes.custom_name',
        'grids.room_id',
        eb
          .selectFrom('batch_grid_boxes')
          .select('batch_grid_boxes.batch_id')
          .whereRef('batch_grid_boxes.grid_box_id', '=', 'grid_boxes.id')
          .where('batch_grid_boxes.created_at', '<=', filledAt)
          .orderBy('batch_grid_boxes.created_at', 'desc')
          .limit(1)
          .as('batch_id'),
      ])
      .where('grid_boxes.id', 'in', gridBoxIds)
      .execute();
    return new Map(rows.map(({ batch_id, ...box }) => [box.id, { roomId: box.room_id, batchId: batch_id, box }]));
  },

  async roomName(db: Kysely<DB>, roomId: number) {
    const row = await db.selectFrom('rooms').select('name').where('id', '=', roomId).executeTakeFirstOrThrow();
    return row.name;
  },

  async create(
    db: Kysely<DB>,
    actor: Actor,
    values: { templateId: number; gridBoxId: number | null; roomId: number | null; batchId?: number | null; submittedBy: number; submittedAt: Date; clientId?: string },
    answers: Answer[],
  ) {
    const write = writer(db, actor);
    const created = await write.insert('form_responses', {
      client_id: values.clientId,
      company_id: actor.companyId,
      template_id: values.templateId,
      grid_box_id: values.gridBoxId,
      room_id: values.roomId,
      batch_id: values.batchId ?? null,
      submitted_by: values.submittedBy,
      submitted_at: values.submittedAt,
    });
    await write.insertMany(
      'form_field_responses',
      answers.map((answer) => ({ company_id: actor.companyId, response_id: created.id, field_id: answer.fieldID, input_data: answer.inputData })),
    );
    return created;
  },

  async isFieldOfTemplate(db: Kysely<DB>, fieldId: number, templateId: number) {
    const row = await db.selectFrom('form_fields').select('id').where('id', '=', fieldId).where('template_id', '=', templateId).executeTakeFirst();
    return row !== undefined;
  },

  async byId(db: Kysely<DB>, id: number) {
    return db.selectFrom('form_responses').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  },

  /** The answers of the given responses, with the field's name and type so a reader needs no template. */
  async answersOf(db: Kysely<DB>, responseIds: number[]): Promise<FieldAnswerRecord[]> {
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
      FieldType: fieldTypeOf(row.field_type),
      InputData: row.input_data,
    }));
  },

  /** The photos of the given responses, each with the field it answers and the path it is served from. */
  async imagesOf(db: Kysely<DB>, responseIds: number[]): Promise<ResponseImageRecord[]> {
    if (responseIds.length === 0) return [];
    const rows = await db
      .selectFrom('form_response_images')
      .select(['id', 'response_id', 'field_id', 'file_id'])
      .where('response_id', 'in', responseIds)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({ ImageID: row.id, ResponseID: row.response_id, FieldID: row.field_id, ImagePath: `/api/files/${row.file_id}` }));
  },

  /** Live responses matching the filter, newest first. */
  async responses(db: Kysely<DB>, filter: ResponseFilter) {
    let query = db
      .selectFrom('form_responses')
      .innerJoin('form_templates', 'form_templates.id', 'form_responses.template_id')
      .select([
        'form_responses.id',
        'form_responses.template_id',
        'form_responses.grid_box_id',
        'form_responses.room_id',
        'form_responses.batch_id',
        'form_responses.submitted_by',
        'form_responses.submitted_at',
        'form_templates.template_name',
        'form_templates.form_category',
      ])
      .where('form_responses.deleted_at', 'is', null);
    if (filter.ids !== undefined) query = query.where('form_responses.id', 'in', filter.ids.length ? filter.ids : [0]);
    if (filter.gridBoxId !== undefined) query = query.where('form_responses.grid_box_id', '=', filter.gridBoxId);
    if (filter.batchId !== undefined) query = query.where('form_responses.batch_id', '=', filter.batchId);
    if (filter.gridId !== undefined) {
      const gridId = filter.gridId;
      query = query.where('form_responses.grid_box_id', 'in', (eb) => eb.selectFrom('grid_boxes').select('id').where('grid_id', '=', gridId));
    }
    if (filter.category !== undefined) query = query.where('form_templates.form_category', '=', filter.category);
    if (filter.startDate !== undefined) query = query.where('form_responses.submitted_at', '>=', new Date(`${filter.startDate}T00:00:00Z`));
    if (filter.endDate !== undefined) query = query.where('form_responses.submitted_at', '<', new Date(`${nextDay(filter.endDate)}T00:00:00Z`));
    return query.orderBy('form_responses.submitted_at', 'desc').orderBy('form_responses.id', 'desc').execute();
  },

  /** The responses with their answers, photos, task, comments and corrections, as readers (and the sync document) get them. */
  async responsesWithAnswers(db: Kysely<DB>, filter: ResponseFilter) {
    const responses = await responseQueries.responses(db, filter);
    const ids = responses.map((response) => response.id);
    const [answers, images] = [await responseQueries.answersOf(db, ids), await responseQueries.imagesOf(db, ids)];
    const [tasks, comments] = [await taskQueries.ofResponses(db, ids), await taskQueries.commentsOf(db, ids)];
    const corrections = await correctionQueries.of(db, ids);
    return responses.map((response) => ({
      ...responseJson(response, answers, images),
      task: tasks.get(response.id) ?? null,
      comments: comments.get(response.id) ?? [],
      corrections: corrections.get(response.id) ?? [],
    }));
  },
};

type ResponseRow = Awaited<ReturnType<typeof responseQueries.responses>>[number];

export const responseJson = (response: ResponseRow, fieldResponses: FieldAnswerRecord[], images: ResponseImageRecord[]): FormResponseRecord => ({
  ResponseID: response.id,
  TemplateID: response.template_id,
  TemplateName: response.template_name,
  FormCategory: categoryOf(response.form_category),
  GridBoxID: response.grid_box_id,
  RoomID: response.room_id,
  BatchID: response.batch_id,
  SubmittedBy: response.submitted_by,
  SubmittedAt: isoTime(response.submitted_at),
  fieldResponses: fieldResponses.filter((answer) => answer.ResponseID === response.id),
  images: images.filter((image) => image.ResponseID === response.id),
});
