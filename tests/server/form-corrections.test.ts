/**
 * Correcting a submitted form response (issue 18, rooms/FormEdit; server/domains/forms/corrections.ts)
 * over HTTP on the real database: the answer changes, the value as submitted is kept and read back, the
 * act is audited with who, what, from what, to what and why; values are checked as a submission's are;
 * a repeat corrects once; another company's response is refused, and so is someone else's for a Regular.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClientId } from '../../common/client-ids';
import { formResponseMessages as m } from '../../common/messages/form-responses';
import { httpMessages } from '../../common/messages/http';
import { CORRECTION_REASON_MAX, type FormCorrectionRecord } from '../../common/schemas/form-responses';
import { clientIdOf, createGrid, createRoom, createTenant, createUser, type SignedInUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
let secondGrower: SignedInUser;
let roomId: number;
let boxIds: number[];
let form: { id: number; name: string; field: (name: string) => number };
let otherForm: { id: number; name: string; field: (name: string) => number };

const request = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });
const error = (message: string) => ({ status: 'error', message });
const db = () => server.database.db;

async function template(tenant: Tenant) {
  const name = `Mite check ${randomUUID()}`;
  const response = await request('POST', '/save_form_template', tenant.admin.token, {
    json: {
      templateName: name,
      companyID: tenant.companyId,
      formCategory: 'Scouting',
      fields: [
        { fieldName: 'Mite count', fieldType: 'Number', fieldOptions: [], isRequired: 1 },
        { fieldName: 'Notes', fieldType: 'Textarea', fieldOptions: [], isRequired: 0 },
        { fieldName: 'Leaf photo', fieldType: 'Image', fieldOptions: [], isRequired: 0 },
        { fieldName: 'Problems seen', fieldType: 'Problem', fieldOptions: [], isRequired: 0 },
      ],
    },
  });
  expect(response.status).toBe(200);
  const fields = (response.body as { template: { fields: Array<{ FieldID: number; FieldName: string }> } }).template.fields;
  return { id: (response.body as { template_id: number }).template_id, name, field: (fieldName: string) => fields.find((field) => field.FieldName === fieldName)!.FieldID };
}

/** A response of the farm's form for a box, by `user`: the count and notes given. */
async function submitted(user: SignedInUser, count = '12', notes = 'Lower leaves') {
  const response = await request('POST', '/submit_form', user.token, {
    json: {
      GridBoxID: boxIds[0],
      submittedBy: user.id,
      fieldResponses: [
        { fieldID: form.field('Mite count'), inputData: count },
        { fieldID: form.field('Notes'), inputData: notes },
        { fieldID: form.field('Leaf photo'), inputData: 'leaf.jpg' },
        { fieldID: form.field('Problems seen'), inputData: null },
      ],
    },
  });
  expect(response.status).toBe(200);
  return (response.body as { response_id: number }).response_id;
}

type Correction = { response_id?: number | string; user_id?: number; fieldResponses?: Array<{ fieldID: number; inputData: string | null }>; reason?: string; client_id?: string; company_id?: number };
const correct = (user: SignedInUser, json: Correction, headers: Record<string, string> = {}) =>
  request('POST', '/correct_form_response', user.token, { json: { user_id: user.id, company_id: user.companyId, ...json }, headers });
const countTo = (value: string | null) => [{ fieldID: form.field('Mite count'), inputData: value }];

const answerOf = async (responseId: number, fieldId: number) =>
  (await db().selectFrom('form_field_responses').select('input_data').where('response_id', '=', responseId).where('field_id', '=', fieldId).where('deleted_at', 'is', null).executeTakeFirst())?.input_data;
const correctionsOf = (responseId: number) => db().selectFrom('form_corrections').select(['id', 'reason', 'created_by']).where('response_id', '=', responseId).orderBy('id').execute();
const auditOf = (responseId: number) =>
  db().selectFrom('audit_events').select(['event_title', 'user_id', 'grid_box_id', 'room_id', 'details']).where('response_id', '=', responseId).where('event_title', 'like', 'Corrected %').orderBy('id').execute();

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  secondGrower = await createUser(server, farm.companyId, 'Regular');
  roomId = await createRoom(server, farm.companyId);
  boxIds = (await createGrid(server, farm.companyId, roomId)).boxIds;
  form = await template(farm);
  otherForm = await template(other);
});
afterAll(() => server.close());

