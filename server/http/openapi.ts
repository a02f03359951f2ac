/**
 * The API's description, generated from the code that validates: `GET /api/openapi.json` (OpenAPI
 * 3.1) and a browsable page at `/api/docs`. @fastify/swagger collects every route registered after
 * it (so this is registered before the domains); each route's zod schemas become JSON Schemas
 * (fastify-type-provider-zod's transform, as the request's input: what a client sends). To each route
 * this adds what the route options say and the schemas cannot: the bearer authentication unless
 * `config.access` is 'public', and the error envelope (errors.ts) with the statuses it may answer.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

type Transform = typeof jsonSchemaTransform;

/** The error envelope every failure answers (errors.ts). */
const ERROR_ENVELOPE = {
  type: 'object',
  required: ['status', 'message'],
  properties: { status: { type: 'string', const: 'error' }, message: { type: 'string' } },
  additionalProperties: true,
} as const;

/** The statuses an error may answer, by what the route does (ARCHITECTURE.md "Server conventions"). */
function errorAnswers(isPublic: boolean, hasInput: boolean) {
  const answer = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_ENVELOPE } } });
  return {
    ...(hasInput ? { 400: answer('The input is not valid: the message says which field and why, in the spec’s words.') } : {}),
    ...(isPublic ? {} : { 401: answer('No access token, or one that is not valid or has expired.'), 403: answer('Another company’s record, or a role that may not do this.') }),
    404: answer('A record the request names does not exist.'),
    default: answer('Any other failure, in the same envelope.'),
  };
}

const transform: Transform = (input) => {
  const result = jsonSchemaTransform(input);
  const access = (input.route.config as { access?: string } | undefined)?.access ?? 'member';
  const isPublic = access === 'public';
  const schema = (result.schema ?? {}) as Record<string, unknown>;
  const hasInput = Boolean(schema.body ?? schema.querystring ?? schema.params);
  return {
    ...result,
    schema: {
      ...schema,
      ...(isPublic ? {} : { security: [{ bearerAuth: [] }] }),
      // @fastify/swagger reads response descriptions from `response`; a route's own success schema stays.
      response: { ...errorAnswers(isPublic, hasInput), ...(schema.response as object | undefined) },
    },
  };
};

export async function registerOpenApi(app: FastifyInstance, version: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Grow Room API',
        version,
        description:
          'The cultivation server. Every answer is JSON: `{status: "success", ...}` or the error envelope `{status: "error", message}`. Writes take an `Idempotency-Key` header (a repeat gets the first answer) and an `X-Acted-At` header (when the grower did it, for changes queued offline). Records may be named by their client id (a UUID) wherever an id is asked for.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  });
  // The page and the description are public: they say how to call the API, not what any company holds.
  await app.register(async (docs) => {
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, access: 'public' };
    });
    docs.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
    await docs.register(swaggerUi, {
      routePrefix: '/api/docs',
      // The calls listed by area, each opened on demand (164 calls in one open list are slow to draw).
      uiConfig: { deepLinking: true, docExpansion: 'none' },
      uiHooks: {
        // The plugin sends static/index.html to the page by rewriting its URL, which a query string defeats:
        // it redirected to itself for ever. Such a request goes to the page itself.
        onRequest: (request, reply, done) => {
          if (request.url.startsWith('/api/docs/static/index.html?')) void reply.redirect('/api/docs/');
          else done();
        },
      },
    });
  });
}
