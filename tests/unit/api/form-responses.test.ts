/**
 * Form submissions and the reading of answers (src/api/form-responses.ts) on a real tablet (outbox,
 * RxDB, sync engine) against the real server, behind a proxy that can cut the network or lose an
 * answer: submissions made offline show at once, named by the client ids the tablet gave them, and
 * reach the server once each under those ids, photos included; readers answer the server's data
 * online (integer ids) and the local store's offline (client ids).
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ClientId, isClientId, newClientId, responseClientId } from '../../../common/client-ids';
import { formResponseMessages as m } from '../../../common/messages/form-responses';
import { formMessages as fm } from '../../../common/messages/forms';
import { httpMessages } from '../../../common/messages/http';
import type { FormTemplateRecord } from '../../../common/schemas/forms';
import { ApiError } from '../../../src/api/context';
import { getFile } from '../../../src/api/files';
import {
  checkForStickytrap,
  type FormResponse,
  getBatchFormResponses,
  getFieldResponses,
  getFieldResponsesByGridbox,
  getFieldResponsesByGridboxDate,
  getResponsesForGrid2,
  getStickyTrapResponsesGrid,
  submitForm,
  submitFormBoxes,
  submitFormImage,
  submitFormMultiselect,
  submitFormRoom,
} from '../../../src/api/form-responses';
import { addHideFieldUntilLink, saveFormTemplate } from '../../../src/api/forms';
import { createGrid as createGridOffline } from '../../../src/api/grids';
import { createRoom as createRoomOffline } from '../../../src/api/rooms';
import type { Tablet } from '../../support/client';
import { clientIdOf, clientIdsOf, createBatch, createGrid, createRoom } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet({ room: true });
const { tablet, notFromServer } = fleet;
const db = () => fleet.server.database.db;

/** A real 1×1 PNG. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'));
const png = () => new Blob([PNG], { type: 'image/png' });

type Template = FormTemplateRecord & { TemplateID: number; fields: Array<FormTemplateRecord['fields'][number] & { FieldID: number }> };
/** A template as the server answered it, with the client ids tablets name it and its fields by. */
type NamedTemplate = Template & { key: ClientId; fieldKeys: ClientId[] };

async function serverTemplate(formCategory: string, fields: Array<Record<string, unknown>>): Promise<NamedTemplate> {
  const response = await fleet.server.request<{ template: Template }>('POST', '/save_form_template', {
    token: fleet.farm.admin.token,
    json: { templateName: `${formCategory} ${randomUUID()}`, companyID: fleet.farm.companyId, formCategory, fields },
  });
  expect(response.status).toBe(200);
  const template = response.body.template;
  return {
    ...template,
    key: await clientIdOf(fleet.server, 'form_templates', template.TemplateID),
    fieldKeys: await clientIdsOf(fleet.server, 'form_fields', template.fields.map((each) => Number(each.FieldID))),
  };
}

/** Scouting: Pest pressure (required), Notes, Photo. */
let scouting: NamedTemplate;
let trap: NamedTemplate;
let treatment: NamedTemplate;
/** Mites seen (required), Mite count (required, hidden until Mites seen is Yes). */
let mites: NamedTemplate;
/** Trap photo (required Image). */
let photoForm: NamedTemplate;

beforeAll(async () => {
  scouting = await serverTemplate('Scouting', [
    { fieldName: 'Pest pressure', fieldType: 'Radio', fieldOptions: ['Low', 'High'], isRequired: 1 },
    { fieldName: 'Notes', fieldType: 'Textarea' },
    { fieldName: 'Photo', fieldType: 'Image' },
  ]);
  trap = await serverTemplate('Sticky Trap', [
    { fieldName: 'Thrips', fieldType: 'Number', isRequired: 1 },
    { fieldName: 'Notes', fieldType: 'Text' },
  ]);
  treatment = await serverTemplate('Treatment', [{ fieldName: 'Product', fieldType: 'Text', isRequired: 1 }]);
  mites = await serverTemplate('Scouting', [
    { fieldName: 'Mites seen', fieldType: 'Radio', fieldOptions: ['Yes', 'No'], isRequired: 1 },
    { fieldName: 'Mite count', fieldType: 'Number', isRequired: 1 },
  ]);
  const rule = { form_field_hidden_FieldID: mites.fields[1]!.FieldID, form_field_linked_FieldID: mites.fields[0]!.FieldID, form_field_linked_input: 'Yes' };
  expect((await fleet.server.request('POST', '/add_hide_field_until_link', { token: fleet.farm.admin.token, json: rule })).status).toBe(200);
  photoForm = await serverTemplate('General', [{ fieldName: 'Trap photo', fieldType: 'Image', isRequired: 1 }]);
});

/** A field as the tablet names it (its client id), as a form filled from the local copy answers it. */
const field = (template: NamedTemplate, index: number) => template.fieldKeys[index]!;
/** A field's integer id, as the server's rows hold it. */
const fieldRowId = (template: NamedTemplate, index: number) => template.fields[index]!.FieldID;
const scoutingAnswers = (pressure = 'High', notes = 'thrips on lower leaves') => [
  { fieldId: field(scouting, 0), inputData: pressure },
  { fieldId: field(scouting, 1), inputData: notes },
];
const trapAnswers = (count = '12') => [{ fieldId: field(trap, 0), inputData: count }];
/** Answers as a desk sends them straight to the server: fields by integer id. */
const serverAnswers = (answers: Array<{ fieldId: ClientId; inputData: string }>) =>
  answers.map((answer) => {
    const template = [scouting, trap, treatment, mites, photoForm].find((each) => each.fieldKeys.includes(answer.fieldId))!;
    return { fieldID: template.fields[template.fieldKeys.indexOf(answer.fieldId)]!.FieldID, inputData: answer.inputData };
  });

