/** The application's type, typing for named route handlers, and the success envelope. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/** The Fastify application with zod schemas (server/app.ts builds it; each domain's routes register on it). */
export type App = FastifyInstance<Server, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

export interface RouteSchema {
  body?: z.ZodType;
  querystring?: z.ZodType;
  params?: z.ZodType;
}

type Output<T> = T extends z.ZodType ? z.output<T> : unknown;

/** The request a handler receives for a route declared with schema `S`. */
export type RequestOf<S extends RouteSchema> = FastifyRequest<{
  Body: Output<S['body']>;
  Querystring: Output<S['querystring']>;
  Params: Output<S['params']>;
}>;

/** `{status: 'success', message?, ...payload}` (ARCHITECTURE.md "Server conventions"). */
export function success<T extends object>(payload: T, message?: string): { status: 'success'; message?: string } & T {
  return { status: 'success', ...(message === undefined ? {} : { message }), ...payload };
}

/**
 * For calls whose fields may come in the query or the body (the spec does not say which): a
 * `preValidation` hook that puts the query's fields under the body's (the body wins), so the route's
 * body schema checks them all, with the usual messages. The tenancy guard reads both either way.
 */
export async function fieldsFromQueryAndBody(request: FastifyRequest) {
  const query = request.query && typeof request.query === 'object' ? request.query : {};
  const body = request.body && typeof request.body === 'object' && !Buffer.isBuffer(request.body) ? request.body : {};
  request.body = { ...query, ...body };
}
