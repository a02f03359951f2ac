/**
 * Comments on form responses (issue 16; spec part 2 §3 "Comment", §4, §7, §8), over HTTP on a real
 * database: every call with its messages, another company's responses and comments refused, only the
 * author edits, the author or an Admin deletes, and the comments reaching tablets inside their
 * response's form_responses document, an offline comment once with the time it was written.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newClientId } from '../../common/client-ids';
import { httpMessages } from '../../common/messages/http';
import { COMMENT_MAX_CHARS, commentMessages as m } from '../../common/messages/tasks';
import type { FormResponseRecord } from '../../common/schemas/form-responses';
import type { PushAnswer } from '../../common/schemas/sync';
import type { ResponseCommentRecord } from '../../common/schemas/tasks';
import { clientIdOf, createGrid, createRoom, createTenant, createUser, type SignedInUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { type PulledDocument, pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
/** A second grower of the farm: not the author of the first's comments. */
let grower: SignedInUser;
let boxId: number;
let fieldId: number;
let otherResponse: number;

type Comment = Omit<ResponseCommentRecord, 'CommentID' | 'ResponseID'> & { CommentID: number; ResponseID: number };
type PulledResponse = PulledDocument & FormResponseRecord;

const error = (message: string) => ({ status: 'error', message });
const forbidden = error(httpMessages.otherCompany);

const call = (method: string, path: string, token: string, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { token, ...options });

async function formOf(tenant: Tenant): Promise<number> {
  const response = await call('POST', '/save_form_template', tenant.admin.token, {
    json: { templateName: `Scouting ${randomUUID().slice(0, 8)}`, companyID: tenant.companyId, fields: [{ fieldName: 'Pests seen', fieldType: 'Text', fieldOptions: [], isRequired: 0 }] },
  });
  expect(response.status).toBe(200);
  return (response.body as { field_ids: number[] }).field_ids[0]!;
}

async function observe(user: SignedInUser, box = boxId, field = fieldId): Promise<number> {
  const response = await call('POST', '/submit_form', user.token, { json: { GridBoxID: box, submittedBy: user.id, fieldResponses: [{ fieldID: field, inputData: 'thrips' }] } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { response_id: number }).response_id;
}

async function comment(user: SignedInUser, responseId: number, text: string): Promise<Comment> {
  const response = await call('POST', '/add_comment', user.token, { json: { ResponseID: responseId, UserID: user.id, CommentText: text } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body as { comment: Comment }).comment;
}

const commentsOf = async (user: SignedInUser, responseId: number) => ((await call('GET', '/get_comments', user.token, { query: { ResponseID: responseId } })).body as { comments: Comment[] }).comments;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  grower = await createUser(server, farm.companyId, 'Regular');
  boxId = (await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 1, 1)).boxIds[0]!;
  fieldId = await formOf(farm);
  const otherBox = (await createGrid(server, other.companyId, await createRoom(server, other.companyId), 1, 1)).boxIds[0]!;
  otherResponse = await observe(other.regular, otherBox, await formOf(other));
});
afterAll(() => server.close());

