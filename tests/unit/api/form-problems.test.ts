/**
 * A scouting form whose Problem answers name plant problems (src/api/form-responses.ts; issue 14), on a
 * real tablet against the real server through the proxy: submitted offline, the problems show on the
 * boxes at once under the client ids the server will give them; once online the server holds each
 * once (a lost answer replayed included) and the local documents become the server's.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ClientId, formProblemClientId, responseClientId } from '../../../common/client-ids';
import { formResponseMessages as m } from '../../../common/messages/form-responses';
import { catalogueProblemNamed } from '../../../common/plant-problems';
import type { FormTemplateRecord } from '../../../common/schemas/forms';
import { submitForm, submitFormBoxes, submitFormMultiselect, submitFormRoom } from '../../../src/api/form-responses';
import type { Tablet } from '../../support/client';
import { clientIdsOf } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet();
const { tablet, notFromServer } = fleet;
const db = () => fleet.server.database.db;

const SPIDER_MITE = catalogueProblemNamed('Two-spotted spider mite')!;
const MILDEW = catalogueProblemNamed('Powdery mildew')!;

/** Scouting: Pests (Problem), Notes (Text); its fields as the tablet names them (client ids). */
let form: { fieldKeys: ClientId[] };

beforeAll(async () => {
  const saved = await fleet.server.request<{ template: FormTemplateRecord }>('POST', '/save_form_template', {
    token: fleet.farm.admin.token,
    json: {
      templateName: `Scouting ${randomUUID()}`,
      companyID: fleet.farm.companyId,
      formCategory: 'Scouting',
      fields: [
        { fieldName: 'Pests', fieldType: 'Problem' },
        { fieldName: 'Notes', fieldType: 'Text' },
      ],
    },
  });
  expect(saved.status).toBe(200);
  form = { fieldKeys: await clientIdsOf(fleet.server, 'form_fields', saved.body.template.fields.map((field) => Number(field.FieldID))) };
});

const answers = (pests: string | null, notes = 'weekly walk') => [
  { fieldId: form.fieldKeys[0]!, inputData: pests },
  { fieldId: form.fieldKeys[1]!, inputData: notes },
];

const localProblems = async (device: Tablet, selector: Record<string, unknown>) =>
  (await device.database.plant_problems.find({ selector }).exec()).map((document) => document.toMutableJSON() as Record<string, unknown>).sort((a, b) => String(a.id).localeCompare(String(b.id)));
const problemRows = (boxIds: number[]) => db().selectFrom('plant_problems').selectAll().where('grid_box_id', 'in', boxIds).orderBy('id').execute();

