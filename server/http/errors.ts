/**
 * The one error envelope: every failure leaves the server as `{status: 'error', message}` with the
 * HTTP status of ARCHITECTURE.md. Handlers throw `HttpError`s (or let validation fail); nothing else
 * formats errors.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { httpMessages } from '../../common/messages/http';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra fields for the envelope, e.g. `{total_count}` beside a limit message. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new HttpError(400, message, extra);
export const unauthorized = (message: string = httpMessages.unauthenticated) => new HttpError(401, message);
export const forbidden = (message: string = httpMessages.roleForbidden) => new HttpError(403, message);
export const notFound = (message: string = httpMessages.notFound) => new HttpError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new HttpError(409, message, extra);

/**
 * A `.catch` handler turning a unique-index violation into a 409 with the given message: where two
 * requests race for the same name or position, the index decides and the loser gets a clear answer.
 */
export const conflictOnUnique =
  (constraint: string, message: string) =>
  (error: unknown): never => {
    const { code, constraint: violated } = error as { code?: unknown; constraint?: unknown };
    if (code === '23505' && violated === constraint) throw conflict(message);
    throw error;
  };

export function errorHandler(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof HttpError) {
    return reply.code(error.statusCode).send({ status: 'error', message: error.message, ...error.extra });
  }
  // Any table's client id is unique per company: a create naming one already taken is refused whole.
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (code === '23505' && typeof constraint === 'string' && constraint.endsWith('_client_id')) {
    return reply.code(409).send({ status: 'error', message: httpMessages.clientIdTaken });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return reply.code(400).send({ status: 'error', message: error.validation[0]?.message ?? error.message });
  }
  const statusCode = error.statusCode ?? 500;
  if (statusCode === 413) return reply.code(413).send({ status: 'error', message: httpMessages.payloadTooLarge });
  if (statusCode === 415) return reply.code(415).send({ status: 'error', message: httpMessages.unsupportedMediaType });
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return reply.code(400).send({ status: 'error', message: httpMessages.invalidJson });
  }
  if (statusCode >= 400 && statusCode < 500) {
    return reply.code(statusCode).send({ status: 'error', message: error.message });
  }
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send({ status: 'error', message: httpMessages.internal });
}
