/** Typing for named route handlers, and the success envelope. */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { httpMessages } from '../../common/messages/http';
import { badRequest } from './errors';

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
 * For the few calls whose fields may come in the query or the body (the spec does not say which):
 * merges the sources (later ones win where set) and checks them with `schema`, failing as a schema
 * failure does, with the first rule's message.
 */
export function parseFields<S extends z.ZodType>(schema: S, ...sources: unknown[]): z.output<S> {
  const merged: Record<string, unknown> = {};
  for (const source of sources) {
    if (!source || typeof source !== 'object') continue;
    for (const [key, value] of Object.entries(source)) if (value !== undefined && value !== '') merged[key] = value;
  }
  const parsed = schema.safeParse(merged);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? httpMessages.invalidRequest);
  return parsed.data;
}
