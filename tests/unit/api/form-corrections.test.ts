/**
 * Correcting a submitted form response (src/api/form-corrections.ts) on a real tablet (outbox, RxDB,
 * sync engine) against the real server, behind a proxy that can cut the network: what the server would
 * refuse is refused before anything is queued, with the server's messages; a correction made offline
 * (even of a response whose own create still waits) shows at once with the value it replaced, and
 * reaches the server once, where the tablet's copy is then the server's.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ClientId } from '../../../common/client-ids';
import { formResponseMessages as m } from '../../../common/messages/form-responses';
import type { FormTemplateRecord } from '../../../common/schemas/forms';
import { correctFormResponse, type FormResponse, submitForm } from '../../../src/api/form-responses';
import { clientIdsOf, createUser } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet();
const db = () => fleet.server.database.db;

/** Count (required Number), Notes (Text), Photo (Image): the fields' client ids and integer ids. */
async function countForm() {
  const response = await fleet.server.request<{ template: FormTemplateRecord }>('POST', '/save_form_template', {
    token: fleet.farm.admin.token,
    json: {
      templateName: `Count ${randomUUID()}`,
      companyID: fleet.farm.companyId,
      formCategory: 'Sticky Trap',
      fields: [
        { fieldName: 'Count', fieldType: 'Number', isRequired: 1 },
        { fieldName: 'Notes', fieldType: 'Text' },
        { fieldName: 'Photo', fieldType: 'Image' },
      ],
    },
  });
  expect(response.status).toBe(200);
  const ids = response.body.template.fields.map((field) => Number(field.FieldID));
  const [count, notes, photo] = (await clientIdsOf(fleet.server, 'form_fields', ids)) as [ClientId, ClientId, ClientId];
  return { count, notes, photo, countId: ids[0]! };
}

const local = async (device: Awaited<ReturnType<typeof fleet.tablet>>, id: ClientId) => (await device.database.form_responses.findOne(id).exec())?.toMutableJSON() as (FormResponse & { serverId?: number }) | undefined;

describe('correctFormResponse', () => {
  it('refuses before queueing what the server would refuse, with its messages', async () => {
    const form = await countForm();
    const device = await fleet.tablet();
    const { boxKeys } = await fleet.pulledGrid(device, 1);
    const { response_id } = await submitForm(device.context, { submittedBy: fleet.farm.regular.id, gridBoxId: boxKeys[0]!, fieldResponses: [{ fieldId: form.count, inputData: '4' }, { fieldId: form.photo, inputData: 'trap.jpg' }] });
    await device.engine.settle();
    const queued = await device.outbox.count();
    const correct = (answers: Array<{ fieldId: ClientId; inputData: string | null }>, reason = 'Recounted') => correctFormResponse(device.context, { responseId: response_id, answers, reason });

    await rejects(correct([{ fieldId: form.count, inputData: '5' }], '  '), m.correctionReasonRequired);
    await rejects(correct([{ fieldId: form.count, inputData: '' }]), m.fieldRequired('Count'));
    await rejects(correct([{ fieldId: form.count, inputData: '4' }]), m.nothingToCorrect);
    await rejects(correct([{ fieldId: form.photo, inputData: 'other.jpg' }]), m.photoNotCorrectable('Photo'));
    await rejects(correct([{ fieldId: form.count, inputData: '5' }, { fieldId: form.count, inputData: '6' }]), m.correctionFieldTwice('Count'));
    expect(await device.outbox.count()).toBe(queued);

    // Another grower's tablet holds the response too, but it is not theirs to correct.
    const other = await fleet.tablet(await createUser(fleet.server, fleet.farm.companyId, 'Regular'), { collections: ['form_responses', 'form_templates'] });
    await rejects(correctFormResponse(other.context, { responseId: response_id, answers: [{ fieldId: form.count, inputData: '5' }], reason: 'Mine now' }), m.notYourResponse);
    expect(await other.outbox.count()).toBe(0);
  });

  it('corrects offline, even a response whose create still waits: shown at once, sent once, then the server’s copy', async () => {
    const form = await countForm();
    const device = await fleet.tablet();
    const { boxKeys } = await fleet.pulledGrid(device, 1);
    fleet.proxy.setOnline(false);
    const { response_id } = await submitForm(device.context, { submittedBy: fleet.farm.regular.id, gridBoxId: boxKeys[0]!, fieldResponses: [{ fieldId: form.count, inputData: '12' }, { fieldId: form.notes, inputData: 'Yellow card' }] });
    await correctFormResponse(device.context, { responseId: response_id, answers: [{ fieldId: form.count, inputData: '21' }, { fieldId: form.notes, inputData: 'Yellow card' }], reason: ' Counted the wrong card ' });

    const shown = await local(device, response_id);
    expect(shown?.fieldResponses.map((answer) => [answer.FieldName, answer.InputData])).toEqual([
      ['Count', '21'],
      ['Notes', 'Yellow card'],
    ]);
    expect(shown?.corrections).toEqual([
      {
        CorrectionID: null,
        ResponseID: response_id,
        CorrectedBy: fleet.farm.regular.id,
        CorrectedAt: expect.any(String),
        Reason: 'Counted the wrong card',
        values: [{ FieldID: form.count, FieldName: 'Count', FieldType: 'Number', PreviousValue: '12', CorrectedValue: '21' }],
      },
    ]);
    expect((await device.outbox.all()).map((entry) => entry.path)).toEqual(['/submit_form', '/correct_form_response']);

    await fleet.reconnect(device);
    const row = await db().selectFrom('form_responses').select('id').where('client_id', '=', response_id).executeTakeFirstOrThrow();
    const corrections = await db().selectFrom('form_corrections').select(['id', 'reason', 'created_by']).where('response_id', '=', row.id).execute();
    expect(corrections).toEqual([{ id: expect.any(Number), reason: 'Counted the wrong card', created_by: fleet.farm.regular.id }]);
    expect(await db().selectFrom('form_correction_values').select(['field_id', 'previous_value', 'corrected_value']).where('correction_id', '=', corrections[0]!.id).execute()).toEqual([
      { field_id: form.countId, previous_value: '12', corrected_value: '21' },
    ]);
    const synced = await local(device, response_id);
    expect(synced?.serverId).toBe(row.id);
    expect(synced?.corrections).toEqual([{ ...shown!.corrections![0], CorrectionID: corrections[0]!.id, CorrectedAt: expect.any(String) }]);
    expect(synced?.fieldResponses.find((answer) => answer.FieldID === form.count)?.InputData).toBe('21');
    expect(await fleet.notFromServer(device)).toEqual([]);
  });
});
