/**
 * What a correction of a submitted form response may change, the same on the tablet and the server
 * (issue 18, rooms/FormEdit; the route: server/domains/forms/corrections.ts, the domain function:
 * src/api/form-corrections.ts). The required fields are checked beside it with common/form-rules.ts,
 * as a submission's are.
 *
 * - Who: the person who submitted the response, and Admins (SuperAdmin too) anyone's.
 * - A blank value (empty or spaces) is no answer (null). A value sent as it already is changes nothing;
 *   a correction that changes nothing is refused.
 * - Each field once, and only fields of the response's form.
 * - A photo's answer (its file name) and a Problem answer (its problems are recorded on the box, and
 *   managed there) are not corrected.
 */
import { isBlank } from './form-rules';
import { formResponseMessages as m } from './messages/form-responses';
import type { FieldType } from './messages/forms';
import type { Role } from './roles';

/** The roles that may correct anyone's response; any other role, only its own. */
const CORRECTS_ANY: readonly Role[] = ['Admin', 'SuperAdmin'];

/** Whether `user` may correct a response submitted by `submittedBy`. */
export const mayCorrect = (user: { userId: number; role: Role }, submittedBy: number | null) => CORRECTS_ANY.includes(user.role) || user.userId === submittedBy;

/** A field's value as a correction stores it: blank is null. */
export const correctionValue = (value: string | null | undefined): string | null => (isBlank(value) ? null : value!);

export interface CorrectedField<Id> {
  fieldId: Id;
  name: string;
  type: FieldType;
  previous: string | null;
  corrected: string | null;
}

/**
 * The fields a correction changes, in the order sent, with their values before (as stored) and after;
 * or the message of the first value it may not take. `fieldOf`: the field of the response's form
 * (undefined: not one); `currentOf`: the response's answer to it (undefined: none).
 */
export function correctedFields<Id extends string | number>(
  wanted: ReadonlyArray<{ fieldId: Id; inputData: string | null }>,
  fieldOf: (fieldId: Id) => { name: string; type: FieldType } | undefined,
  currentOf: (fieldId: Id) => string | null | undefined,
): { fields: Array<CorrectedField<Id>>; error: string | null } {
  const seen = new Set<string>();
  const fields: Array<CorrectedField<Id>> = [];
  for (const { fieldId, inputData } of wanted) {
    const field = fieldOf(fieldId);
    if (!field) return { fields: [], error: m.correctionFieldNotInForm(fieldId) };
    if (seen.has(String(fieldId))) return { fields: [], error: m.correctionFieldTwice(field.name) };
    seen.add(String(fieldId));
    const previous = currentOf(fieldId) ?? null;
    const corrected = correctionValue(inputData);
    // Sent as it is (a screen may send every answer): no change.
    if (correctionValue(previous) === corrected) continue;
    if (field.type === 'Image') return { fields: [], error: m.photoNotCorrectable(field.name) };
    if (field.type === 'Problem') return { fields: [], error: m.problemNotCorrectable(field.name) };
    fields.push({ fieldId, name: field.name, type: field.type, previous, corrected });
  }
  return fields.length === 0 ? { fields, error: m.nothingToCorrect } : { fields, error: null };
}
