/** Typing for named route handlers, and the success envelope. */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';

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