/**
 * A room of its own with a grid of nx × 1 boxes, made on the server: their integer ids (the server's
 * rows) and their client ids (`…Key`, `boxKeys`: how the tablet names them).
 */
async function place(nx = 3) {
  const roomId = await createRoom(fleet.server, fleet.farm.companyId);
  const grid = await createGrid(fleet.server, fleet.farm.companyId, roomId, nx, 1);
  const room = await db().selectFrom('rooms').select(['name', 'client_id']).where('id', '=', roomId).executeTakeFirstOrThrow();
  return {
    roomId,
    roomKey: room.client_id,
    roomName: room.name,
    gridId: grid.id,
    gridKey: await clientIdOf(fleet.server, 'grids', grid.id),
    boxIds: grid.boxIds,
    boxKeys: await clientIdsOf(fleet.server, 'grid_boxes', grid.boxIds),
  };
}

/**
 * A response the server answered (integer ids) as the tablet names it (naming=client): the response,
 * its template, box, room, batch and the fields of its answers and photos by client id, the integer
 * id kept as `serverId`. A pulled local document is this.
 */
async function asTablet(response: FormResponse): Promise<FormResponse & { serverId: number }> {
  const key = async (table: 'form_templates' | 'grid_boxes' | 'rooms' | 'batches' | 'form_fields', id: unknown) => (id === null ? null : clientIdOf(fleet.server, table, Number(id)));
  const responseKey = await clientIdOf(fleet.server, 'form_responses', Number(response.ResponseID));
  return {
    ...response,
    ResponseID: responseKey,
    TemplateID: (await key('form_templates', response.TemplateID))!,
    GridBoxID: await key('grid_boxes', response.GridBoxID),
    RoomID: await key('rooms', response.RoomID),
    BatchID: await key('batches', response.BatchID),
    fieldResponses: await Promise.all(response.fieldResponses.map(async (answer) => ({ ...answer, ResponseID: responseKey, FieldID: (await key('form_fields', answer.FieldID))! }))),
    images: await Promise.all(response.images.map(async (image) => ({ ...image, ResponseID: responseKey, FieldID: await key('form_fields', image.FieldID) }))),
    serverId: Number(response.ResponseID),
  };
}

const localResponse = async (device: Tablet, id: ClientId) => (await device.database.form_responses.findOne(id).exec())?.toMutableJSON() ?? null;
const responseRows = (where: { roomId?: number; gridBoxId?: number }) => {
  let query = db().selectFrom('form_responses').selectAll().where('deleted_at', 'is', null);
  if (where.roomId !== undefined) query = query.where('room_id', '=', where.roomId);
  if (where.gridBoxId !== undefined) query = query.where('grid_box_id', '=', where.gridBoxId);
  return query.orderBy('id').execute();
};
const today = () => new Date().toISOString().slice(0, 10);
const ids = (responses: FormResponse[]) => responses.map((response) => response.ResponseID);

