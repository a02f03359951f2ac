/**
 * Answers leave through their route's response schema (server/http/serializer.ts): every route
 * declares one, the server writes only what it names, and where answers are proven (every test
 * server) one that does not match its schema fails instead of reaching a tablet.
 */
import Fastify from 'fastify';
import { type ZodTypeProvider, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answer, recordRef, timestamp } from '../../common/schemas/answers';
import { answerJsonSchema, answerSerializerCompiler } from '../../server/http/serializer';
import { startServer, type TestServer } from '../support/server';

/**
 * Routes whose success is not one JSON document: the change stream (server-sent events), files
 * (uploaded images) and a batch's QR label (PNG), and the API's own description. Their errors are
 * the envelope, as every route's.
 */
const NOT_JSON_ANSWERS = new Set(['GET /api/sync/stream', 'GET /api/files/:id', 'GET /api/batch_qr/:batchId', 'GET /api/openapi.json', 'GET /api/get_ai_model_file']);

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

describe('every route', () => {
  it('declares the answer it gives', () => {
    const undeclared = server.app.routeCatalog
      .filter((route) => route.url.startsWith('/api/') && !route.url.startsWith('/api/docs') && !NOT_JSON_ANSWERS.has(`${route.method} ${route.url}`))
      .filter((route) => !(route.schema?.response as Record<string, unknown> | undefined)?.[200])
      .map((route) => `${route.method} ${route.url}`);
    expect(undeclared).toEqual([]);
  });
});

describe('the answer serializer', () => {
  const room = answer({ room: z.object({ RoomID: recordRef, Name: z.string(), ScannedDateTime: timestamp.nullable(), Note: z.string().nullable() }) });

  async function appAnswering(payload: unknown, checkAnswers: boolean) {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(answerSerializerCompiler(checkAnswers));
    app.get('/room', { schema: { response: { 200: room } } }, () => payload as never);
    await app.ready();
    return app;
  }

  it('writes only the fields the schema names', async () => {
    const app = await appAnswering({ status: 'success', room: { RoomID: 'f0e1', Name: 'Veg', ScannedDateTime: null, Note: null, password_hash: 'secret' }, extra: 1 }, true);
    const response = await app.inject('/room');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'success', room: { RoomID: 'f0e1', Name: 'Veg', ScannedDateTime: null, Note: null } });
    await app.close();
  });

  it('refuses an answer that does not match its schema where answers are proven', async () => {
    const wrong = { status: 'success', room: { RoomID: 3, Name: 'Veg', ScannedDateTime: 'yesterday', Note: null } };
    const proving = await appAnswering(wrong, true);
    expect((await proving.inject('/room')).statusCode).toBe(500);
    await proving.close();
    // Without proof it is written by the schema alone (production's path: no second pass over every answer).
    const writing = await appAnswering(wrong, false);
    expect((await writing.inject('/room')).json()).toEqual(wrong);
    await writing.close();
  });

  it('decides a nullable or mixed field by its type, not by validating each branch', () => {
    const jsonSchema = answerJsonSchema(room) as { properties: { room: { properties: Record<string, unknown> } } };
    expect(jsonSchema.properties.room.properties.RoomID).toEqual({ type: ['integer', 'string'] });
    expect(jsonSchema.properties.room.properties.Note).toEqual({ type: ['string', 'null'] });
  });
});
