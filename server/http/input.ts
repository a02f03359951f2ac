/**
 * Checks of input that no route could use, made once for every route before its own validation:
 * PostgreSQL `text` cannot hold a NUL character (`\u0000`), so a value with one would fail deep in a
 * statement as a 500. It is refused here with a 400 naming the field (nested ones by their path, e.g.
 * `fieldResponses[0].value`), wherever it comes: path, query or body. Files (Buffers) are bytes, not
 * text, and are not looked at.
 *
 * A push's body carries other requests: each of its entries is checked when it runs (push.ts injects
 * it), so one entry's bad field fails that entry alone instead of the whole push (`config.carriesRequests`).
 */
import type { FastifyInstance } from 'fastify';
import { httpMessages } from '../../common/messages/http';
import { badRequest } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The body holds other requests, each checked as it runs (the sync push). */
    carriesRequests?: boolean;
  }
}

/** The path of the first string holding a NUL character in `value` (keys count too), or null. */
export function nulCharacterAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulCharacterAt(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const field = path === '' ? key : `${path}.${key}`;
    if (key.includes('\u0000')) return field.replaceAll('\u0000', '\\0');
    const found = nulCharacterAt(item, field);
    if (found !== null) return found;
  }
  return null;
}

export function registerInputChecks(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const sources = request.routeOptions.config.carriesRequests ? [request.params, request.query] : [request.params, request.query, request.body];
    for (const source of sources) {
      const field = nulCharacterAt(source);
      if (field !== null) throw badRequest(httpMessages.nulCharacter(field || 'The request body'));
    }
  });
}