describe('submission messages (spec §5), checked before anything is queued', () => {
  it("'Form submit needs submittedBy and fieldResponses', 'Room form submit needs submittedBy, roomID and fieldResponses', and the targets’", async () => {
    const { boxKeys, roomKey: roomId, roomName } = await place(1);
    const device = await tablet();
    const ctx = device.context;
    const who = fleet.farm.regular.id;
    const boxId = boxKeys[0]!;
    await rejects(submitForm(ctx, { submittedBy: undefined as never, gridBoxId: boxId, fieldResponses: scoutingAnswers() }), m.submitNeeds);
    await rejects(submitForm(ctx, { submittedBy: who, gridBoxId: boxId, fieldResponses: undefined as never }), m.submitNeeds);
    await rejects(submitForm(ctx, { submittedBy: who, gridBoxId: boxId, fieldResponses: [] }), m.submitNeeds);
    await rejects(submitForm(ctx, { submittedBy: who, gridBoxId: undefined as never, fieldResponses: scoutingAnswers() }), m.gridBoxRequired);
    await rejects(submitFormBoxes(ctx, { submittedBy: undefined as never, gridBoxIds: [boxId], fieldResponses: scoutingAnswers() }), m.submitNeeds);
    await rejects(submitFormBoxes(ctx, { submittedBy: who, gridBoxIds: [boxId], fieldResponses: [] }), m.submitNeeds);
    await rejects(submitFormBoxes(ctx, { submittedBy: who, gridBoxIds: [], fieldResponses: scoutingAnswers() }), m.gridBoxesRequired);
    await rejects(submitFormRoom(ctx, { submittedBy: undefined as never, roomId, fieldResponses: scoutingAnswers() }), m.roomSubmitNeeds);
    await rejects(submitFormRoom(ctx, { submittedBy: who, roomId: undefined as never, fieldResponses: scoutingAnswers() }), m.roomSubmitNeeds);
    await rejects(submitFormRoom(ctx, { submittedBy: who, roomId, fieldResponses: [] }), m.roomSubmitNeeds);
    await rejects(submitFormMultiselect(ctx, { submittedBy: who, roomId: undefined as never, gridBoxIds: [boxId], fieldResponses: scoutingAnswers() }), m.multiSelectNeeds);
    await rejects(submitFormMultiselect(ctx, { submittedBy: who, roomId, gridBoxIds: [], fieldResponses: scoutingAnswers() }), m.multiSelectNeeds);
    await rejects(submitFormMultiselect(ctx, { submittedBy: who, roomId, gridBoxIds: [boxId], fieldResponses: undefined as never }), m.multiSelectNeeds);
    const elsewhere = await place(1);
    await device.engine.settle();
    // The server's message for the same call (client ids and all), which names the box by its integer id.
    const stray = { submittedBy: who, roomId, gridBoxIds: [boxId, elsewhere.boxKeys[0]!], fieldResponses: scoutingAnswers() };
    const refused = await fleet.server.request<{ message: string }>('POST', '/submit_form_multiselect', {
      token: fleet.farm.regular.token,
      json: { submittedBy: who, roomID: roomId, GridBoxIDs: stray.gridBoxIds, fieldResponses: serverAnswers(stray.fieldResponses) },
    });
    expect([refused.status, refused.body.message]).toEqual([400, m.boxNotInRoom(elsewhere.boxIds[0]!, roomName)]);
    await rejects(submitFormMultiselect(ctx, stray), refused.body.message);
    await rejects(submitFormImage(ctx, { responseId: undefined as never, image: png() }), m.imageResponseRequired);
    // Answers of a form the tablet does not hold, or of two forms.
    await rejects(submitForm(ctx, { submittedBy: who, gridBoxId: boxId, fieldResponses: [{ fieldId: 99_999_999, inputData: 'x' }] }), fm.templateNotFound);
    await rejects(submitForm(ctx, { submittedBy: who, gridBoxId: boxId, fieldResponses: [...scoutingAnswers(), ...trapAnswers()] }), m.oneTemplate);
    expect(await device.outbox.count()).toBe(0);
    expect(await device.database.form_responses.find({ selector: { roomId } }).exec()).toHaveLength(0);
  });

  it("a required field that shows blocks the submission: '{Field} is required.'; hidden until its link shows, it is not required", async () => {
    const { boxIds, boxKeys } = await place(1);
    const device = await tablet();
    const submit = (fieldResponses: Array<{ fieldId: ClientId; inputData: string | null }>, photos?: Array<{ fieldId: ClientId; image: Blob; fileName?: string }>) =>
      submitForm(device.context, { submittedBy: fleet.farm.regular.id, gridBoxId: boxKeys[0]!, fieldResponses, ...(photos ? { photos } : {}) });
    await rejects(submit(scoutingAnswers('  ')), m.fieldRequired('Pest pressure'));
    await rejects(submit([{ fieldId: field(scouting, 1), inputData: 'only notes' }]), m.fieldRequired('Pest pressure'));
    await rejects(submit([{ fieldId: field(scouting, 0), inputData: null }]), m.fieldRequired('Pest pressure'));
    await rejects(submit([{ fieldId: field(mites, 0), inputData: 'Yes' }]), m.fieldRequired('Mite count'));
    await rejects(submit([{ fieldId: field(mites, 0), inputData: 'Yes' }, { fieldId: field(mites, 1), inputData: ' ' }]), m.fieldRequired('Mite count'));
    await rejects(submit([{ fieldId: field(mites, 1), inputData: '4' }]), m.fieldRequired('Mites seen'));
    await rejects(submit([{ fieldId: field(photoForm, 0), inputData: '' }]), m.fieldRequired('Trap photo'));
    expect(await device.outbox.count()).toBe(0);

    fleet.proxy.setOnline(false);
    // Mite count is hidden while Mites seen is not Yes: not required then.
    await submit([{ fieldId: field(mites, 0), inputData: 'No' }]);
    await submit([{ fieldId: field(mites, 0), inputData: 'Yes' }, { fieldId: field(mites, 1), inputData: '4' }]);
    // A required photo field is answered by the photo itself (its file name).
    await submit([], [{ fieldId: field(photoForm, 0), image: png(), fileName: 'trap.png' }]);
    expect((await device.outbox.all()).map((entry) => entry.path)).toEqual(['/submit_form', '/submit_form', '/submit_form', '/submit_form_image']);
    await fleet.reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    const rows = await responseRows({ gridBoxId: boxIds[0]! });
    expect(rows.map((row) => row.template_id)).toEqual([mites.TemplateID, mites.TemplateID, photoForm.TemplateID]);
    const photoAnswer = await db().selectFrom('form_field_responses').select(['field_id', 'input_data']).where('response_id', '=', rows[2]!.id).execute();
    expect(photoAnswer).toEqual([{ field_id: fieldRowId(photoForm, 0), input_data: 'trap.png' }]);
  });
});

