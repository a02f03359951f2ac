/**
 * Comments on form responses (spec part 2 §3 "Comment", §4, §7, §8; issue 16). Any member comments, as
 * themselves (`UserID` is the caller); only the author edits a comment; the author or an Admin deletes
 * one. Comments travel inside their response's `form_responses` document, so every write touches the
 * response; each is audited at the act's time (an offline comment keeps the moment it was written).
 */
import type { FastifyRequest } from 'fastify';
import { auditTitles } from '../../../common/messages/audit-titles';
import { httpMessages } from '../../../common/messages/http';
import { commentMessages as m } from '../../../common/messages/tasks';
import { addCommentBody, commentAnswer, commentsAnswer, commentsQuery, deleteCommentAnswer, deleteCommentBody, editCommentBody } from '../../../common/schemas/tasks';
import { actedAtOf, type Actor, writer } from '../../db/writes';
import { forbidden, notFound } from '../../http/errors';
import { assertCaller } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { responseQueries } from '../forms/responses-queries';
import { commentJson, type ResponseComment, taskQueries as q } from './queries';

const listSchema = { querystring: commentsQuery, response: { 200: commentsAnswer } };
const addSchema = { body: addCommentBody, response: { 200: commentAnswer } };
const editSchema = { body: editCommentBody, response: { 200: commentAnswer } };
const deleteSchema = { body: deleteCommentBody, response: { 200: deleteCommentAnswer } };

/** The live response a call names (the guard found it live; 404 when deleted since). */
async function liveResponse(request: FastifyRequest, responseId: number) {
  const response = await responseQueries.byId(request.db, responseId);
  if (!response) throw notFound(httpMessages.recordNotFound(`form_response ${responseId}`));
  return response;
}

async function liveComment(request: FastifyRequest, commentId: number) {
  const comment = await q.liveCommentById(request.db, commentId);
  if (!comment) throw notFound(httpMessages.recordNotFound(`response_comment ${commentId}`));
  return comment;
}

/** Touches the comment's response (its document carries the comments) and records the act under it, titled by `title` (of the response's id). */
async function afterCommentWrite(request: FastifyRequest, actor: Actor, comment: ResponseComment, title: (responseId: number) => string) {
  await writer(request.db, actor).touch('form_responses', comment.response_id);
  const response = await responseQueries.byId(request.db, comment.response_id);
  await recordAudit(request.db, actor, {
    title: title(comment.response_id),
    gridBoxId: response?.grid_box_id ?? null,
    roomId: response?.room_id ?? null,
    batchId: response?.batch_id ?? null,
    responseId: comment.response_id,
    details: { comment_id: comment.id },
  });
}

async function getComments(request: RequestOf<typeof listSchema>) {
  const response = await liveResponse(request, request.query.ResponseID);
  return success({ comments: (await q.commentsOf(request.db, [response.id])).get(response.id) ?? [] });
}

async function addComment(request: RequestOf<typeof addSchema>) {
  const { ResponseID, UserID, CommentText, client_id } = request.body;
  assertCaller(request, UserID);
  const response = await liveResponse(request, ResponseID);
  const actor = actorOfRequest(request, response.company_id);
  const created = await writer(request.db, actor).insert('response_comments', { client_id, company_id: response.company_id, response_id: response.id, user_id: UserID, comment_text: CommentText, edited_at: null });
  const comment = await q.commentById(request.db, created.id);
  await afterCommentWrite(request, actor, comment, auditTitles.commentedOn);
  return success({ comment: commentJson(comment), CommentID: comment.id, client_id: comment.client_id }, m.commentAdded);
}

async function editComment(request: RequestOf<typeof editSchema>) {
  const { CommentID, UserID, CommentText } = request.body;
  const claims = assertCaller(request, UserID);
  const comment = await liveComment(request, CommentID);
  if (comment.user_id !== claims.user_id) throw forbidden(m.notAuthorEdit);
  const actor = actorOfRequest(request, comment.company_id);
  const edited = await writer(request.db, actor).updateReturning('response_comments', comment.id, { comment_text: CommentText, edited_at: actedAtOf(actor) });
  if (!edited) throw notFound(httpMessages.recordNotFound(`response_comment ${CommentID}`));
  await afterCommentWrite(request, actor, edited, auditTitles.editedComment);
  return success({ comment: commentJson(edited), CommentID: edited.id, client_id: edited.client_id }, m.commentEdited);
}

async function deleteComment(request: RequestOf<typeof deleteSchema>) {
  const { CommentID, UserID } = request.body;
  const claims = assertCaller(request, UserID);
  const comment = await liveComment(request, CommentID);
  // Another's comment: an Admin's (or SuperAdmin's) to delete, not a grower's or a consultant's.
  if (comment.user_id !== claims.user_id && claims.user_role !== 'Admin' && claims.user_role !== 'SuperAdmin') throw forbidden(m.notAuthorDelete);
  const actor = actorOfRequest(request, comment.company_id);
  await writer(request.db, actor).softDelete('response_comments', comment.id);
  await afterCommentWrite(request, actor, comment, auditTitles.deletedComment);
  return success({ CommentID: comment.id, ResponseID: comment.response_id }, m.commentDeleted);
}

export async function commentRoutes(app: App) {
  // The spec sends delete_comment's fields in the body; a query is read too (a DELETE body may be dropped on the way).
  const fields = { preValidation: fieldsFromQueryAndBody };
  // An outside consultant reads and comments (server/domains/consultants/routes.ts): their own comments, as any author.
  const consultant = 'comment' as const;
  app.get('/get_comments', { schema: listSchema }, getComments);
  app.post('/add_comment', { schema: addSchema, config: { consultant } }, addComment);
  app.put('/edit_comment', { schema: editSchema, config: { consultant } }, editComment);
  app.delete('/delete_comment', { schema: deleteSchema, config: { consultant }, ...fields }, deleteComment);
}