describe('add_comment and get_comments', () => {
  it('adds a comment by any member, listed oldest first; audited', async () => {
    const responseId = await observe(farm.regular);
    const clientId = newClientId();
    const added = await call('POST', '/add_comment', grower.token, { json: { ResponseID: responseId, UserID: grower.id, CommentText: '  Predators released  ', client_id: clientId } });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ status: 'success', message: m.commentAdded, client_id: clientId, comment: { ResponseID: responseId, UserID: grower.id, CommentText: 'Predators released', EditedAt: null } });
    const first = (added.body as { comment: Comment }).comment;
    expect((added.body as { CommentID: number }).CommentID).toBe(first.CommentID);
    const second = await comment(farm.admin, responseId, 'Check again Friday');
    expect(await commentsOf(farm.regular, responseId)).toEqual([first, second]);
    const events = await server.database.db.selectFrom('audit_events').select(['event_title', 'user_id', 'response_id']).where('company_id', '=', farm.companyId).where('event_title', '=', `Commented on form response ${responseId}`).execute();
    expect(events).toEqual([
      { event_title: `Commented on form response ${responseId}`, user_id: grower.id, response_id: responseId },
      { event_title: `Commented on form response ${responseId}`, user_id: farm.admin.id, response_id: responseId },
    ]);
  });

  it('answers each message', async () => {
    const responseId = await observe(farm.regular);
    const add = (json: Record<string, unknown>) => call('POST', '/add_comment', farm.regular.token, { json }).then((r) => r.body);
    expect(await add({ UserID: farm.regular.id, CommentText: 'x' })).toEqual(error(m.responseIdRequired));
    expect(await add({ ResponseID: responseId, CommentText: 'x' })).toEqual(error(m.userIdRequired));
    expect(await add({ ResponseID: responseId, UserID: farm.regular.id, CommentText: '   ' })).toEqual(error(m.commentTextRequired));
    expect(await add({ ResponseID: responseId, UserID: farm.regular.id, CommentText: 'x'.repeat(COMMENT_MAX_CHARS + 1) })).toEqual(error(m.commentTextRequired));
    expect(await add({ ResponseID: responseId, UserID: farm.regular.id, CommentText: 'x', client_id: 'not-a-uuid' })).toEqual(error(httpMessages.clientIdInvalid));
    expect((await call('GET', '/get_comments', farm.regular.token)).body).toEqual(error(m.responseIdRequired));
    expect(await commentsOf(farm.regular, responseId)).toEqual([]);
  });

  it('comments only as oneself, only on the company’s responses', async () => {
    const responseId = await observe(farm.regular);
    const asAnother = await call('POST', '/add_comment', farm.regular.token, { json: { ResponseID: responseId, UserID: grower.id, CommentText: 'Not me' } });
    expect(asAnother.status).toBe(403);
    expect(asAnother.body).toEqual(error(httpMessages.notYourself));
    expect((await call('POST', '/add_comment', farm.regular.token, { json: { ResponseID: otherResponse, UserID: farm.regular.id, CommentText: 'Hello' } })).body).toEqual(forbidden);
    expect((await call('GET', '/get_comments', farm.regular.token, { query: { ResponseID: otherResponse } })).body).toEqual(forbidden);
    const missing = await call('GET', '/get_comments', farm.regular.token, { query: { ResponseID: 2_000_000_000 } });
    expect(missing.status).toBe(404);
    expect(await commentsOf(farm.regular, responseId)).toEqual([]);
  });
});

describe('edit_comment', () => {
  it('lets the author change the text; nobody else, Admins neither', async () => {
    const responseId = await observe(farm.regular);
    const mine = await comment(farm.regular, responseId, 'Thrips on the lower leaves');
    const edited = await call('PUT', '/edit_comment', farm.regular.token, { json: { CommentID: mine.CommentID, UserID: farm.regular.id, CommentText: 'Thrips and mites' } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ message: m.commentEdited, comment: { CommentID: mine.CommentID, CommentText: 'Thrips and mites', CreatedAt: mine.CreatedAt } });
    expect(Date.parse((edited.body as { comment: Comment }).comment.EditedAt!)).toBeGreaterThan(Date.now() - 60_000);
    for (const user of [grower, farm.admin]) {
      const refused = await call('PUT', '/edit_comment', user.token, { json: { CommentID: mine.CommentID, UserID: user.id, CommentText: 'Rewritten' } });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual(error(m.notAuthorEdit));
    }
    expect((await commentsOf(grower, responseId)).map((each) => each.CommentText)).toEqual(['Thrips and mites']);
  });

  it('answers each message; refuses another company’s comment', async () => {
    const mine = await comment(farm.regular, await observe(farm.regular), 'x');
    const edit = (json: Record<string, unknown>) => call('PUT', '/edit_comment', farm.regular.token, { json }).then((r) => r.body);
    expect(await edit({ UserID: farm.regular.id, CommentText: 'y' })).toEqual(error(m.commentIdRequired));
    expect(await edit({ CommentID: mine.CommentID, CommentText: 'y' })).toEqual(error(m.userIdRequired));
    expect(await edit({ CommentID: mine.CommentID, UserID: farm.regular.id, CommentText: '' })).toEqual(error(m.commentTextRequired));
    expect(await edit({ CommentID: mine.CommentID, UserID: grower.id, CommentText: 'y' })).toEqual(error(httpMessages.notYourself));
    const theirs = await comment(other.regular, otherResponse, 'Theirs');
    expect(await edit({ CommentID: theirs.CommentID, UserID: farm.regular.id, CommentText: 'Mine now' })).toEqual(forbidden);
  });
});

