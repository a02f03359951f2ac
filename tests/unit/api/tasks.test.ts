/**
 * Tasks and comments on a real tablet (outbox, RxDB, sync engine) against the real server: made offline,
 * each change shows at once in the response's document, reaches the server once online, and the server's
 * document replaces the optimistic one under the same client ids.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isClientId } from '../../../common/client-ids';
import { commentMessages as cm } from '../../../common/messages/tasks';
import { submitForm } from '../../../src/api/form-responses';
import { addComment, commentsOf, createTask, deleteComment, deleteTask, editComment, getComments, getTaskFormResponses, getTasks, taskOf, updateTask } from '../../../src/api/tasks';
import type { Tablet } from '../../support/client';
import { clientIdsOf } from '../../support/factories';
import { rejects, useFleet } from '../../support/fleet';

const fleet = useFleet();
const { tablet } = fleet;
const db = () => fleet.server.database.db;

const localResponse = async (device: Tablet, id: string) => (await device.database.form_responses.findOne(id).exec())?.toMutableJSON() ?? null;

async function form() {
  const response = await fleet.server.request<{ template_id: number; field_ids: number[] }>('POST', '/save_form_template', {
    token: fleet.farm.admin.token,
    json: { templateName: `Scouting ${randomUUID().slice(0, 6)}`, companyID: fleet.farm.companyId, fields: [{ fieldName: 'Pests seen', fieldType: 'Text', fieldOptions: [] }] },
  });
  expect(response.status).toBe(200);
  const [fieldKey] = await clientIdsOf(fleet.server, 'form_fields', response.body.field_ids);
  return { fieldKey: fieldKey! };
}

describe('tasks and comments on a tablet', () => {
  it('show at once offline and reach the server once online', async () => {
    const { fieldKey } = await form();
    const device = await tablet();
    const { boxKeys } = await fleet.pulledGrid(device, 1);
    const ctx = device.context;
    fleet.proxy.setOnline(false);
    const { response_id: responseId } = await submitForm(ctx, { submittedBy: fleet.farm.regular.id, gridBoxId: boxKeys[0]!, fieldResponses: [{ fieldId: fieldKey, inputData: 'thrips' }] });
    const responseKey = String(responseId);
    await rejects(addComment(ctx, { responseId: responseKey, text: '  ' }), cm.commentTextRequired);
    const first = await addComment(ctx, { responseId: responseKey, text: 'Seen on the lower leaves' });
    const second = await addComment(ctx, { responseId: responseKey, text: 'Typo' });
    expect(isClientId(first)).toBe(true);
    expect(commentsOf(await localResponse(device, responseKey)).map((each) => each.CommentText)).toEqual(['Seen on the lower leaves', 'Typo']);
    await editComment(ctx, { responseId: responseKey, commentId: first, text: 'Seen on all leaves' });
    await deleteComment(ctx, { responseId: responseKey, commentId: second });
    expect(commentsOf(await localResponse(device, responseKey)).map((each) => [each.CommentID, each.CommentText])).toEqual([[first, 'Seen on all leaves']]);
    const taskId = await createTask(ctx, { responseId: responseKey, title: 'Release predators' });
    expect(taskOf(await localResponse(device, responseKey))).toMatchObject({ task_id: taskId, title: 'Release predators', status: 'open', assignee: null });
    await updateTask(ctx, { responseId: responseKey, status: 'done', assigneeUserId: fleet.farm.admin.id });
    const local = taskOf(await localResponse(device, responseKey));
    expect(local).toMatchObject({ status: 'done', closed_by: fleet.farm.regular.id, assignee: { user_id: fleet.farm.admin.id } });
    // Offline lists come from the local store.
    const offline = await getTaskFormResponses(ctx, { status: 'done' });
    expect(offline).toMatchObject({ offline: true, total: 1, page: 1, per_page: 50 });
    expect((await getTasks(ctx, { userId: fleet.farm.admin.id })).tasks.map((task) => task.task_id)).toEqual([taskId]);
    expect((await getComments(ctx, { responseId: responseKey })).map((each) => each.CommentID)).toEqual([first]);

    await fleet.reconnect(device);
    const rows = await db().selectFrom('tasks').innerJoin('form_responses', 'form_responses.id', 'tasks.response_id').select(['tasks.client_id', 'tasks.status', 'tasks.assignee_user_id']).where('form_responses.client_id', '=', responseKey).execute();
    expect(rows).toEqual([{ client_id: taskId, status: 'done', assignee_user_id: fleet.farm.admin.id }]);
    const comments = await db().selectFrom('response_comments').select(['client_id', 'comment_text', 'deleted_at']).orderBy('id').where('client_id', 'in', [first, second]).execute();
    expect(comments.map((each) => [each.client_id, each.comment_text, each.deleted_at === null])).toEqual([
      [first, 'Seen on all leaves', true],
      [second, 'Typo', false],
    ]);
    const synced = await localResponse(device, responseKey);
    expect(typeof synced?.serverId).toBe('number');
    expect(taskOf(synced)).toMatchObject({ task_id: taskId, status: 'done' });
    expect(commentsOf(synced).map((each) => each.CommentID)).toEqual([first]);
    expect(await fleet.notFromServer(device)).toEqual([]);
    // Online, the server's lists.
    const online = await getTaskFormResponses(ctx, { status: 'done' });
    expect(online.offline).toBeUndefined();
    expect(online.total).toBe(1);
    await deleteTask(ctx, { responseId: responseKey, taskId });
    expect(taskOf(await localResponse(device, responseKey))).toBeNull();
    await device.engine.settle();
    expect(await db().selectFrom('tasks').select('id').where('client_id', '=', taskId).where('deleted_at', 'is', null).execute()).toEqual([]);
  });
});
