/**
 * The one error envelope: every failure leaves the server as `{status: 'error', message}` with the
 * HTTP status of ARCHITECTURE.md. Handlers throw `HttpError`s (or let validation fail); nothing else
 * formats errors.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
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
  if (isMalformedMultipart(error)) return reply.code(400).send({ status: 'error', message: httpMessages.invalidMultipart });
  if (statusCode >= 400 && statusCode < 500) {
    return reply.code(statusCode).send({ status: 'error', message: error.message });
  }
  request.log.error({ err: error }, 'request failed');
  return reply.code(500).send({ status: 'error', message: httpMessages.internal });
}

/**
 * Multipart the parser could not read: no boundary (busboy throws a plain Error), a body cut before
 * its closing delimiter, or a part that is not what its headers say. The client's fault: 400.
 */
function isMalformedMultipart(error: FastifyError): boolean {
  if (error.code === 'FST_MP_PREMATURE_CLOSE' || error.code === 'FST_INVALID_JSON_FIELD_ERROR') return true;
  return error.statusCode === undefined && /^(Multipart: |Unexpected end of (form|multipart data)|Malformed part header)/.test(error.message);
}

/**
 * Errors Fastify meets before a route is found: a path that does not decode (FST_ERR_BAD_URL) and a
 * path parameter over `maxParamLength` (FST_ERR_MAX_PARAM_LENGTH, 414). Fastify's `frameworkErrors`.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? [414, httpMessages.parameterTooLong] : error.code === 'FST_ERR_BAD_URL' ? [400, httpMessages.badUrl] : [error.statusCode ?? 400, httpMessages.invalidRequest];
  void reply.code(status).send({ status: 'error', message });
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a head over the limit: 431; a request
 * that does not arrive in time: 408; anything else it cannot parse: 400), answered in the envelope
 * on the raw socket. Fastify's `clientErrorHandler`.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  // A connection reset has nothing left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, httpMessages.headersTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, httpMessages.requestTimeout]
        : [400, httpMessages.invalidRequest];
  const body = JSON.stringify({ status: 'error', message });
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