describe('submissions made offline', () => {
  it('a photo the tablet cannot store leaves the whole submission unsent, so trying again cannot make two', async () => {
    const { boxKeys } = await place(1);
    const device = await tablet();
    fleet.proxy.setOnline(false);
    // IndexedDB cannot store a function: the photo's entry fails to store as a full disk would make it fail.
    const unstorable = { image: png(), fileName: (() => 'photo.png') as unknown as string };
    await expect(submitForm(device.context, { submittedBy: fleet.farm.regular.id, gridBoxId: boxKeys[0]!, fieldResponses: scoutingAnswers(), photos: [unstorable] })).rejects.toThrow();
    expect(await device.outbox.count()).toBe(0);
    expect(await device.database.form_responses.count({ selector: { gridBoxId: boxKeys[0]! } }).exec()).toBe(0);
  });

  it('show at once under client ids (the photo pending), then reach the server once each under those ids, with the photo once and the multi-select event once; local documents keep their keys', async () => {
    const { roomId, roomKey, roomName, boxIds, boxKeys } = await place(3);
    const [aId, bId, cId] = boxIds as [number, number, number];
    const [a, b, c] = boxKeys as [ClientId, ClientId, ClientId];
    const batchId = await createBatch(fleet.server, fleet.farm.companyId);
    const batchKey = await clientIdOf(fleet.server, 'batches', batchId);
    const linked = await fleet.server.request('POST', '/link_gridbox_batch', { token: fleet.farm.regular.token, json: { batch_id: batchId, grid_box_ids: [aId] } });
    expect(linked.status).toBe(200);
    const device = await tablet();
    const who = fleet.farm.regular.id;
    fleet.proxy.setOnline(false);

    const single = await submitForm(device.context, {
      submittedBy: who,
      gridBoxId: a,
      fieldResponses: scoutingAnswers('High', 'under the leaves'),
      photos: [{ fieldId: field(scouting, 2), image: png(), fileName: 'leaf.png' }],
    });
    const boxes = await submitFormBoxes(device.context, { submittedBy: who, gridBoxIds: [a, b, c, b], fieldResponses: scoutingAnswers('Low', 'weekly walk') });
    const room = await submitFormRoom(device.context, { submittedBy: who, roomId: roomKey, fieldResponses: scoutingAnswers('Low', 'whole room') });
    const multi = await submitFormMultiselect(device.context, { submittedBy: who, roomId: roomKey, gridBoxIds: [b, c], fieldResponses: trapAnswers('7') });
    expect(boxes.response_ids).toHaveLength(3);
    expect(multi.response_ids).toHaveLength(2);
    const made = [single.response_id, ...boxes.response_ids, room.response_id, ...multi.response_ids];
    for (const id of made) expect(isClientId(id)).toBe(true);
    expect(new Set(made).size).toBe(made.length);

    // Each submission sends its client id: a single box's or the room's response is that id; one per
    // box of a list takes the id derived from it and the box's place, as the server derives it.
    const entries = await device.outbox.all();
    expect(entries.map((entry) => entry.path)).toEqual(['/submit_form', '/submit_form_image', '/submit_form_boxes', '/submit_form_room', '/submit_form_multiselect']);
    const submissionId = (index: number) => {
      const body = entries[index]!.body;
      return body.kind === 'json' ? (body.data as { client_id: ClientId }).client_id : null;
    };
    expect(single.response_id).toBe(submissionId(0));
    expect(boxes.response_ids).toEqual([0, 1, 2].map((index) => responseClientId(submissionId(2)!, index)));
    expect(room.response_id).toBe(submissionId(3));
    expect(multi.response_ids).toEqual([0, 1].map((index) => responseClientId(submissionId(4)!, index)));
    expect(entries.map((entry) => entry.creates)).toEqual([[single.response_id], [], boxes.response_ids, [room.response_id], multi.response_ids]);

    // At once, in the local store, named by client ids (no serverId yet).
    const shown = await localResponse(device, single.response_id);
    expect(shown).not.toHaveProperty('serverId');
    expect(shown).toMatchObject({
      ResponseID: single.response_id,
      TemplateID: scouting.key,
      TemplateName: scouting.TemplateName,
      FormCategory: 'Scouting',
      GridBoxID: a,
      RoomID: roomKey,
      BatchID: batchKey,
      SubmittedBy: who,
      fieldResponses: [
        { FieldResponseID: null, ResponseID: single.response_id, FieldID: field(scouting, 0), FieldName: 'Pest pressure', FieldType: 'Radio', InputData: 'High' },
        { FieldResponseID: null, ResponseID: single.response_id, FieldID: field(scouting, 1), FieldName: 'Notes', FieldType: 'Textarea', InputData: 'under the leaves' },
        { FieldResponseID: null, ResponseID: single.response_id, FieldID: field(scouting, 2), FieldName: 'Photo', FieldType: 'Image', InputData: 'leaf.png' },
      ],
      images: [{ ImageID: null, ResponseID: single.response_id, FieldID: field(scouting, 2), ImagePath: null, pending: true }],
    });
    const boxDocuments = await Promise.all(boxes.response_ids.map((id) => localResponse(device, id)));
    expect(boxDocuments.map((document) => [document?.GridBoxID, document?.RoomID, document?.images])).toEqual([
      [a, roomKey, []],
      [b, roomKey, []],
      [c, roomKey, []],
    ]);
    expect(await localResponse(device, room.response_id)).toMatchObject({ GridBoxID: null, RoomID: roomKey, BatchID: null, images: [] });
    const multiDocuments = await Promise.all(multi.response_ids.map((id) => localResponse(device, id)));
    expect(multiDocuments.map((document) => [document?.GridBoxID, document?.RoomID, document?.FormCategory])).toEqual([
      [b, roomKey, 'Sticky Trap'],
      [c, roomKey, 'Sticky Trap'],
    ]);
    const image = entries[1]!;
    expect(image.body.kind === 'multipart' ? image.body.parts.map((part) => ('blob' in part ? [part.name, part.fileName, part.blob.size] : [part.name, part.value])) : null).toEqual([
      ['response_id', single.response_id],
      ['field_id', field(scouting, 2)],
      ['image', 'leaf.png', PNG.length],
    ]);
    expect(entries[2]?.body).toMatchObject({ kind: 'json', data: { GridBoxIDs: [a, b, c] } });
    expect(entries[4]?.body).toMatchObject({ kind: 'json', data: { roomID: roomKey, GridBoxIDs: [b, c] } });
    expect(await responseRows({ roomId })).toEqual([]);

    await fleet.reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    const rows = await responseRows({ roomId });
    expect(rows.map((row) => [row.template_id, row.grid_box_id, row.batch_id])).toEqual([
      [scouting.TemplateID, aId, batchId],
      [scouting.TemplateID, aId, batchId],
      [scouting.TemplateID, bId, null],
      [scouting.TemplateID, cId, null],
      [scouting.TemplateID, null, null],
      [trap.TemplateID, bId, null],
      [trap.TemplateID, cId, null],
    ]);
    // The server's rows hold the client ids the tablet gave the responses.
    expect(rows.map((row) => row.client_id)).toEqual(made);
    const rowIds = rows.map((row) => row.id);
    const answers = await db().selectFrom('form_field_responses').select(['response_id', 'input_data']).where('response_id', 'in', rowIds).execute();
    expect(answers).toHaveLength(3 + 2 * 3 + 2 + 1 * 2);
    const images = await db().selectFrom('form_response_images').select(['id', 'response_id', 'field_id', 'file_id']).where('response_id', 'in', rowIds).execute();
    expect(images.map((row) => [row.response_id, row.field_id])).toEqual([[rows[0]!.id, fieldRowId(scouting, 2)]]);
    const events = await db().selectFrom('audit_events').select(['room_id', 'response_id']).where('company_id', '=', fleet.farm.companyId).where('event_title', '=', `Submitted MultiSelect Template in room ${roomName}`).execute();
    expect(events).toEqual([{ room_id: roomId, response_id: rows[5]!.id }]);

    // Local documents kept their keys: the server's copies now, with the integer ids and the photo's path.
    const local = await Promise.all(made.map((id) => localResponse(device, id)));
    expect(local.map((document) => [document?.ResponseID, document?.serverId])).toEqual(made.map((id, index) => [id, rowIds[index]]));
    const photoPath = `/api/files/${images[0]!.file_id}`;
    expect(local[0]?.images).toEqual([{ ImageID: images[0]!.id, ResponseID: single.response_id, FieldID: field(scouting, 2), ImagePath: photoPath }]);
    expect(await notFromServer(device)).toEqual([]);
    const photo = await getFile(device.context, { file: photoPath });
    expect(new Uint8Array(await photo.arrayBuffer())).toEqual(PNG);
  });

  it('a form built offline, filled offline for boxes of a room and grid made offline, reaches the server naming the records by the client ids the tablet gave them', async () => {
    const device = await tablet(fleet.farm.admin);
    fleet.proxy.setOnline(false);
    const roomName = `Offline room ${randomUUID()}`;
    const { RoomID } = await createRoomOffline(device.context, { companyId: fleet.farm.companyId, name: roomName, description: 'No signal' });
    const { boxIds } = await createGridOffline(device.context, { companyId: fleet.farm.companyId, roomId: RoomID, name: 'Bench', nx: 2, ny: 1 });
    const saved = await saveFormTemplate(device.context, {
      templateName: `Built offline ${randomUUID()}`,
      companyId: fleet.farm.companyId,
      formCategory: 'Sticky Trap',
      fields: [
        { fieldName: 'Trap replaced', fieldType: 'Radio', fieldOptions: ['Yes', 'No'], isRequired: true },
        { fieldName: 'Count', fieldType: 'Number', isRequired: true },
        { fieldName: 'Trap photo', fieldType: 'Image' },
      ],
    });
    const [replaced, count, photoField] = saved.field_ids as [ClientId, ClientId, ClientId];
    await addHideFieldUntilLink(device.context, { hiddenFieldId: count, linkedFieldId: replaced, linkedInput: 'Yes' });
    // The rule made offline applies at once.
    await rejects(
      submitFormMultiselect(device.context, { submittedBy: fleet.farm.admin.id, roomId: RoomID, gridBoxIds: boxIds, fieldResponses: [{ fieldId: replaced, inputData: 'Yes' }] }),
      m.fieldRequired('Count'),
    );
    const multi = await submitFormMultiselect(device.context, {
      submittedBy: fleet.farm.admin.id,
      roomId: RoomID,
      gridBoxIds: boxIds,
      fieldResponses: [
        { fieldId: replaced, inputData: 'Yes' },
        { fieldId: count, inputData: '9' },
      ],
      photos: [{ fieldId: photoField, image: png(), fileName: 'trap.png' }],
    });
    expect((await checkForStickytrap(device.context, { gridBoxId: boxIds[1]! })).has_submission).toBe(true);
    expect(await localResponse(device, multi.response_ids[0]!)).toMatchObject({ TemplateID: saved.template_id, GridBoxID: boxIds[0], RoomID, FormCategory: 'Sticky Trap' });

    await fleet.reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    // Every record holds, on the server, the client id the tablet gave it.
    const room = await db().selectFrom('rooms').select(['id', 'client_id']).where('name', '=', roomName).executeTakeFirstOrThrow();
    expect(room.client_id).toBe(RoomID);
    const template = await db().selectFrom('form_templates').select(['id', 'client_id']).where('template_name', '=', saved.template.TemplateName).executeTakeFirstOrThrow();
    expect(template.client_id).toBe(saved.template_id);
    const fields = await db().selectFrom('form_fields').select(['id', 'client_id', 'field_name']).where('template_id', '=', template.id).orderBy('position').execute();
    expect(fields.map((each) => each.client_id)).toEqual(saved.field_ids);
    const rows = await responseRows({ roomId: room.id });
    expect(rows.map((row) => row.template_id)).toEqual([template.id, template.id]);
    expect(rows.map((row) => row.client_id)).toEqual(multi.response_ids);
    expect(await clientIdsOf(fleet.server, 'grid_boxes', rows.map((row) => row.grid_box_id!))).toEqual(boxIds);
    const answers = await db().selectFrom('form_field_responses').select(['response_id', 'field_id', 'input_data']).where('response_id', 'in', rows.map((row) => row.id)).orderBy('id').execute();
    expect(answers.map((answer) => [answer.response_id, answer.field_id, answer.input_data])).toEqual(
      rows.flatMap((row) => [
        [row.id, fields[0]!.id, 'Yes'],
        [row.id, fields[1]!.id, '9'],
        [row.id, fields[2]!.id, 'trap.png'],
      ]),
    );
    const images = await db().selectFrom('form_response_images').select(['response_id', 'field_id']).where('response_id', 'in', rows.map((row) => row.id)).execute();
    expect(images).toEqual([{ response_id: rows[0]!.id, field_id: fields[2]!.id }]);
    expect(await db().selectFrom('audit_events').select('room_id').where('event_title', '=', `Submitted MultiSelect Template in room ${roomName}`).execute()).toEqual([{ room_id: room.id }]);
    // The local documents kept their keys and every reference; they are the server's copies now.
    expect(await localResponse(device, multi.response_ids[1]!)).toMatchObject({
      ResponseID: multi.response_ids[1],
      serverId: rows[1]!.id,
      TemplateID: saved.template_id,
      GridBoxID: boxIds[1],
      RoomID,
      fieldResponses: [{ FieldID: replaced }, { FieldID: count }, { FieldID: photoField }],
    });
    expect(await notFromServer(device)).toEqual([]);
  });

  it('a submission whose form was deleted meanwhile still reaches the server, with its photo: the observation is kept', async () => {
    const { boxIds, boxKeys } = await place(1);
    const doomed = await serverTemplate('Scouting', [{ fieldName: 'Count', fieldType: 'Number' }]);
    const device = await tablet();
    fleet.proxy.setOnline(false);
    const { response_id } = await submitForm(device.context, {
      submittedBy: fleet.farm.regular.id,
      gridBoxId: boxKeys[0]!,
      fieldResponses: [{ fieldId: field(doomed, 0), inputData: '3' }],
      photos: [{ image: png() }],
    });
    expect((await fleet.server.request('DELETE', '/delete_template', { token: fleet.farm.admin.token, query: { template_id: doomed.TemplateID } })).status).toBe(200);

    await fleet.reconnect(device);
    const rows = await responseRows({ gridBoxId: boxIds[0]! });
    expect(rows.map((row) => [row.template_id, row.client_id])).toEqual([[doomed.TemplateID, response_id]]);
    expect(await db().selectFrom('form_response_images').select('response_id').where('response_id', '=', rows[0]!.id).execute()).toHaveLength(1);
    expect(await localResponse(device, response_id)).toMatchObject({ ResponseID: response_id, serverId: rows[0]!.id, TemplateID: doomed.key, fieldResponses: [{ FieldID: field(doomed, 0), InputData: '3' }] });
  });

  it('a submission the server refuses (its box deleted meanwhile) stays as a failed entry with the server’s message, its response kept', async () => {
    const { gridId, boxIds, boxKeys } = await place(1);
    const form = await serverTemplate('Scouting', [{ fieldName: 'Count', fieldType: 'Number' }]);
    const device = await tablet();
    fleet.proxy.setOnline(false);
    const { response_id } = await submitForm(device.context, {
      submittedBy: fleet.farm.regular.id,
      gridBoxId: boxKeys[0]!,
      fieldResponses: [{ fieldId: field(form, 0), inputData: '3' }],
      photos: [{ image: png() }],
    });
    expect((await fleet.server.request('PUT', '/delete_grid', { token: fleet.farm.admin.token, query: { grid_id: gridId } })).status).toBe(200);

    await fleet.reconnect(device);
    const entries = await device.outbox.all();
    expect(entries.map((entry) => [entry.path, entry.state])).toEqual([
      ['/submit_form', 'failed'],
      // The photo waits for its response, whose create the server refused.
      ['/submit_form_image', 'pending'],
    ]);
    expect(entries[0]!.error).toBe(httpMessages.recordNotFound(`grid_box ${boxIds[0]}`));
    // The refusal names the response it was to create, so the screens can mark it.
    expect(device.engine.current().failed).toMatchObject([{ id: entries[0]!.id, error: entries[0]!.error, creates: [response_id] }]);
    const kept = await localResponse(device, response_id);
    expect(kept).toMatchObject({ ResponseID: response_id, images: [{ pending: true }] });
    expect(kept).not.toHaveProperty('serverId');
    expect(await notFromServer(device)).toEqual([`form_responses/${response_id}`]);
    expect(await responseRows({ gridBoxId: boxIds[0]! })).toEqual([]);
    expect(await db().selectFrom('form_responses').select('id').where('client_id', '=', response_id).execute()).toEqual([]);
    // Online, the grower can still read what was entered (its create still waits: the server has no
    // such response); the box itself is gone from the server.
    expect(await getFieldResponses(device.context, { responseId: response_id })).toEqual({
      status: 'success',
      fieldResponses: [{ FieldResponseID: null, ResponseID: response_id, FieldID: field(form, 0), FieldName: 'Count', FieldType: 'Number', InputData: '3' }],
      corrections: [],
      offline: true,
    });
    await expect(getFieldResponsesByGridbox(device.context, { gridBoxId: boxKeys[0]! })).rejects.toThrow(httpMessages.recordNotFound(`grid_box ${boxIds[0]}`));
  });

  it('a submission whose answer is lost after the server committed is replayed into one response, its photo once', async () => {
    const { boxIds, boxKeys } = await place(1);
    const device = await tablet();
    const lost = fleet.proxy.loseAnswerOnce((request) => request.url?.split('?')[0] === '/api/submit_form');
    const { response_id } = await submitForm(device.context, { submittedBy: fleet.farm.regular.id, gridBoxId: boxKeys[0]!, fieldResponses: scoutingAnswers(), photos: [{ image: png(), fileName: 'again.png' }] });
    await lost;
    expect(await responseRows({ gridBoxId: boxIds[0]! })).toHaveLength(1);
    expect(await device.outbox.count()).toBe(2);

    await device.engine.settle();
    expect(await device.outbox.count()).toBe(0);
    const rows = await responseRows({ gridBoxId: boxIds[0]! });
    expect(rows.map((row) => row.client_id)).toEqual([response_id]);
    expect(fleet.proxy.sent.filter((request) => request.url.split('?')[0] === '/api/submit_form').length).toBeGreaterThanOrEqual(2);
    const images = await db().selectFrom('form_response_images').select('field_id').where('response_id', '=', rows[0]!.id).execute();
    expect(images).toEqual([{ field_id: null }]);
    expect(await localResponse(device, response_id)).toMatchObject({ ResponseID: response_id, serverId: rows[0]!.id, images: [{ ImagePath: expect.stringMatching(/^\/api\/files\//) }] });
    expect(await notFromServer(device)).toEqual([]);
  });

  it('several photos of one submission all show as pending at once, and reach the server once each', async () => {
    const { boxIds, boxKeys } = await place(2);
    const device = await tablet();
    fleet.proxy.setOnline(false);
    const { response_ids } = await submitFormBoxes(device.context, {
      submittedBy: fleet.farm.regular.id,
      gridBoxIds: boxKeys,
      fieldResponses: scoutingAnswers(),
      photos: [
        { fieldId: field(scouting, 2), image: png(), fileName: 'first.png' },
        { image: png(), fileName: 'second.png' },
        { image: png(), fileName: 'third.png' },
      ],
    });
    const [first, second] = response_ids as [ClientId, ClientId];
    expect((await localResponse(device, first))?.images).toEqual([
      { ImageID: null, ResponseID: first, FieldID: field(scouting, 2), ImagePath: null, pending: true },
      { ImageID: null, ResponseID: first, FieldID: null, ImagePath: null, pending: true },
      { ImageID: null, ResponseID: first, FieldID: null, ImagePath: null, pending: true },
    ]);
    expect((await localResponse(device, second))?.images).toEqual([]);

    await fleet.reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    const rows = await responseRows({ gridBoxId: boxIds[0]! });
    expect(rows.map((row) => row.client_id)).toEqual([first]);
    const images = await db().selectFrom('form_response_images').select(['id', 'field_id', 'file_id']).where('response_id', '=', rows[0]!.id).orderBy('id').execute();
    expect(images.map((image) => image.field_id)).toEqual([fieldRowId(scouting, 2), null, null]);
    const stored = await localResponse(device, first);
    expect(stored?.serverId).toBe(rows[0]!.id);
    expect(stored?.images).toEqual(images.map((image, index) => ({ ImageID: image.id, ResponseID: first, FieldID: index === 0 ? field(scouting, 2) : null, ImagePath: `/api/files/${image.file_id}` })));
  });

  it('submitFormImage adds a photo to a response already on the server: pending at once, then stored', async () => {
    const { boxIds } = await place(1);
    const submitted = await fleet.server.request<{ response_id: number }>('POST', '/submit_form', {
      token: fleet.farm.regular.token,
      json: { GridBoxID: boxIds[0], submittedBy: fleet.farm.regular.id, fieldResponses: serverAnswers(scoutingAnswers()) },
    });
    const responseId = submitted.body.response_id;
    // The tablet names the server's response by its client id, as its screens do.
    const responseKey = await clientIdOf(fleet.server, 'form_responses', responseId);
    const device = await tablet();
    fleet.proxy.setOnline(false);
    await submitFormImage(device.context, { responseId: responseKey, fieldId: field(scouting, 2), image: png(), fileName: 'late.png' });
    expect((await localResponse(device, responseKey))?.images).toEqual([{ ImageID: null, ResponseID: responseKey, FieldID: field(scouting, 2), ImagePath: null, pending: true }]);

    await fleet.reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    const images = await db().selectFrom('form_response_images').select(['id', 'file_id']).where('response_id', '=', responseId).execute();
    expect(images).toHaveLength(1);
    expect((await localResponse(device, responseKey))?.images).toEqual([{ ImageID: images[0]!.id, ResponseID: responseKey, FieldID: field(scouting, 2), ImagePath: `/api/files/${images[0]!.file_id}` }]);
  });
});

describe('readers', () => {
  const submitOnServer = async (gridBoxId: number, fieldResponses: Array<{ fieldId: ClientId; inputData: string }>) => {
    const response = await fleet.server.request<{ response_id: number }>('POST', '/submit_form', {
      token: fleet.farm.regular.token,
      json: { GridBoxID: gridBoxId, submittedBy: fleet.farm.regular.id, fieldResponses: serverAnswers(fieldResponses) },
    });
    expect(response.status).toBe(200);
    return response.body.response_id;
  };

  it('answer the server online (integer ids), and the local store offline (client ids, with what was made here), flagged', async () => {
    const { gridKey, boxIds, boxKeys } = await place(2);
    const [aId, bId] = boxIds as [number, number];
    // The tablet asks by client ids, as its screens name records; online the server takes them.
    const [a, b] = boxKeys as [ClientId, ClientId];
    const batchId = await createBatch(fleet.server, fleet.farm.companyId);
    const batchKey = await clientIdOf(fleet.server, 'batches', batchId);
    expect((await fleet.server.request('POST', '/link_gridbox_batch', { token: fleet.farm.regular.token, json: { batch_id: batchId, grid_box_ids: [aId] } })).status).toBe(200);
    const byServer = {
      scoutA: await submitOnServer(aId, scoutingAnswers()),
      trapA: await submitOnServer(aId, trapAnswers()),
      treatA: await submitOnServer(aId, [{ fieldId: field(treatment, 0), inputData: 'Neem oil' }]),
      scoutB: await submitOnServer(bId, scoutingAnswers('Low')),
      fields: [fieldRowId(scouting, 0), fieldRowId(scouting, 1)] as Array<number | ClientId>,
    };
    const [scoutA, trapA, treatA, scoutB] = await clientIdsOf(fleet.server, 'form_responses', [byServer.scoutA, byServer.trapA, byServer.treatA, byServer.scoutB]);
    const byTablet = { scoutA: scoutA!, trapA: trapA!, treatA: treatA!, scoutB: scoutB!, fields: [field(scouting, 0), field(scouting, 1)] as Array<number | ClientId> };
    const device = await tablet();
    const ctx = device.context;
    const day = today();
    const sorted = (list: Array<number | string>) => [...list].map(String).sort();

    const readAll = async () => ({
      byBox: await getFieldResponsesByGridbox(ctx, { gridBoxId: a }),
      forms: await getFieldResponsesByGridboxDate(ctx, { gridBoxId: a, startDate: day, endDate: day, stickyTraps: false }),
      traps: await getFieldResponsesByGridboxDate(ctx, { gridBoxId: a, startDate: day, endDate: day, stickyTraps: true }),
      before: await getFieldResponsesByGridboxDate(ctx, { gridBoxId: a, startDate: '2020-01-01', endDate: '2020-01-02', stickyTraps: false }),
      grid: await getResponsesForGrid2(ctx, { gridId: gridKey, startDate: day, endDate: day }),
      gridTraps: await getStickyTrapResponsesGrid(ctx, { gridId: gridKey, startDate: day, endDate: day }),
      hasTrapA: await checkForStickytrap(ctx, { gridBoxId: a }),
      hasTrapB: await checkForStickytrap(ctx, { gridBoxId: b }),
      batch: await getBatchFormResponses(ctx, { batchId: batchKey }),
      answers: await getFieldResponses(ctx, { responseId: byTablet.scoutA }),
    });
    /** The readers' answers, their records named as `named` names them. */
    const expectations = (read: Awaited<ReturnType<typeof readAll>>, named: typeof byServer | typeof byTablet) => {
      expect(sorted(ids(read.byBox.responses))).toEqual(sorted([named.scoutA, named.trapA, named.treatA]));
      expect(sorted(ids(read.forms.responses))).toEqual(sorted([named.scoutA, named.treatA]));
      expect(ids(read.traps.responses)).toEqual([named.trapA]);
      expect(read.before.responses).toEqual([]);
      expect(sorted(ids(read.grid.all_responses))).toEqual(sorted([named.scoutA, named.trapA, named.treatA, named.scoutB]));
      expect(ids(read.grid.treatment_responses)).toEqual([named.treatA]);
      expect(ids(read.gridTraps.responses)).toEqual([named.trapA]);
      expect([read.hasTrapA.has_submission, read.hasTrapB.has_submission]).toEqual([true, false]);
      expect(sorted(ids(read.batch.responses))).toEqual(sorted([named.scoutA, named.trapA, named.treatA]));
      expect(read.answers.fieldResponses.map((answer) => [answer.FieldID, answer.FieldName, answer.InputData])).toEqual([
        [named.fields[0], 'Pest pressure', 'High'],
        [named.fields[1], 'Notes', 'thrips on lower leaves'],
      ]);
    };

    const online = await readAll();
    expectations(online, byServer);
    for (const answer of Object.values(online)) expect(answer).not.toHaveProperty('offline');
    expect(online.byBox.responses.find((response) => response.ResponseID === byServer.treatA)).toMatchObject({ TemplateID: treatment.TemplateID, FormCategory: 'Treatment', GridBoxID: aId, BatchID: batchId, SubmittedBy: fleet.farm.regular.id });

    fleet.proxy.setOnline(false);
    const offline = await readAll();
    expectations(offline, byTablet);
    for (const answer of Object.values(offline)) expect(answer).toHaveProperty('offline', true);
    // The local store holds the server's documents: the same responses, newest first as the server
    // orders them, named by client id (the integer id kept as serverId).
    expect(offline.byBox.responses).toEqual(await Promise.all(online.byBox.responses.map(asTablet)));
    expect(offline.byBox.responses.find((response) => response.ResponseID === byTablet.treatA)).toMatchObject({ TemplateID: treatment.key, GridBoxID: a, BatchID: batchKey, serverId: byServer.treatA });
    expect(offline.grid).toEqual({
      ...online.grid,
      all_responses: await Promise.all(online.grid.all_responses.map(asTablet)),
      treatment_responses: await Promise.all(online.grid.treatment_responses.map(asTablet)),
      offline: true,
    });

    // A sticky-trap count made here shows in the offline readers at once.
    const made = await submitForm(ctx, { submittedBy: fleet.farm.regular.id, gridBoxId: b, fieldResponses: trapAnswers('30') });
    expect((await checkForStickytrap(ctx, { gridBoxId: b })).has_submission).toBe(true);
    expect(sorted(ids((await getStickyTrapResponsesGrid(ctx, { gridId: gridKey, startDate: day, endDate: day })).responses))).toEqual(sorted([byTablet.trapA, made.response_id]));
    expect(ids((await getFieldResponsesByGridboxDate(ctx, { gridBoxId: b, startDate: day, endDate: day, stickyTraps: true })).responses)).toEqual([made.response_id]);
    expect((await getFieldResponses(ctx, { responseId: made.response_id })).fieldResponses.map((answer) => [answer.FieldName, answer.InputData])).toEqual([['Thrips', '30']]);
    await rejects(getFieldResponses(ctx, { responseId: 99_999_999 }), m.responseNotFound);
  });

  it('check dates and ids as the server does, and online answer the server’s refusal', async () => {
    const { gridKey: gridId, boxKeys } = await place(1);
    const device = await tablet();
    const ctx = device.context;
    const day = today();
    await rejects(getResponsesForGrid2(ctx, { gridId, startDate: '2026-02-30', endDate: day }), m.datesInvalid);
    await rejects(getStickyTrapResponsesGrid(ctx, { gridId, startDate: undefined as never, endDate: day }), m.datesInvalid);
    await rejects(getFieldResponsesByGridboxDate(ctx, { gridBoxId: boxKeys[0]!, startDate: '2026-03-02', endDate: '2026-03-01', stickyTraps: false }), m.datesReversed);
    await rejects(getFieldResponsesByGridbox(ctx, { gridBoxId: 0 }), m.idInvalid('GridBoxID'));
    await rejects(getBatchFormResponses(ctx, { batchId: undefined as never }), m.idInvalid('batch_id'));
    // The server's access guard answers first for an id of no response.
    await rejects(getFieldResponses(ctx, { responseId: 99_999_999 }), httpMessages.recordNotFound('form_response 99999999'), ApiError);
    // A client id no record holds, as an integer id would.
    const nothing = newClientId();
    await rejects(getFieldResponses(ctx, { responseId: nothing }), httpMessages.recordNotFound(`form_response ${nothing}`), ApiError);
  });
});