describe('a Problem answer', () => {
  it('not in its format is refused with the server’s message before anything is queued', async () => {
    const device = await tablet();
    const { boxKeys, roomKey } = await fleet.pulledGrid(device, 1);
    const who = fleet.farm.regular.id;
    await rejects(submitForm(device.context, { submittedBy: who, gridBoxId: boxKeys[0]!, fieldResponses: answers('Thrips') }), m.problemAnswerInvalid('Pests'));
    await rejects(submitFormBoxes(device.context, { submittedBy: who, gridBoxIds: boxKeys, fieldResponses: answers('Thrips (2), thrips (4)') }), m.problemNamedTwice('Pests', 'thrips'));
    await rejects(submitFormRoom(device.context, { submittedBy: who, roomId: roomKey, fieldResponses: answers('Thrips (9)') }), m.problemAnswerInvalid('Pests'));
    expect(await device.outbox.count()).toBe(0);
    expect(await localProblems(device, { gridBoxId: boxKeys[0]! })).toEqual([]);
  });

  it('submitted offline shows its problems on each box at once, then the server holds each once and the local documents converge', async () => {
    const device = await tablet();
    const { roomId, roomKey, gridKey, boxIds, boxKeys } = await fleet.pulledGrid(device, 3);
    const [a, b, c] = boxKeys as [ClientId, ClientId, ClientId];
    const who = fleet.farm.regular.id;
    fleet.proxy.setOnline(false);

    const single = await submitForm(device.context, { submittedBy: who, gridBoxId: a, fieldResponses: answers('Two-spotted spider mite (3), Our leaf curl (1)') });
    const boxes = await submitFormBoxes(device.context, { submittedBy: who, gridBoxIds: [b, c], fieldResponses: answers('Powdery mildew (2)') });
    const multi = await submitFormMultiselect(device.context, { submittedBy: who, roomId: roomKey, gridBoxIds: [c], fieldResponses: answers('Powdery mildew (4)') });
    const room = await submitFormRoom(device.context, { submittedBy: who, roomId: roomKey, fieldResponses: answers('Aphids (5)') });

    // The problems are created by the submission's own entry, under ids derived from each response's.
    const entries = await device.outbox.all();
    expect(entries.map((entry) => entry.creates)).toEqual([
      [single.response_id, formProblemClientId(single.response_id, 0), formProblemClientId(single.response_id, 1)],
      [...boxes.response_ids, ...boxes.response_ids.map((id) => formProblemClientId(id, 0))],
      [...multi.response_ids, formProblemClientId(multi.response_ids[0]!, 0)],
      // A room's response records no plant problem.
      [room.response_id],
    ]);
    const submission = (index: number) => (entries[index]!.body as { data: { client_id: ClientId; submittedAt: string } }).data;
    expect(boxes.response_ids).toEqual([0, 1].map((index) => responseClientId(submission(1).client_id, index)));

    const onA = await localProblems(device, { gridBoxId: a });
    const seenAt = submission(0).submittedAt;
    const expected = [
      { index: 0, problem_type: 'Two-spotted spider mite', problem_slug: SPIDER_MITE.slug, severity: 3 },
      { index: 1, problem_type: 'Our leaf curl', problem_slug: null, severity: 1 },
    ].map(({ index, ...named }) => ({ id: formProblemClientId(single.response_id, index), ...named }));
    expect(onA).toEqual(
      expected
        .sort((x, y) => x.id.localeCompare(y.id))
        .map(({ id, ...named }) =>
          expect.objectContaining({
            id,
            problem_id: id,
            room_id: roomKey,
            grid_id: gridKey,
            grid_box_id: a,
            roomId: roomKey,
            gridBoxId: a,
            ...named,
            source: 'form',
            form_response_id: single.response_id,
            user_id: who,
            status: 'unresolved',
            observed_at: seenAt,
          }),
        ),
    );
    for (const problem of onA) expect(problem).not.toHaveProperty('serverId');
    expect((await localProblems(device, { gridBoxId: b })).map((problem) => [problem.problem_type, problem.severity, problem.form_response_id])).toEqual([['Powdery mildew', 2, boxes.response_ids[0]]]);
    expect((await localProblems(device, { gridBoxId: c })).map((problem) => [problem.problem_type, problem.severity])).toEqual(
      expect.arrayContaining([
        ['Powdery mildew', 2],
        ['Powdery mildew', 4],
      ]),
    );
    expect(await problemRows(boxIds)).toEqual([]);

    await fleet.reconnect(device);
    expect(await device.outbox.count()).toBe(0);
    const rows = await problemRows(boxIds);
    const responseIdOf = async (clientId: ClientId) => (await db().selectFrom('form_responses').select('id').where('client_id', '=', clientId).executeTakeFirstOrThrow()).id;
    expect(rows.map((row) => [row.client_id, row.grid_box_id, row.problem_type, row.problem_slug, row.severity, row.source])).toEqual([
      [formProblemClientId(single.response_id, 0), boxIds[0], 'Two-spotted spider mite', SPIDER_MITE.slug, 3, 'form'],
      [formProblemClientId(single.response_id, 1), boxIds[0], 'Our leaf curl', null, 1, 'form'],
      [formProblemClientId(boxes.response_ids[0]!, 0), boxIds[1], 'Powdery mildew', MILDEW.slug, 2, 'form'],
      [formProblemClientId(boxes.response_ids[1]!, 0), boxIds[2], 'Powdery mildew', MILDEW.slug, 2, 'form'],
      [formProblemClientId(multi.response_ids[0]!, 0), boxIds[2], 'Powdery mildew', MILDEW.slug, 4, 'form'],
    ]);
    expect(rows[0]!.form_response_id).toBe(await responseIdOf(single.response_id));
    // Seen when the form was filled offline, not when it was sent.
    expect(new Date(rows[0]!.observed_at).toISOString()).toBe(seenAt);
    expect(await db().selectFrom('plant_problems').select('id').where('room_id', '=', roomId).where('grid_box_id', 'not in', boxIds).execute()).toEqual([]);

    // The server's copies replaced the optimistic ones, under the same keys.
    const converged = await localProblems(device, { gridBoxId: a });
    expect(converged.map((problem) => [problem.id, problem.serverId, problem.form_response_id, problem.observed_at])).toEqual(
      rows
        .slice(0, 2)
        .map((row) => [row.client_id, row.id, single.response_id, seenAt])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    expect(await notFromServer(device)).toEqual([]);
  });

  it('whose answer is lost after the server committed is replayed into one set of problems', async () => {
    const device = await tablet();
    const { boxIds, boxKeys } = await fleet.pulledGrid(device, 1);
    const lost = fleet.proxy.loseAnswerOnce((request) => request.url?.split('?')[0] === '/api/submit_form');
    const { response_id } = await submitForm(device.context, { submittedBy: fleet.farm.regular.id, gridBoxId: boxKeys[0]!, fieldResponses: answers('Powdery mildew (3), Two-spotted spider mite (2)') });
    await lost;
    await device.engine.settle();
    expect(await device.outbox.count()).toBe(0);
    expect(fleet.proxy.sent.filter((request) => request.url.split('?')[0] === '/api/submit_form').length).toBeGreaterThanOrEqual(2);
    const rows = await problemRows(boxIds);
    expect(rows.map((row) => row.client_id)).toEqual([formProblemClientId(response_id, 0), formProblemClientId(response_id, 1)]);
    expect(await notFromServer(device)).toEqual([]);
  });
});
