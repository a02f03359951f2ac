import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditMessages } from '../../common/messages/audit';
import { httpMessages } from '../../common/messages/http';
import { createTenant, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
});
afterAll(() => server.close());

const addEvent = (token: string, key: string, body: Record<string, unknown>) =>
  server.request('POST', '/add_audit_event', { token, json: body, headers: { 'Idempotency-Key': key } });

/** How many live events of the farm carry this title, as GET /api/get_audit_events lists them. */
async function eventsTitled(title: string) {
  const response = await server.request<{ events: Array<{ EventTitle: string; UserID: number }> }>('GET', '/get_audit_events', {
    token: farm.admin.token,
    query: { company_id: farm.companyId, limit: 500 },
  });
  expect(response.status).toBe(200);
  return response.body.events.filter((event) => event.EventTitle === title);
}

describe('a repeated request with the same Idempotency-Key', () => {
  it('answers the stored response, marked as replayed, and has no second effect', async () => {
    const key = randomUUID();
    const body = { EventTitle: `Scouted room 1 ${key}` };
    const first = await addEvent(farm.regular.token, key, body);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ status: 'success', message: auditMessages.added });
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const second = await addEvent(farm.regular.token, key, body);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);

    expect(await eventsTitled(body.EventTitle)).toHaveLength(1);
  });

  it('answers 422 when the key was already used on a different path, and changes nothing there', async () => {
    const key = randomUUID();
    expect((await addEvent(farm.regular.token, key, { EventTitle: `First use ${key}` })).status).toBe(200);
    const reused = await server.request('POST', '/threshold', {
      token: farm.regular.token,
      json: { user_id: farm.regular.id, threshold: 42 },
      headers: { 'Idempotency-Key': key },
    });
    expect(reused.status).toBe(422);
    expect(reused.body).toEqual({ status: 'error', message: httpMessages.idempotencyMismatch });
    const threshold = await server.request('GET', '/threshold', { token: farm.regular.token, query: { user_id: farm.regular.id } });
    expect(threshold.body).toMatchObject({ threshold: null });
  });

  it('keeps keys per user: the same key from another user is a new request', async () => {
    const key = randomUUID();
    const title = `Same key, two users ${key}`;
    const mine = await addEvent(farm.regular.token, key, { EventTitle: title });
    const theirs = await addEvent(farm.admin.token, key, { EventTitle: title });
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    const events = await eventsTitled(title);
    expect(events.map((event) => event.UserID).sort()).toEqual([farm.regular.id, farm.admin.id].sort());
  });
});

describe('a failed request stores nothing', () => {
  it('after a validation error (400), a corrected retry with the same key runs', async () => {
    const key = randomUUID();
    const invalid = await addEvent(farm.regular.token, key, { EventTitle: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ status: 'error', message: auditMessages.titleRequired });

    // The fingerprint is the method and the URL, so the same URL with a fixed body is the same request.
    const title = `Corrected after 400 ${key}`;
    const retry = await addEvent(farm.regular.token, key, { EventTitle: title });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await eventsTitled(title)).toHaveLength(1);
  });

  it('after a refusal inside the handler (403), the claim of the key is rolled back and a retry runs', async () => {
    const key = randomUUID();
    const title = `Corrected after 403 ${key}`;
    // An event may only be recorded as the caller's own; the handler refuses after the key was claimed.
    const refused = await addEvent(farm.regular.token, key, { EventTitle: title, UserID: farm.admin.id });
    expect(refused.status).toBe(403);
    expect(await eventsTitled(title)).toHaveLength(0);

    const retry = await addEvent(farm.regular.token, key, { EventTitle: title });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await eventsTitled(title)).toHaveLength(1);
  });
});

describe('concurrent duplicates', () => {
  it('two identical requests at once with one key create exactly one event', async () => {
    const key = randomUUID();
    const body = { EventTitle: `Sent twice at once ${key}` };
    const answers = await Promise.all([addEvent(farm.regular.token, key, body), addEvent(farm.regular.token, key, body)]);
    const succeeded = answers.filter((answer) => answer.status === 200);
    const busy = answers.filter((answer) => answer.status === 409);
    expect(succeeded.length + busy.length).toBe(2);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    for (const answer of busy) expect(answer.body).toEqual({ status: 'error', message: httpMessages.idempotencyInFlight });
    if (succeeded.length === 2) {
      expect(succeeded[1]?.body).toEqual(succeeded[0]?.body);
      expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    }
    expect(await eventsTitled(body.EventTitle)).toHaveLength(1);

    // Afterwards the key replays the one stored answer.
    const later = await addEvent(farm.regular.token, key, body);
    expect(later.status).toBe(200);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.body).toEqual(succeeded[0]?.body);
    expect(await eventsTitled(body.EventTitle)).toHaveLength(1);
  });
});

describe('a malformed key', () => {
  it.each(['x', 'with spaces in it', 'k'.repeat(201)])('answers 400 for "%s" and records nothing', async (key) => {
    const title = `Malformed key ${randomUUID()}`;
    const response = await addEvent(farm.regular.token, key, { EventTitle: title });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 'error', message: expect.stringContaining('Idempotency-Key') });
    expect(await eventsTitled(title)).toHaveLength(0);
  });
});
