import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { sessionMessages as m } from '../../common/messages/session';
import { VERSION } from '../../server/app';
import { addUser } from '../../server/companies';
import { createGrid, createRoom, createTenant, createUser, type Tenant } from '../support/factories';
import { databaseKind, startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
});
afterAll(() => server.close());

/** A request with a raw body, for what the harness's helper never sends (malformed JSON, other types). */
async function raw(target: TestServer, method: string, path: string, body: string, headers: Record<string, string>) {
  const response = await fetch(`${target.url}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, contentType: response.headers.get('content-type') ?? '', body: JSON.parse(text) as unknown };
}

describe('GET /api/health', () => {
  it('answers without a token, naming the database and the version', async () => {
    const response = await server.request('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'success', database: databaseKind, version: VERSION });
  });

  it('answers 503 in the envelope when the server cannot reach its database (a load balancer takes the instance out)', async () => {
    const cut = await startServer();
    try {
      await cut.loseDatabase();
      const response = await cut.request('GET', '/health');
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ status: 'error', message: httpMessages.databaseUnreachable });
    } finally {
      await cut.close();
    }
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET without a token', 'GET', undefined],
    ['GET with a token', 'GET', 'token'],
    ['POST without a token', 'POST', undefined],
    ['POST with a token', 'POST', 'token'],
  ])('answer 404 JSON for %s', async (_case, method, withToken) => {
    const response = await server.request(method, '/no_such_route', {
      ...(withToken ? { token: farm.admin.token } : {}),
      ...(method === 'POST' ? { json: { anything: 1 } } : {}),
      query: { company_id: farm.companyId },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.routeNotFound(method, '/api/no_such_route') });
  });

  it('answer 404 JSON outside /api when no web app is built', async () => {
    const response = await fetch(`${server.url}/dashboard/rooms`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ status: 'error', message: httpMessages.routeNotFound('GET', '/dashboard/rooms') });
  });
});

describe('authentication', () => {
  it('a protected route answers 401 without a token', async () => {
    const response = await server.request('GET', '/load_users', { query: { company_id: farm.companyId } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.unauthenticated });
  });

  it('a protected route answers 401 for a token that is not one of ours', async () => {
    const response = await server.request('GET', '/load_users', { token: 'not.a.token', query: { company_id: farm.companyId } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.invalidToken });
  });

  it('a mutating route answers 401 without a token, before reading the body', async () => {
    const response = await server.request('POST', '/add_audit_event', { json: { EventTitle: 'Anonymous' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.unauthenticated });
  });
});

describe('security headers', () => {
  it.each([
    ['a success', '/health'],
    ['an error', '/no_such_route'],
  ])('are sent with %s', async (_case, path) => {
    const response = await server.request('GET', path);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("object-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });
});

describe('CORS', () => {
  it('a preflight from the allowed origin is answered, with the headers the client sends', async () => {
    const response = await server.request('OPTIONS', '/add_audit_event', {
      headers: { origin: 'http://grow.test', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://grow.test');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const header of ['authorization', 'content-type', 'idempotency-key']) expect(allowed).toContain(header);
  });

  it('a GET from the allowed origin may read the answer', async () => {
    const response = await server.request('GET', '/health', { headers: { origin: 'http://grow.test' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://grow.test');
  });

  it('another origin is not allowed, in a preflight or a GET', async () => {
    const preflight = await server.request('OPTIONS', '/add_audit_event', { headers: { origin: 'http://evil.test', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const get = await server.request('GET', '/health', { headers: { origin: 'http://evil.test' } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('request bodies', () => {
  it('invalid JSON answers 400 JSON', async () => {
    const response = await raw(server, 'POST', '/api/add_audit_event', '{"EventTitle": ', {
      authorization: `Bearer ${farm.regular.token}`,
      'content-type': 'application/json',
    });
    expect(response.status).toBe(400);
    expect(response.contentType).toMatch(/^application\/json/);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.invalidJson });
  });

  it('an empty body declared as JSON answers 400 JSON', async () => {
    const response = await raw(server, 'POST', '/api/login', '', { 'content-type': 'application/json' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.invalidJson });
  });

  it('an unsupported content type answers 415 JSON', async () => {
    const response = await raw(server, 'POST', '/api/login', `<login><email>${farm.admin.email}</email></login>`, { 'content-type': 'text/xml' });
    expect(response.status).toBe(415);
    expect(response.contentType).toMatch(/^application\/json/);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.unsupportedMediaType });
  });

  describe('over the size limit', () => {
    let small: TestServer;
    let tenant: Tenant;

    beforeAll(async () => {
      small = await startServer({ bodyLimitBytes: 1024 });
      tenant = await createTenant(small);
    });
    afterAll(() => small.close());

    it('a JSON body answers 413 JSON and records nothing', async () => {
      const response = await small.request('POST', '/add_audit_event', { token: tenant.regular.token, json: { EventTitle: 'x'.repeat(2000) } });
      expect(response.status).toBe(413);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.body).toEqual({ status: 'error', message: httpMessages.payloadTooLarge });
      const events = await small.request<{ events: Array<{ EventTitle: string }> }>('GET', '/get_audit_events', { token: tenant.admin.token, query: { company_id: tenant.companyId } });
      expect(events.body.events.some((event) => event.EventTitle.startsWith('xxx'))).toBe(false);
    });

    it('a body under the limit still goes through', async () => {
      const response = await small.request('POST', '/add_audit_event', { token: tenant.regular.token, json: { EventTitle: 'x'.repeat(200) } });
      expect(response.status).toBe(200);
    });
  });
});

describe('rate limits', () => {
  let limited: TestServer;

  beforeAll(async () => {
    limited = await startServer({ loginRateLimitPerMinute: 3, resetRateLimitPerMinute: 2 });
  });
  afterAll(() => limited.close());

  it('the 4th sign-in attempt for one email within a minute answers 429, even with the right password', async () => {
    const { companyId } = await createTenant(limited);
    const email = 'limited-grower@example.test';
    const password = 'pw-limited-grower';
    await addUser(limited.database.db, companyId, { email, password, role: 'Regular', name: ['Lim', 'Ited'] });
    const login = (form: Record<string, string>) => limited.request('POST', '/login', { form });

    expect((await login({ email, password })).status).toBe(200);
    const wrong = await login({ email, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ status: 'error', message: m.invalidCredentials });
    expect((await login({ email, password })).status).toBe(200);
    const fourth = await login({ email, password });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toEqual({ status: 'error', message: httpMessages.rateLimited });

    // Another account from the same address is counted apart.
    const otherEmail = 'other-grower@example.test';
    await addUser(limited.database.db, companyId, { email: otherEmail, password, role: 'Regular', name: ['Oth', 'Er'] });
    expect((await login({ email: otherEmail, password })).status).toBe(200);
  });

  it('writing the email differently does not get around the limit', async () => {
    const login = (email: string) => limited.request('POST', '/login', { form: { email, password: 'not-the-password' } });
    const answers = [];
    for (const email of ['case-grower@example.test', 'CASE-GROWER@example.test', '  Case-Grower@Example.test ', 'case-grower@EXAMPLE.TEST']) answers.push((await login(email)).status);
    expect(answers).toEqual([401, 401, 401, 429]);
  });

  it('tablets behind one address each have their own refresh budget', async () => {
    const { admin, regular, companyId } = await createTenant(limited);
    const users = [admin, regular, await createUser(limited, companyId, 'Regular'), await createUser(limited, companyId, 'Regular')];
    const answers = [];
    for (const user of users) answers.push((await limited.request('POST', '/refresh_token', { token: user.refreshToken })).status);
    expect(answers).toEqual([200, 200, 200, 200]);
  });

  it('the 3rd password-reset request for one email within a minute answers 429', async () => {
    const request = (email: string) => limited.request('POST', '/request_password_reset', { form: { email } });
    const email = 'nobody-here@example.test';
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      const response = await request(email);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ status: 'success', message: m.resetRequested });
    }
    const third = await request(email);
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ status: 'error', message: httpMessages.rateLimited });
    expect((await request('someone-else@example.test')).status).toBe(200);
  });
});

/**
 * Input no handler could use answers 4xx in the envelope, never 500 or a hang (issue 12). The fuzz test
 * (fuzz.test.ts) sends every route such input; these name each class once.
 */
describe('hostile input', () => {
  const envelope = (message: unknown = expect.any(String)) => ({ status: 'error', message });

  it('an id past what the id columns hold answers 400 naming it, in the query and in a body', async () => {
    const query = await server.request('GET', '/get_room_scroll', { token: farm.admin.token, query: { company_id: farm.companyId, room_id: 2_147_483_648 } });
    expect(query.status).toBe(400);
    expect(query.body).toEqual(envelope(expect.stringContaining('room_id')));
    const body = await server.request('POST', '/create_room', { token: farm.admin.token, json: { company_id: 2 ** 53, name: 'A', description: 'B' } });
    expect(body.status).toBe(400);
    expect(body.body).toEqual(envelope(expect.stringContaining('company_id')));
  });

  it('text with a NUL character or a lone surrogate answers 400 naming the field, and stores nothing', async () => {
    const response = await server.request('POST', '/create_room', { token: farm.admin.token, query: { company_id: farm.companyId }, json: { name: 'Veg\u00001', description: 'B' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope(httpMessages.unstorableText('name')));
    const nested = await server.request('POST', '/create_room', { token: farm.admin.token, query: { company_id: farm.companyId }, json: { name: 'Veg', description: 'B', extra: [{ note: 'x\u0000' }] } });
    expect(nested.body).toEqual(envelope(httpMessages.unstorableText('extra[0].note')));
    const surrogate = await server.request('POST', '/create_room', { token: farm.admin.token, query: { company_id: farm.companyId }, json: { name: 'Veg', description: 'half \ud83c of a pair' } });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body).toEqual(envelope(httpMessages.unstorableText('description')));
    // A whole pair is text like any other.
    const paired = await server.request('POST', '/create_room', { token: farm.admin.token, query: { company_id: farm.companyId }, json: { name: 'Veg 🌱', description: 'B' } });
    expect(paired.status).toBe(200);
    const rooms = await server.database.db.selectFrom('rooms').select('name').where('company_id', '=', farm.companyId).execute();
    expect(rooms.map((room) => room.name)).not.toContain('Veg');
    expect(rooms.map((room) => room.name)).toContain('Veg 🌱');
  });

  it('multipart without a boundary, or cut before its end, answers 400', async () => {
    const headers = { authorization: `Bearer ${farm.admin.token}` };
    const noBoundary = await raw(server, 'POST', `/api/create_room?company_id=${farm.companyId}`, 'name=A', { ...headers, 'content-type': 'multipart/form-data' });
    expect(noBoundary.status).toBe(400);
    expect(noBoundary.body).toEqual(envelope(httpMessages.invalidMultipart));
    const cut = await raw(server, 'POST', `/api/create_room?company_id=${farm.companyId}`, '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nA\r\n--b\r\nContent-Disposition: form-data; name="description"\r\n\r\nB', {
      ...headers,
      'content-type': 'multipart/form-data; boundary=b',
    });
    expect(cut.status).toBe(400);
    expect(cut.body).toEqual(envelope(httpMessages.invalidMultipart));
  });

  it('a request head over the limit answers 431, and a path parameter over 100 characters 414, in the envelope', async () => {
    const longQuery = await fetch(`${server.url}/api/get_room_scroll?company_id=${farm.companyId}&room_id=${'1'.repeat(20_000)}`, { headers: { authorization: `Bearer ${farm.admin.token}` } });
    expect(longQuery.status).toBe(431);
    expect(await longQuery.json()).toEqual(envelope(httpMessages.headersTooLarge));
    const longToken = await fetch(`${server.url}/api/health`, { headers: { authorization: `Bearer ${'a'.repeat(20_000)}` } });
    expect(longToken.status).toBe(431);
    expect(await longToken.json()).toEqual(envelope(httpMessages.headersTooLarge));
    const longParameter = await fetch(`${server.url}/api/delete_audit_event/${'1'.repeat(101)}`, { method: 'DELETE', headers: { authorization: `Bearer ${farm.admin.token}` } });
    expect(longParameter.status).toBe(414);
    expect(await longParameter.json()).toEqual(envelope(httpMessages.parameterTooLong));
  });
});

describe('compression', () => {
  it('an answer over 1 kB travels brotli- or gzip-compressed as the client accepts, and plain otherwise', async () => {
    for (const encoding of ['br', 'gzip']) {
      const response = await fetch(`${server.url}/api/openapi.json`, { headers: { 'accept-encoding': encoding } });
      expect(response.headers.get('content-encoding')).toBe(encoding);
      expect(((await response.json()) as { openapi: string }).openapi).toBe('3.1.0');
    }
    const plain = await fetch(`${server.url}/api/openapi.json`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    const small = await fetch(`${server.url}/api/health`, { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
  });

  it('a kept answer (the floor plan) travels in the form the client prefers, the same answer in each, plain when it refuses them all', async () => {
    const roomId = await createRoom(server, farm.companyId);
    await createGrid(server, farm.companyId, roomId, 12, 10);
    const url = `${server.url}/api/load_room_grids_boxes?company_id=${farm.companyId}`;
    const read = async (acceptEncoding: string) => {
      const response = await fetch(url, { headers: { authorization: `Bearer ${farm.admin.token}`, 'accept-encoding': acceptEncoding } });
      expect(response.status).toBe(200);
      return { encoding: response.headers.get('content-encoding'), vary: response.headers.get('vary'), body: await response.json() };
    };
    const plain = await read('identity');
    expect(plain.encoding).toBeNull();
    expect((plain.body as { rooms: Array<{ grids: Array<{ boxes: unknown[] }> }> }).rooms.flatMap((room) => room.grids).flatMap((grid) => grid.boxes)).toHaveLength(120);
    for (const [accepted, expected] of [
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'br'],
      ['br;q=0, gzip;q=0', null],
    ] as const) {
      const answer = await read(accepted);
      expect([accepted, answer.encoding]).toEqual([accepted, expected]);
      expect(answer.vary).toMatch(/accept-encoding/i);
      expect(answer.body).toEqual(plain.body);
    }
  });
});