describe('POST /correct_form_response', () => {
  it('changes the answer, keeps the value as submitted readable, and audits who changed what, from what, to what and why', async () => {
    const responseId = await submitted(farm.regular);
    const actedAt = new Date(Date.now() - 3_600_000).toISOString();
    const answer = await correct(farm.regular, { response_id: responseId, fieldResponses: countTo('21'), reason: 'Miscounted row 3', client_id: newClientId() }, { 'X-Acted-At': actedAt });
    expect(answer.status).toBe(200);
    const correction = (answer.body as { correction: FormCorrectionRecord }).correction;
    expect(answer.body).toMatchObject({ status: 'success', message: m.corrected, response_id: responseId, correction_id: correction.CorrectionID });
    // The act's time is kept: corrected offline an hour ago, it says so.
    expect(correction).toEqual({
      CorrectionID: expect.any(Number),
      ResponseID: responseId,
      CorrectedBy: farm.regular.id,
      CorrectedAt: actedAt,
      Reason: 'Miscounted row 3',
      values: [{ FieldID: form.field('Mite count'), FieldName: 'Mite count', FieldType: 'Number', PreviousValue: '12', CorrectedValue: '21' }],
    });
    expect(await answerOf(responseId, form.field('Mite count'))).toBe('21');
    expect(await answerOf(responseId, form.field('Notes'))).toBe('Lower leaves');

    // Readers get the corrected answer and the correction, which keeps the original.
    const read = await request('GET', '/get_field_responses', farm.admin.token, { query: { response_id: responseId } });
    expect(read.body).toMatchObject({ status: 'success', fieldResponses: [{ FieldName: 'Mite count', InputData: '21' }, { FieldName: 'Notes', InputData: 'Lower leaves' }, {}, {}], corrections: [correction] });
    const byBox = await request('GET', '/get_field_responses_by_gridbox', farm.regular.token, { query: { GridBoxID: boxIds[0]! } });
    const listed = (byBox.body as { responses: Array<{ ResponseID: number; corrections: FormCorrectionRecord[] }> }).responses.find((response) => response.ResponseID === responseId);
    expect(listed?.corrections).toEqual([correction]);

    const events = await auditOf(responseId);
    expect(events).toEqual([
      {
        event_title: `Corrected ${form.name} response ${responseId}: Mite count from "12" to "21". Reason: Miscounted row 3`,
        user_id: farm.regular.id,
        grid_box_id: boxIds[0],
        room_id: roomId,
        details: expect.anything(),
      },
    ]);
    const details = typeof events[0]!.details === 'string' ? JSON.parse(events[0]!.details) : events[0]!.details;
    expect(details).toMatchObject({ correction_id: correction.CorrectionID, reason: 'Miscounted row 3', changes: [{ field_id: form.field('Mite count'), field_name: 'Mite count', from: '12', to: '21' }] });
  });

  it('keeps every correction: a later one replaces the current value, the first still holds the original', async () => {
    const responseId = await submitted(farm.regular, '5', 'Fine');
    await correct(farm.regular, { response_id: responseId, fieldResponses: countTo('50'), reason: 'Typo' });
    const second = await correct(farm.admin, {
      response_id: responseId,
      fieldResponses: [
        { fieldID: form.field('Mite count'), inputData: '15' },
        { fieldID: form.field('Notes'), inputData: '  ' },
        // Unchanged: not part of the correction.
        { fieldID: form.field('Problems seen'), inputData: null },
      ],
      reason: 'Recounted with the grower',
    });
    expect(second.status).toBe(200);
    const read = await request('GET', '/get_field_responses', farm.regular.token, { query: { response_id: responseId } });
    const { corrections } = read.body as { corrections: FormCorrectionRecord[] };
    expect(corrections.map((each) => [each.CorrectedBy, each.Reason, each.values.map((value) => [value.FieldName, value.PreviousValue, value.CorrectedValue])])).toEqual([
      [farm.regular.id, 'Typo', [['Mite count', '5', '50']]],
      [farm.admin.id, 'Recounted with the grower', [['Mite count', '50', '15'], ['Notes', 'Fine', null]]],
    ]);
    expect(await answerOf(responseId, form.field('Mite count'))).toBe('15');
    expect(await answerOf(responseId, form.field('Notes'))).toBeNull();
    expect((await auditOf(responseId)).map((event) => event.event_title)).toEqual([
      `Corrected ${form.name} response ${responseId}: Mite count from "5" to "50". Reason: Typo`,
      `Corrected ${form.name} response ${responseId}: Mite count from "50" to "15"; Notes from "Fine" to blank. Reason: Recounted with the grower`,
    ]);
  });

  it('refuses values a submission would refuse, with the field’s message, and changes nothing', async () => {
    const responseId = await submitted(farm.regular);
    const refused = async (fieldResponses: Correction['fieldResponses'], message: string, status = 400) => {
      const answer = await correct(farm.regular, { response_id: responseId, fieldResponses, reason: 'Fix' });
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual(error(message));
    };
    // A required field cannot be blanked, as a submission could not leave it blank.
    await refused(countTo(' '), m.fieldRequired('Mite count'));
    await refused(countTo(null), m.fieldRequired('Mite count'));
    await refused([{ fieldID: form.field('Leaf photo'), inputData: 'other.jpg' }], m.photoNotCorrectable('Leaf photo'));
    await refused([{ fieldID: form.field('Problems seen'), inputData: 'Aphids (2)' }], m.problemNotCorrectable('Problems seen'));
    await refused([...countTo('3'), ...countTo('4')], m.correctionFieldTwice('Mite count'));
    await refused(countTo('12'), m.nothingToCorrect);
    await refused([], m.correctNeeds);
    // A field of another of the company's forms is not this response's.
    const second = await template(farm);
    await refused([{ fieldID: second.field('Notes'), inputData: 'x' }], m.correctionFieldNotInForm(second.field('Notes')));
    await refused([{ fieldID: 99_999_999, inputData: 'x' }], httpMessages.recordNotFound('answered_form_field 99999999'), 404);
    expect(await answerOf(responseId, form.field('Mite count'))).toBe('12');
    expect(await correctionsOf(responseId)).toEqual([]);
    expect(await auditOf(responseId)).toEqual([]);
  });

  it('needs a reason, and a short one', async () => {
    const responseId = await submitted(farm.regular);
    const withReason = (reason: string | undefined) => correct(farm.regular, { response_id: responseId, fieldResponses: countTo('13'), ...(reason === undefined ? {} : { reason }) });
    expect((await withReason(undefined)).body).toEqual(error(m.correctionReasonRequired));
    expect((await withReason('')).body).toEqual(error(m.correctionReasonRequired));
    const blank = await withReason('   ');
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual(error(m.correctionReasonRequired));
    expect((await withReason('x'.repeat(CORRECTION_REASON_MAX + 1))).body).toEqual(error(m.correctionReasonTooLong(CORRECTION_REASON_MAX)));
    expect((await correct(farm.regular, { fieldResponses: countTo('13'), reason: 'Fix' })).body).toEqual(error(m.correctNeeds));
    expect(await correctionsOf(responseId)).toEqual([]);
    expect(await answerOf(responseId, form.field('Mite count'))).toBe('12');
  });

  it('corrects once however often it is sent: the same Idempotency-Key, or the same client_id', async () => {
    const responseId = await submitted(farm.regular);
    const clientId = newClientId();
    const headers = { 'Idempotency-Key': randomUUID() };
    const json = { response_id: responseId, fieldResponses: countTo('14'), reason: 'Miscounted', client_id: clientId };
    const first = await correct(farm.regular, json, headers);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ client_id: clientId });
    const replayed = await correct(farm.regular, json, headers);
    expect(replayed.headers.get('Idempotent-Replayed')).toBe('true');
    expect(replayed.body).toEqual(first.body);
    // The same correction under another key (its entry recorded again) is refused whole.
    const again = await correct(farm.regular, { ...json, fieldResponses: countTo('15') }, { 'Idempotency-Key': randomUUID() });
    expect(again.status).toBe(409);
    expect(again.body).toEqual(error(httpMessages.clientIdTaken));
    expect(await correctionsOf(responseId)).toHaveLength(1);
    expect(await answerOf(responseId, form.field('Mite count'))).toBe('14');
    expect(await auditOf(responseId)).toHaveLength(1);
  });

  it('refuses another company’s response, and fields of another company’s form', async () => {
    const responseId = await submitted(farm.regular);
    const theirs = await correct(other.admin, { response_id: responseId, fieldResponses: countTo('1'), reason: 'Not mine' });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toEqual(error(httpMessages.otherCompany));
    const foreignField = await correct(farm.regular, { response_id: responseId, fieldResponses: [{ fieldID: otherForm.field('Mite count'), inputData: '1' }], reason: 'Mixed up' });
    expect(foreignField.status).toBe(403);
    // Naming the response by its client id changes nothing about whose it is.
    const byClientId = await correct(other.admin, { response_id: await clientIdOf(server, 'form_responses', responseId), fieldResponses: countTo('1'), reason: 'Not mine' });
    expect(byClientId.status).toBe(403);
    expect(await correctionsOf(responseId)).toEqual([]);
  });

  it('lets the author and Admins correct, not another grower, and only as oneself', async () => {
    const responseId = await submitted(farm.regular);
    const notAuthor = await correct(secondGrower, { response_id: responseId, fieldResponses: countTo('30'), reason: 'I saw more' });
    expect(notAuthor.status).toBe(403);
    expect(notAuthor.body).toEqual(error(m.notYourResponse));
    const asSomeoneElse = await correct(farm.regular, { response_id: responseId, fieldResponses: countTo('30'), reason: 'Fix', user_id: farm.admin.id });
    expect(asSomeoneElse.status).toBe(403);
    expect(asSomeoneElse.body).toEqual(error(httpMessages.notYourself));
    expect(await correctionsOf(responseId)).toEqual([]);
    // The grower's own response, by the grower; an Admin's correction of it too.
    expect((await correct(secondGrower, { response_id: await submitted(secondGrower), fieldResponses: countTo('2'), reason: 'Typo' })).status).toBe(200);
    expect((await correct(farm.admin, { response_id: responseId, fieldResponses: countTo('31'), reason: 'Checked on the floor' })).status).toBe(200);
    expect(await correctionsOf(responseId)).toEqual([{ id: expect.any(Number), reason: 'Checked on the floor', created_by: farm.admin.id }]);
  });
});

