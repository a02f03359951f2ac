/**
 * Queries of corrections of submitted form responses (issue 18; migration 0023): a correction is one
 * act (who, when, why) with the values it changed, each kept as it was before and as it became.
 */
import type { Kysely } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { isoTime } from '../../../common/schemas/answers';
import type { FormCorrectionRecord } from '../../../common/schemas/form-responses';
import type { DB } from '../../db/schema';
import { type Actor, writer } from '../../db/writes';
import { fieldTypeOf } from './queries';

/** One field's change: its answer row (null: the field had no answer yet), and its value before and after. */
export interface CorrectedValue {
  fieldId: number;
  answerId: number | null;
  previous: string | null;
  corrected: string | null;
}

export const correctionQueries = {
  /**
   * The form of a response, by its name, and those of its fields named: their names and types. A field
   * deleted since the response was submitted still counts: its answer is still the response's.
   */
  async formOf(db: Kysely<DB>, templateId: number, fieldIds: number[]) {
    const row = await db
      .selectFrom('form_templates')
      .select((eb) => [
        'form_templates.template_name',
        jsonArrayFrom(eb.selectFrom('form_fields').select(['id', 'field_name', 'field_type']).where('template_id', '=', templateId).where('id', 'in', fieldIds)).as('fields'),
      ])
      .where('form_templates.id', '=', templateId)
      .executeTakeFirstOrThrow();
    return { name: row.template_name, fields: new Map(row.fields.map((field) => [field.id, { name: field.field_name, type: fieldTypeOf(field.field_type) }])) };
  },

  /**
   * Records a correction by the actor (its `created_at` is the act's time) and sets the answers to
   * their corrected values; answers the correction's ids. The caller touches the response.
   */
  async record(db: Kysely<DB>, actor: Actor, correction: { responseId: number; reason: string; clientId?: string }, values: CorrectedValue[]) {
    const write = writer(db, actor);
    const created = await write.insert('form_corrections', { client_id: correction.clientId, company_id: actor.companyId, response_id: correction.responseId, reason: correction.reason });
    await write.insertMany(
      'form_correction_values',
      values.map((value) => ({ company_id: actor.companyId, correction_id: created.id, field_id: value.fieldId, previous_value: value.previous, corrected_value: value.corrected })),
    );
    for (const value of values) {
      if (value.answerId === null) {
        await write.insert('form_field_responses', { company_id: actor.companyId, response_id: correction.responseId, field_id: value.fieldId, input_data: value.corrected });
      } else {
        await write.update('form_field_responses', value.answerId, { input_data: value.corrected });
      }
    }
    return created;
  },

  /** The corrections of the given responses, oldest first, each with its values in the form's order: by response id. */
  async of(db: Kysely<DB>, responseIds: number[]): Promise<Map<number, FormCorrectionRecord[]>> {
    if (responseIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('form_corrections')
      .select((eb) => [
        'form_corrections.id',
        'form_corrections.response_id',
        'form_corrections.created_by',
        'form_corrections.created_at',
        'form_corrections.reason',
        jsonArrayFrom(
          eb
            .selectFrom('form_correction_values')
            .innerJoin('form_fields', 'form_fields.id', 'form_correction_values.field_id')
            .select(['form_correction_values.field_id', 'form_fields.field_name', 'form_fields.field_type', 'form_correction_values.previous_value', 'form_correction_values.corrected_value'])
            .whereRef('form_correction_values.correction_id', '=', 'form_corrections.id')
            .where('form_correction_values.deleted_at', 'is', null)
            .orderBy('form_fields.position')
            .orderBy('form_correction_values.id'),
        ).as('values'),
      ])
      .where('form_corrections.response_id', 'in', responseIds)
      .where('form_corrections.deleted_at', 'is', null)
      .orderBy('form_corrections.created_at')
      .orderBy('form_corrections.id')
      .execute();
    const byResponse = new Map<number, FormCorrectionRecord[]>();
    for (const row of rows) {
      const list = byResponse.get(row.response_id) ?? [];
      list.push({
        CorrectionID: row.id,
        ResponseID: row.response_id,
        CorrectedBy: row.created_by,
        CorrectedAt: isoTime(row.created_at),
        Reason: row.reason,
        values: row.values.map((value) => ({
          FieldID: value.field_id,
          FieldName: value.field_name,
          FieldType: fieldTypeOf(value.field_type),
          PreviousValue: value.previous_value,
          CorrectedValue: value.corrected_value,
        })),
      });
      byResponse.set(row.response_id, list);
    }
    return byResponse;
  },
};
