/**
 * A trap scan's counts as a Sticky Trap form response (issue 17 "Sticky traps"): the count of each size
 * class fills its Number field of the company's default Sticky Trap form (common/messages/scans.ts
 * STICKY_TRAP_FORM_FIELDS), the photo its Image field, so the field responses report, the trap markers and
 * every reader of sticky-trap responses see a scanned trap as they see one counted by hand. Made through
 * the forms domain's one insert of a response (responseQueries.create), audited as a submission is, and
 * with the same automations (a `form_submitted` rule, a keyword task).
 */
import type { Kysely } from 'kysely';
import { auditTitles } from '../../../common/messages/audit-titles';
import { STICKY_TRAP_CATEGORY } from '../../../common/messages/forms';
import { TRAP_PHOTO_FIELD } from '../../../common/messages/scans';
import type { TrapCounts } from '../../../common/schemas/scans';
import type { DB } from '../../db/schema';
import { type Actor, writer } from '../../db/writes';
import { recordAudit } from '../audit/record';
import { notifyResponseSubmitted } from '../automations/triggers';
import { type Answer, responseQueries } from '../forms/responses-queries';
import { applyTaskAutomations, taskAutomationQueries } from '../tasks/automations';
import { SIZE_CLASSES, STICKY_TRAP_FORM_FIELDS } from '../../../common/vision/trap-marks';

/**
 * The company's default Sticky Trap form (the first of its category: the default first, then the
 * oldest) with its live, active fields, or undefined when the company has none.
 */
async function trapForm(db: Kysely<DB>, companyId: number) {
  const template = await db
    .selectFrom('form_templates')
    .select(['id', 'template_name'])
    .where('company_id', '=', companyId)
    .where('form_category', '=', STICKY_TRAP_CATEGORY)
    .where('deleted_at', 'is', null)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!template) return undefined;
  const fields = await db
    .selectFrom('form_fields')
    .select(['id', 'field_name', 'field_type'])
    .where('template_id', '=', template.id)
    .where('deleted_at', 'is', null)
    .where('is_active', '=', 1)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return { ...template, fields };
}

/** The form's first field of this name (any case) and type. */
const fieldNamed = (fields: ReadonlyArray<{ id: number; field_name: string; field_type: string }>, name: string, type: string) =>
  fields.find((field) => field.field_type === type && field.field_name.trim().toLowerCase() === name.toLowerCase());

/**
 * Makes the Sticky Trap response of a trap box's counts, at the act's time, by the scanner, named
 * `clientId` (scans' `trapResponseClientId`); answers its id, or null when the company's form has no
 * count field to fill (no Sticky Trap form, or one whose fields were all renamed: the counts stay in the
 * scan). Decision: the answers are written as counted, without the form's required-field check: the
 * response is made from a scan, not filled in, and a grower's observation is never refused for what an
 * Admin changed on the form (README "Forms offline").
 */
export async function recordTrapResponse(
  db: Kysely<DB>,
  actor: Actor,
  trap: { gridBoxId: number; counts: TrapCounts; photo: { id: string; path: string }; submittedBy: number; at: Date; clientId: string },
): Promise<number | null> {
  const form = await trapForm(db, actor.companyId);
  if (!form) return null;
  const answers: Answer[] = [];
  for (const sizeClass of SIZE_CLASSES) {
    const field = fieldNamed(form.fields, STICKY_TRAP_FORM_FIELDS[sizeClass], 'Number');
    if (field) answers.push({ fieldID: field.id, inputData: String(trap.counts[sizeClass]) });
  }
  if (answers.length === 0) return null;
  const photoField = fieldNamed(form.fields, TRAP_PHOTO_FIELD, 'Image');
  // An Image field's answer names the photo; the photo itself is the response's image of that field.
  if (photoField) answers.push({ fieldID: photoField.id, inputData: trap.photo.path });
  const { at, submittedBy } = trap;
  // The box's room, and the batch it held then, which the response is filed under as a submission's is.
  const place = (await responseQueries.placesOfBoxes(db, [trap.gridBoxId], at)).get(trap.gridBoxId);
  if (!place) throw new Error(`Grid box ${trap.gridBoxId} was found live and is gone`);
  const box = { id: trap.gridBoxId, roomId: place.roomId };
  const { batchId } = place;
  const response = await responseQueries.create(db, actor, { templateId: form.id, gridBoxId: box.id, roomId: box.roomId, batchId, submittedBy, submittedAt: at, clientId: trap.clientId }, answers);
  await writer(db, actor).insert('form_response_images', { company_id: actor.companyId, response_id: response.id, field_id: photoField?.id ?? null, file_id: trap.photo.id });
  const made = { id: response.id, templateId: form.id, formName: form.template_name, gridBoxId: box.id, roomId: box.roomId, batchId };
  await applyTaskAutomations(db, actor, await taskAutomationQueries.ofTemplate(db, form.id), made, answers);
  await notifyResponseSubmitted(db, actor, { id: response.id, templateId: form.id, roomId: box.roomId, gridBoxId: box.id, submittedAt: at }, answers);
  // In the words of a submission's event (forms/responses.ts), so the trail reads alike.
  await recordAudit(db, actor, { title: auditTitles.submittedForBox(form.template_name, box.id), gridBoxId: box.id, roomId: box.roomId, batchId, responseId: response.id, details: { template_id: form.id, from: 'scan' } });
  return response.id;
}