describe('delete_comment', () => {
  it('lets the author and Admins delete a comment, not another grower; the rest stay', async () => {
    const responseId = await observe(farm.regular);
    const [a, b, c] = [await comment(farm.regular, responseId, 'a'), await comment(farm.regular, responseId, 'b'), await comment(grower, responseId, 'c')];
    const refused = await call('DELETE', '/delete_comment', grower.token, { json: { CommentID: a.CommentID, UserID: grower.id } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(error(m.notAuthorDelete));
    expect((await call('DELETE', '/delete_comment', farm.regular.token, { json: { CommentID: a.CommentID, UserID: farm.regular.id } })).body).toEqual({
      status: 'success',
      message: m.commentDeleted,
      CommentID: a.CommentID,
      ResponseID: responseId,
    });
    expect((await call('DELETE', '/delete_comment', farm.admin.token, { json: { CommentID: c.CommentID, UserID: farm.admin.id } })).status).toBe(200);
    expect(await commentsOf(farm.regular, responseId)).toEqual([b]);
    // Gone: neither edited nor deleted again.
    const again = await call('DELETE', '/delete_comment', farm.regular.token, { json: { CommentID: a.CommentID, UserID: farm.regular.id } });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(error(httpMessages.recordNotFound(`response_comment ${a.CommentID}`)));
  });

  it('answers each message; refuses another company’s comment', async () => {
    const mine = await comment(farm.regular, await observe(farm.regular), 'x');
    const remove = (json: Record<string, unknown>) => call('DELETE', '/delete_comment', farm.admin.token, { json }).then((r) => r.body);
    expect(await remove({ UserID: farm.admin.id })).toEqual(error(m.commentIdRequired));
    expect(await remove({ CommentID: mine.CommentID })).toEqual(error(m.userIdRequired));
    const theirs = await comment(other.regular, otherResponse, 'Theirs');
    expect(await remove({ CommentID: theirs.CommentID, UserID: farm.admin.id })).toEqual(forbidden);
    expect((await commentsOf(other.regular, otherResponse)).map((each) => each.CommentID)).toContain(theirs.CommentID);
  });
});

describe('the form_responses documents tablets pull', () => {
  it('carry the comments by client id; an offline comment arrives once, with the time it was written', async () => {
    const responseId = await observe(farm.regular);
    const responseClientId = await clientIdOf(server, 'form_responses', responseId);
    const [kept, dropped] = [newClientId(), newClientId()];
    const writtenAt = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const entries = [
      { id: randomUUID(), method: 'POST', path: '/add_comment', actedAt: writtenAt, body: { kind: 'json', data: { ResponseID: responseClientId, UserID: farm.regular.id, CommentText: 'Sticky traps full', client_id: kept } } },
      { id: randomUUID(), method: 'POST', path: '/add_comment', body: { kind: 'json', data: { ResponseID: responseClientId, UserID: farm.regular.id, CommentText: 'Typo', client_id: dropped } } },
      { id: randomUUID(), method: 'PUT', path: '/edit_comment', body: { kind: 'json', data: { CommentID: kept, UserID: farm.regular.id, CommentText: 'Sticky traps full: replace' } } },
      { id: randomUUID(), method: 'DELETE', path: '/delete_comment', body: { kind: 'json', data: { CommentID: dropped, UserID: farm.regular.id } } },
    ];
    const push = () => server.request<PushAnswer>('POST', '/sync/push', { token: farm.regular.token, query: { naming: 'client' }, json: { entries } });
    const pushed = await push();
    expect(pushed.body.results.map((result) => result.status)).toEqual([200, 200, 200, 200]);
    // The push's answer carries the response's document as the entries left it.
    const answered = (pushed.body.documents.form_responses ?? []) as unknown as PulledResponse[];
    expect(answered.find((document) => document.id === responseClientId)?.comments?.map((each) => each.CommentID)).toEqual([kept]);
    // Sent again (the first answer was lost): the stored answers, nothing applied twice.
    const again = await push();
    expect(again.body.results.map((result) => result.body)).toEqual(pushed.body.results.map((result) => result.body));
    const pulled = await pullUntil<PulledResponse>(server, farm.admin.token, 'form_responses', (documents) => documents.get(responseClientId)?.comments?.length === 1, 'client');
    const [only] = pulled.get(responseClientId)?.comments ?? [];
    expect(only).toMatchObject({ CommentID: kept, ResponseID: responseClientId, UserID: farm.regular.id, CommentText: 'Sticky traps full: replace' });
    expect(only!.CreatedAt).toBe(writtenAt);
    expect(only!.EditedAt).not.toBeNull();
    const rows = await server.database.db.selectFrom('response_comments').select(['client_id', 'deleted_at']).where('response_id', '=', responseId).execute();
    expect(rows.map((row) => [row.client_id, row.deleted_at === null]).sort()).toEqual([[dropped, false], [kept, true]].sort());
  });
});