describe('the form_responses sync document', () => {
  type ResponseDocument = PulledDocument & { fieldResponses?: Array<{ FieldID: unknown; InputData: string | null }>; corrections?: FormCorrectionRecord[] };

  it('carries the corrected answers and the corrections, named as tablets name records', async () => {
    const responseId = await submitted(farm.regular, '8');
    const clientId = await clientIdOf(server, 'form_responses', responseId);
    const countField = await clientIdOf(server, 'form_fields', form.field('Mite count'));
    await correct(farm.regular, { response_id: responseId, fieldResponses: countTo('80'), reason: 'Extra zero' });
    const corrected = (documents: Map<string, ResponseDocument>) => (documents.get(clientId)?.corrections?.length ?? 0) > 0;
    const document = (await pullUntil<ResponseDocument>(server, farm.regular.token, 'form_responses', corrected, 'client')).get(clientId);
    expect(document?.fieldResponses?.find((answer) => answer.FieldID === countField)?.InputData).toBe('80');
    expect(document?.corrections).toEqual([
      {
        CorrectionID: expect.any(Number),
        ResponseID: clientId,
        CorrectedBy: farm.regular.id,
        CorrectedAt: expect.any(String),
        Reason: 'Extra zero',
        values: [{ FieldID: countField, FieldName: 'Mite count', FieldType: 'Number', PreviousValue: '8', CorrectedValue: '80' }],
      },
    ]);
  });
});
