/**
 * The API description (server/http/openapi.ts): valid OpenAPI 3.1, generated from the routes, so it
 * lists every route the server answers, with the bearer authentication and the error envelope.
 */
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Operation = { security?: unknown[]; responses?: Record<string, unknown>; parameters?: Array<{ name: string; in: string }>; requestBody?: unknown };
type Description = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** A Fastify route path as OpenAPI writes it: `/a/:id` → `/a/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]\w*)/g, '{$1}');

describe('GET /api/openapi.json', () => {
  it('is valid OpenAPI 3.1, without a token', async () => {
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    const description = (await response.json()) as Description;
    expect(description.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(description) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('lists every route the server answers, with its parameters, authentication and error answers', async () => {
    const description = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Description;
    const routes = server.app.routeCatalog.filter((route) => route.url.startsWith('/api/') && !route.url.startsWith('/api/docs') && route.url !== '/api/openapi.json');
    expect(routes.length).toBeGreaterThan(120);
    const missing = routes.filter((route) => !description.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]).map((route) => `${route.method} ${route.url}`);
    expect(missing).toEqual([]);

    const createRoom = description.paths['/api/create_room']!.post!;
    expect(createRoom.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(createRoom.responses ?? {})).toEqual(expect.arrayContaining(['400', '401', '403', '404', 'default']));
    const login = description.paths['/api/login']!.post!;
    expect(login.security).toBeUndefined();
    // Success answers are described from the same schemas that write them (server/http/serializer.ts).
    const created = createRoom.responses?.['200'] as { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } | undefined;
    expect(Object.keys(created?.content?.['application/json']?.schema?.properties ?? {})).toEqual(expect.arrayContaining(['status', 'room', 'RoomID', 'client_id']));
    const withoutSuccess = routes
      .filter((route) => (route.schema?.response as Record<string, unknown> | undefined)?.[200])
      .filter((route) => !description.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]?.responses?.['200'])
      .map((route) => `${route.method} ${route.url}`);
    expect(withoutSuccess).toEqual([]);
    const scroll = description.paths['/api/get_room_scroll']!.get!;
    expect(scroll.parameters?.map((parameter) => `${parameter.in}:${parameter.name}`)).toEqual(expect.arrayContaining(['query:company_id', 'query:room_id']));
  });
});

describe('GET /api/docs', () => {
  it('serves the browsable page without a token', async () => {
    const response = await fetch(`${server.url}/api/docs/`, { redirect: 'follow' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(await response.text()).toContain('swagger');
  });
});
