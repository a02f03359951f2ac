/**
 * Checks of input that no route could use, made once for every route before its own validation:
 * text PostgreSQL cannot hold — a NUL character (`\u0000`), or half of a UTF-16 surrogate pair (a
 * lone `\ud800`, which JSON may carry but UTF-8 cannot encode) — would fail deep in a statement as a
 * 500. It is refused here with a 400 naming the field (nested ones by their path, e.g.
 * `fieldResponses[0].value`), wherever it comes: path, query or body. Files (Buffers) are bytes, not
 * text, and are not looked at.
 *
 * A push's body carries other requests: each of its entries is checked when it runs (push.ts injects
 * it), so one entry's bad field fails that entry alone instead of the whole push (`config.carriesRequests`).
 */
import type { FastifyInstance } from 'fastify';
import { httpMessages } from '../../common/messages/http';
import { badRequest } from './errors';

/** A NUL character, or a surrogate not in a pair. */
// eslint-disable-next-line no-control-regex -- the NUL character is what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The path of the first string in `value` holding a character text cannot hold (keys count too), or null. */
export function unstorableTextAt(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : null;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unstorableTextAt(item, `${path}[${index}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const field = path === '' ? key : `${path}.${key}`;
    // A key that cannot be stored is named by where it stands, not by itself.
    if (UNSTORABLE.test(key)) return path === '' ? 'A field name' : `A field name in ${path}`;
    const found = unstorableTextAt(item, field);
    if (found !== null) return found;
  }
  return null;
}

export function registerInputChecks(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const sources = request.routeOptions.config.carriesRequests ? [request.params, request.query] : [request.params, request.query, request.body];
    for (const source of sources) {
      const field = unstorableTextAt(source);
      if (field !== null) throw badRequest(httpMessages.unstorableText(field || 'The request body'));
    }
  });
}
