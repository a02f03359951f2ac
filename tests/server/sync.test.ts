import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { syncMessages as m } from '../../common/messages/sync';
import { newClientId, subGridboxClientId } from '../../common/client-ids';
import { clientIdOf, clientIdsOf, createBatch, createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { databaseKind, startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
});
afterAll(() => server.close());

interface SyncDocument {
  id: string;
  _deleted: boolean;
  [field: string]: unknown;
}
interface Pulled {
  status: string;
  documents: SyncDocument[];
  checkpoint: string;
  has_more: boolean;
  held_back: boolean;
}
interface CompanyDocument extends SyncDocument {
  company_id: number;
  settings: Record<string, unknown>;
  users: Array<Record<string, unknown>>;
}

const pull = (token: string, query: Record<string, string | number>) => server.request<Pulled>('GET', '/sync/pull', { token, query });
const post = (path: string, token: string, query: Record<string, string | number> = {}, json?: unknown) =>
  server.request('POST', path, { token, query, ...(json === undefined ? {} : { json }) });

const checkpointKey = (checkpoint: string) => {
  const [xid = '', seq = ''] = checkpoint.split(':');
  return [BigInt(xid), BigInt(seq)] as const;
};
const isAfter = (later: string, earlier: string) => {
  const [laterXid, laterSeq] = checkpointKey(later);
  const [earlierXid, earlierSeq] = checkpointKey(earlier);
  return laterXid > earlierXid || (laterXid === earlierXid && laterSeq > earlierSeq);
};

/**
 * Pulls page by page from `checkpoint`, the way the client does, until `done` holds for everything
 * received (or 5 s have passed). On PostgreSQL the pull holds rows back while any older transaction of
 * the cluster is in flight (another test file's, too), so a change may need a second round; every
 * document received on the way is kept, in order, to check that none comes twice.
 */
async function collect(token: string, collection: string, checkpoint = '', options: { limit?: number; naming?: 'client'; done?: (documents: SyncDocument[]) => boolean } = {}) {
  const documents: SyncDocument[] = [];
  const checkpoints: string[] = [];
  const done = options.done ?? (() => true);
  const deadline = Date.now() + 5000;
  for (;;) {
    const response = await pull(token, { collection, checkpoint, ...(options.limit ? { limit: options.limit } : {}), ...(options.naming ? { naming: options.naming } : {}) });
    expect(response.status).toBe(200);
    expect(response.body.checkpoint).toMatch(/^\d+:\d+$/);
    documents.push(...response.body.documents);
    if (response.body.documents.length > 0) checkpoints.push(response.body.checkpoint);
    checkpoint = response.body.checkpoint;
    if (response.body.has_more) continue;
    if (done(documents) || Date.now() > deadline) return { documents, checkpoint, checkpoints };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ids = (documents: SyncDocument[]) => documents.map((document) => document.id);
const hasAll = (wanted: string[]) => (documents: SyncDocument[]) => wanted.every((id) => ids(documents).includes(id));

async function addEvent(token: string, title: string) {
  const response = await post('/add_audit_event', token, {}, { EventTitle: title });
  expect(response.status).toBe(200);
  return String((response.body as { event: { EventID: number } }).event.EventID);
}

async function companyEventIds(companyId: number) {
  const rows = await server.database.db.selectFrom('audit_events').select('id').where('company_id', '=', companyId).execute();
  return rows.map((row) => String(row.id));
}

describe('pulling the company collection', () => {
  it('hands out one document with the settings and the users inside, and no secrets', async () => {
    const { documents } = await collect(farm.regular.token, 'company', '', { done: hasAll([String(farm.companyId)]) });
    expect(ids(documents)).toEqual([String(farm.companyId)]);
    const company = documents[0] as CompanyDocument;
    expect(company).toMatchObject({ _deleted: false, company_id: farm.companyId, settings: { grid_order: 'row', language: 'en' } });
    expect(company.users.map((user) => user.user_id).sort()).toEqual([farm.admin.id, farm.regular.id].sort());
    expect(company.users).toContainEqual(expect.objectContaining({ user_id: farm.regular.id, email: farm.regular.email, role: 'Regular' }));
    for (const user of company.users) expect(Object.keys(user)).not.toContain('password_hash');
  });

  it('pulls the document again after a settings change, from the earlier checkpoint', async () => {
    const first = await collect(farm.admin.token, 'company', '', { done: hasAll([String(farm.companyId)]) });
    expect((await post('/set_grid_opacity', farm.admin.token, { company_id: farm.companyId, grid_opacity: 0.3 })).status).toBe(200);
    const second = await collect(farm.regular.token, 'company', first.checkpoint, { done: hasAll([String(farm.companyId)]) });
    expect(ids(second.documents)).toEqual([String(farm.companyId)]);
    expect((second.documents[0] as CompanyDocument).settings.grid_opacity).toBe(0.3);
    expect(isAfter(second.checkpoint, first.checkpoint)).toBe(true);

    // Nothing changed since: no documents, and the checkpoint stays where it was.
    const again = await pull(farm.regular.token, { collection: 'company', checkpoint: second.checkpoint });
    expect(again.body).toMatchObject({ status: 'success', documents: [], checkpoint: second.checkpoint, has_more: false });
  });

  it('shows a user’s own change (threshold) in the company document pulled after the previous checkpoint', async () => {
    const before = await collect(farm.regular.token, 'company', '', { done: hasAll([String(farm.companyId)]) });
    const set = await post('/threshold', farm.regular.token, {}, { user_id: farm.regular.id, threshold: 5 });
    expect(set.status).toBe(200);
    const after = await collect(farm.regular.token, 'company', before.checkpoint, { done: hasAll([String(farm.companyId)]) });
    expect(ids(after.documents)).toEqual([String(farm.companyId)]);
    const users = (after.documents[0] as CompanyDocument).users;
    expect(users).toContainEqual(expect.objectContaining({ user_id: farm.regular.id, threshold: 5 }));
  });

  it('never hands out another company’s document', async () => {
    const { documents } = await collect(other.admin.token, 'company', '', { done: hasAll([String(other.companyId)]) });
    expect(ids(documents)).toEqual([String(other.companyId)]);
  });
});

describe('pulling audit events', () => {
  it('pages with limit and the returned checkpoint, visiting every event exactly once, in checkpoint order', async () => {
    const tenant = await createTenant(server);
    for (let index = 0; index < 7; index += 1) await addEvent(tenant.regular.token, `Paging event ${index}`);
    const expected = await companyEventIds(tenant.companyId);
    expect(expected.length).toBeGreaterThanOrEqual(8);

    const { documents, checkpoints } = await collect(tenant.regular.token, 'audit_events', '', { limit: 3, done: hasAll(expected) });
    expect([...ids(documents)].sort()).toEqual([...expected].sort());
    expect(new Set(ids(documents)).size).toBe(documents.length);
    expect(checkpoints.length).toBeGreaterThanOrEqual(3);
    for (let index = 1; index < checkpoints.length; index += 1) {
      expect(isAfter(checkpoints[index] as string, checkpoints[index - 1] as string)).toBe(true);
    }
    for (const document of documents) expect(document).toMatchObject({ _deleted: false, CompanyID: tenant.companyId });
  });

  it('pulls an edited event again from the checkpoint before the edit', async () => {
    const id = await addEvent(farm.regular.token, 'Before the edit');
    const before = await collect(farm.regular.token, 'audit_events', '', { done: hasAll([id]) });
    const edit = await server.request('PUT', `/update_audit_event/${id}`, { token: farm.admin.token, json: { EventTitle: 'After the edit' } });
    expect(edit.status).toBe(200);
    const after = await collect(farm.regular.token, 'audit_events', before.checkpoint, { done: hasAll([id]) });
    expect(after.documents.filter((document) => document.id === id)).toEqual([expect.objectContaining({ id, EventTitle: 'After the edit', _deleted: false })]);
  });

  it('hands out a deleted event as a tombstone with _deleted: true', async () => {
    const id = await addEvent(farm.regular.token, 'To be deleted');
    const before = await collect(farm.regular.token, 'audit_events', '', { done: hasAll([id]) });
    const deleted = await server.request('DELETE', `/delete_audit_event/${id}`, { token: farm.admin.token });
    expect(deleted.status).toBe(200);
    const after = await collect(farm.regular.token, 'audit_events', before.checkpoint, {
      done: (documents) => documents.some((document) => document.id === id) && documents.some((document) => document.EventTitle === `Deleted audit event ${id}`),
    });
    expect(after.documents.filter((document) => document.id === id)).toEqual([expect.objectContaining({ id, _deleted: true, EventTitle: 'To be deleted' })]);
    // The deletion leaves its own trace, which is synced too.
    expect(after.documents).toContainEqual(expect.objectContaining({ EventTitle: `Deleted audit event ${id}`, _deleted: false }));
  });
});

describe('pull errors', () => {
  it('answers 400 for an unknown collection, naming it', async () => {
    const response = await pull(farm.regular.token, { collection: 'plants' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.collectionUnknown('plants') });
  });

  it.each(['abc', '12', '1:2:3', '-1:5'])('answers 400 for the checkpoint "%s"', async (checkpoint) => {
    const response = await pull(farm.regular.token, { collection: 'company', checkpoint });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.checkpointInvalid });
  });

  it('answers 400 for a limit out of range', async () => {
    const response = await pull(farm.regular.token, { collection: 'company', limit: 0 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ status: 'error', message: m.limitInvalid });
  });

  it('answers 403 for another company’s company_id', async () => {
    const response = await pull(farm.admin.token, { collection: 'audit_events', company_id: other.companyId });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
  });

  it('answers 401 without a token, for the pull and the stream', async () => {
    const response = await server.request('GET', '/sync/pull', { query: { collection: 'company' } });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ status: 'error', message: httpMessages.unauthenticated });
    const stream = await server.request('GET', '/sync/stream');
    expect(stream.status).toBe(401);
  });
});

// Two transactions in flight at once need two connections: PGlite has exactly one, so a second
// transaction cannot even begin while the first is open. These cases only exist on PostgreSQL.
describe.runIf(databaseKind === 'postgres')('a transaction that commits late (PostgreSQL)', () => {
  async function openClient() {
    const client = new pg.Client({ connectionString: server.config.databaseUrl });
    await client.connect();
    return client;
  }
  const insertEvent = async (client: pg.Client, companyId: number, title: string) => {
    const result = await client.query<{ id: number; change_seq: string; change_xid: string }>(
      'INSERT INTO audit_events (company_id, event_title) VALUES ($1, $2) RETURNING id, change_seq, change_xid',
      [companyId, title],
    );
    const row = result.rows[0];
    return { id: String(row?.id), seq: BigInt(row?.change_seq ?? 0), position: `${row?.change_xid}:${row?.change_seq}` };
  };
  const seqOf = async (id: string) => {
    const row = await server.database.db.selectFrom('audit_events').select('change_seq').where('id', '=', Number(id)).executeTakeFirstOrThrow();
    return BigInt(row.change_seq);
  };

  it('a lower change_seq committed after a higher one is never skipped', async () => {
    const tenant = await createTenant(server);
    const start = await collect(tenant.regular.token, 'audit_events', '', { done: () => true });
    const client = await openClient();
    try {
      await client.query('BEGIN');
      const late = await insertEvent(client, tenant.companyId, 'Committed late');
      const early = await addEvent(tenant.regular.token, 'Committed early');
      expect(await seqOf(early)).toBeGreaterThan(late.seq);

      // Whatever is handed out now, the checkpoint must stay behind the uncommitted row.
      const during = await collect(tenant.regular.token, 'audit_events', start.checkpoint);
      expect(isAfter(late.position, during.checkpoint)).toBe(true);
      // The committed event waits behind the open (older) transaction, and the pull says so.
      expect(ids(during.documents)).not.toContain(early);
      expect((await pull(tenant.regular.token, { collection: 'audit_events', checkpoint: during.checkpoint })).body.held_back).toBe(true);

      await client.query('COMMIT');
      const after = await collect(tenant.regular.token, 'audit_events', during.checkpoint, { done: (documents) => hasAll([late.id, early])([...during.documents, ...documents]) });
      const received = ids([...during.documents, ...after.documents]);
      expect(received.filter((id) => id === late.id)).toHaveLength(1);
      expect(received.filter((id) => id === early)).toHaveLength(1);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    }
  });

  it('a transaction that began first and takes the higher change_seq is never skipped either', async () => {
    const tenant = await createTenant(server);
    const start = await collect(tenant.regular.token, 'audit_events', '', { done: () => true });
    const client = await openClient();
    try {
      await client.query('BEGIN');
      // The transaction gets its id now, as one that has already written something would.
      await client.query('SELECT pg_current_xact_id()');
      const early = await addEvent(tenant.regular.token, 'Began later, committed first');
      const late = await insertEvent(client, tenant.companyId, 'Began first, committed last');
      expect(late.seq).toBeGreaterThan(await seqOf(early));

      // Whatever is handed out now, the checkpoint must stay behind the uncommitted row.
      const during = await collect(tenant.regular.token, 'audit_events', start.checkpoint);
      expect(isAfter(late.position, during.checkpoint)).toBe(true);

      await client.query('COMMIT');
      const after = await collect(tenant.regular.token, 'audit_events', during.checkpoint, { done: (documents) => hasAll([late.id, early])([...during.documents, ...documents]) });
      const received = ids([...during.documents, ...after.documents]);
      expect(received.filter((id) => id === late.id)).toHaveLength(1);
      expect(received.filter((id) => id === early)).toHaveLength(1);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end();
    }
  });

  it('a transaction that rolls back holds nothing back afterwards', async () => {
    const tenant = await createTenant(server);
    const start = await collect(tenant.regular.token, 'audit_events', '', { done: () => true });
    const client = await openClient();
    try {
      await client.query('BEGIN');
      const rolledBack = await insertEvent(client, tenant.companyId, 'Never committed');
      const committed = await addEvent(tenant.regular.token, 'Committed');
      await client.query('ROLLBACK');
      const after = await collect(tenant.regular.token, 'audit_events', start.checkpoint, { done: hasAll([committed]) });
      // Earlier events of the tenant (its creation) may arrive here too if another test file's
      // transaction held them back at the start: what matters is the committed one arrives once and
      // the rolled-back one never does.
      expect(ids(after.documents).filter((id) => id === committed)).toHaveLength(1);
      expect(ids(after.documents)).not.toContain(rolledBack.id);
    } finally {
      await client.end();
    }
  });
});

/** Reads server-sent events from a fetch body, each wait bounded. */
function eventReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    async next(timeoutMs = 5000): Promise<{ event: string; data: string }> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map<string, string>();
          for (const line of block.split('\n')) {
            const match = /^([a-z]+): ?(.*)$/.exec(line);
            if (match) fields.set(match[1] as string, match[2] as string);
          }
          // Comments (heartbeats) and bare retry hints are not events.
          if (!fields.has('data')) continue;
          return { event: fields.get('event') ?? 'message', data: fields.get('data') as string };
        }
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new Error(`No server-sent event within ${timeoutMs} ms (received so far: ${JSON.stringify(buffer)})`);
        let timer: NodeJS.Timeout | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`No server-sent event within ${timeoutMs} ms`)), remaining);
          }),
        ]).finally(() => clearTimeout(timer));
        if (chunk.done) throw new Error('The event stream ended');
        buffer += decoder.decode(chunk.value, { stream: true }).replace(/\r\n/g, '\n');
      }
    },
  };
}

async function openStream(token: string) {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/sync/stream`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events = eventReader(response.body as ReadableStream<Uint8Array>);
  return { events, close: () => controller.abort() };
}

describe('the change stream', () => {
  it('tells a company’s clients that their company changed, and only theirs', async () => {
    const mine = await openStream(farm.regular.token);
    const theirs = await openStream(other.regular.token);
    try {
      expect((await mine.events.next()).event).toBe('ready');
      expect((await theirs.events.next()).event).toBe('ready');

      // A change in the other company reaches the other company's stream…
      await addEvent(other.regular.token, 'Elsewhere');
      const elsewhere = await theirs.events.next();
      expect(elsewhere.event).toBe('change');
      expect((JSON.parse(elsewhere.data) as { collections: string[] }).collections).toContain('audit_events');

      // …and not this one: the first change this stream sees is its own company's.
      const set = await post('/set_company_language', farm.admin.token, { company_id: farm.companyId, language: 'fr' });
      expect(set.status).toBe(200);
      const change = await mine.events.next();
      expect(change.event).toBe('change');
      expect((JSON.parse(change.data) as { collections: string[] }).collections).toContain('company');

      // The change it announced is there to pull.
      const pulled = await collect(farm.regular.token, 'company', '', { done: (documents) => (documents[0] as CompanyDocument | undefined)?.settings.language === 'fr' });
      expect((pulled.documents[0] as CompanyDocument).settings.language).toBe('fr');
    } finally {
      mine.close();
      theirs.close();
    }
    // Closed streams stop listening (bounded wait: the server sees the disconnect asynchronously).
    const deadline = Date.now() + 5000;
    while (server.app.deps.changes.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.app.deps.changes.size).toBe(0);
  });
});

describe('GET /api/sync/documents', () => {
  it('answers the current documents named, whatever the checkpoint, leaving out missing ones; another company’s answer 403', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, roomId, 2, 1);
    const theirs = await createGrid(server, other.companyId, await createRoom(server, other.companyId), 1, 1);
    const [kept, removed] = grid.boxIds as [number, number];
    await server.database.db.updateTable('grid_boxes').set({ deleted_at: new Date() }).where('id', '=', removed).execute();

    const response = await server.request<{ documents: SyncDocument[] }>('GET', '/sync/documents', {
      token: farm.regular.token,
      query: { collection: 'grid_boxes', ids: `${kept},${removed},999999` },
    });
    expect(response.status).toBe(200);
    const byId = new Map(response.body.documents.map((document) => [document.id, document]));
    expect([...byId.keys()].sort()).toEqual([String(kept), String(removed)].sort());
    expect(byId.get(String(kept))).toMatchObject({ _deleted: false, GridID: grid.id, X: 1, Y: 1, sub_gridboxes: [] });
    expect(byId.get(String(removed))?._deleted).toBe(true);
    const foreign = await server.request('GET', '/sync/documents', { token: farm.regular.token, query: { collection: 'grid_boxes', ids: `${kept},${theirs.boxIds[0]}` } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ status: 'error', message: httpMessages.otherCompany });
  });

  it('reads documents of several kinds by `<kind>:<id>`, and refuses bad ids', async () => {
    const created = await server.request<{ tray_id: number }>('POST', '/create_tray', {
      token: farm.regular.token,
      json: { tray_name: 'Clones A', company_id: farm.companyId, user_id: farm.regular.id, number_of_plants: 12 },
    });
    expect(created.status).toBe(200);
    const response = await server.request<{ documents: SyncDocument[] }>('GET', '/sync/documents', {
      token: farm.regular.token,
      query: { collection: 'operations', ids: `tray:${created.body.tray_id}` },
    });
    expect(response.body.documents).toMatchObject([{ id: `tray:${created.body.tray_id}`, kind: 'tray', tray_name: 'Clones A' }]);
    const bad = await server.request('GET', '/sync/documents', { token: farm.regular.token, query: { collection: 'operations', ids: 'tray:x' } });
    expect(bad.body).toEqual({ status: 'error', message: m.idsInvalid });
    const unknown = await server.request('GET', '/sync/documents', { token: farm.regular.token, query: { collection: 'nope', ids: '1' } });
    expect(unknown.body).toEqual({ status: 'error', message: m.collectionUnknown('nope') });
  });
});

describe('naming=client: documents name records as tablets do, by client id', () => {
  const pulled = async (collection: string, id: string) =>
    (await collect(farm.admin.token, collection, '', { naming: 'client', done: hasAll([id]) })).documents.find((document) => document.id === id) as SyncDocument & Record<string, unknown>;

  it('a grid names its room, a box its grid, batches and sub-gridboxes; a batch its links; user ids stay integers; the integer id is beside', async () => {
    const roomId = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, roomId, 2, 1);
    const batchId = await createBatch(server, farm.companyId);
    const [room, gridClientId, batch] = [await clientIdOf(server, 'rooms', roomId), await clientIdOf(server, 'grids', grid.id), await clientIdOf(server, 'batches', batchId)];
    const box = await clientIdOf(server, 'grid_boxes', grid.boxIds[0] as number);
    expect((await post('/link_gridbox_batch', farm.regular.token, {}, { batch_id: batch, grid_box_ids: [box] })).status).toBe(200);
    expect((await post('/link_room_batch', farm.regular.token, { room_id: room, batch_id: batch })).status).toBe(200);
    expect((await post('/update_culling_status', farm.regular.token, {}, { GridBoxID: box, user_id: farm.regular.id, culled: 1 })).status).toBe(200);
    const division = newClientId();
    expect((await post('/create_sub_gridboxes', farm.regular.token, { parent_gridbox_id: box, user_id: farm.regular.id, client_id: division }, { custom_positions: [{ subx: 1, suby: 1 }] })).status).toBe(200);

    expect(await pulled('grids', gridClientId)).toMatchObject({ id: gridClientId, serverId: grid.id, RoomID: room });
    const boxDocument = await pulled('grid_boxes', box);
    expect(boxDocument).toMatchObject({ id: box, serverId: grid.boxIds[0], GridID: gridClientId, BatchIDs: [batch], culled: true, CulledBy: farm.regular.id, CompanyID: farm.companyId });
    expect(boxDocument.sub_gridboxes).toMatchObject([{ Sub_gridboxID: subGridboxClientId(division, 1, 1), ParentGridboxID: box }]);
    expect(await pulled('batches', batch)).toMatchObject({ id: batch, BatchID: batch, RoomIDs: [room], GridBoxIDs: [box] });
    // Without naming=client (tablets of the previous version), the server's ids, as before.
    const byServer = await collect(farm.admin.token, 'grids', '', { done: hasAll([String(grid.id)]) });
    const serverNamed = byServer.documents.find((document) => document.id === String(grid.id));
    expect(serverNamed).toMatchObject({ RoomID: roomId });
    // Only the names differ: every other field, times included, is as the server's naming has it.
    expect(await pulled('grids', gridClientId)).toEqual({ ...serverNamed, id: gridClientId, serverId: grid.id, RoomID: room });
    expect(boxDocument.CulledDateTime).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/));
  });

  it("a form template names its fields and its rules' fields; a response its template, box, room and its answers' fields", async () => {
    const [template, shown, hidden] = [newClientId(), newClientId(), newClientId()];
    const saved = await post('/save_form_template', farm.admin.token, {}, {
      templateName: `Named ${template.slice(0, 6)}`,
      companyID: farm.companyId,
      client_id: template,
      fields: [
        { fieldName: 'Seen', fieldType: 'Text', fieldOptions: [], client_id: shown },
        { fieldName: 'Count', fieldType: 'Number', fieldOptions: [], client_id: hidden },
      ],
    });
    expect(saved.status).toBe(200);
    expect((await post('/add_hide_field_until_link', farm.admin.token, {}, { form_field_hidden_FieldID: hidden, form_field_linked_FieldID: shown, form_field_linked_input: 'yes' })).status).toBe(200);
    const document = await pulled('form_templates', template);
    expect(document).toMatchObject({ id: template, TemplateID: template, CompanyID: farm.companyId });
    expect(document.fields).toMatchObject([
      { id: shown, FieldID: shown, TemplateID: template },
      { id: hidden, FieldID: hidden, TemplateID: template },
    ]);
    expect(document.hide_rules).toEqual([{ form_field_hidden_UID: template, form_field_hidden_FieldID: hidden, form_field_linked_FieldID: shown, form_field_linked_input: 'yes' }]);

    const roomId = await createRoom(server, farm.companyId);
    const grid = await createGrid(server, farm.companyId, roomId, 1, 1);
    const box = await clientIdOf(server, 'grid_boxes', grid.boxIds[0] as number);
    const response = newClientId();
    expect((await post('/submit_form', farm.regular.token, {}, { submittedBy: farm.regular.id, GridBoxID: box, fieldResponses: [{ fieldID: shown, inputData: 'yes' }], client_id: response })).status).toBe(200);
    const answered = await pulled('form_responses', response);
    expect(answered).toMatchObject({ id: response, ResponseID: response, TemplateID: template, GridBoxID: box, RoomID: await clientIdOf(server, 'rooms', roomId), SubmittedBy: farm.regular.id });
    expect(answered.fieldResponses).toMatchObject([{ ResponseID: response, FieldID: shown, InputData: 'yes' }]);
  });

  it('reads back by client id, of the caller’s company only (403 for another’s); refuses ids that are neither, and an unknown naming', async () => {
    const grid = await createGrid(server, farm.companyId, await createRoom(server, farm.companyId), 2, 1);
    const theirs = await createGrid(server, other.companyId, await createRoom(server, other.companyId), 1, 1);
    const [kept, removed] = grid.boxIds as [number, number];
    await server.database.db.updateTable('grid_boxes').set({ deleted_at: new Date() }).where('id', '=', removed).execute();
    const [keptId, removedId] = (await clientIdsOf(server, 'grid_boxes', [kept, removed])) as [string, string];
    const theirsId = await clientIdOf(server, 'grid_boxes', theirs.boxIds[0] as number);
    const response = await server.request<{ documents: SyncDocument[] }>('GET', '/sync/documents', {
      token: farm.regular.token,
      query: { collection: 'grid_boxes', naming: 'client', ids: `${keptId},${removedId},${newClientId()}` },
    });
    expect(response.status).toBe(200);
    const byId = new Map(response.body.documents.map((document) => [document.id, document]));
    expect([...byId.keys()].sort()).toEqual([keptId, removedId].sort());
    expect(byId.get(keptId)).toMatchObject({ _deleted: false, GridID: await clientIdOf(server, 'grids', grid.id), X: 1, Y: 1 });
    expect(byId.get(removedId)?._deleted).toBe(true);
    const foreign = await server.request('GET', '/sync/documents', { token: farm.regular.token, query: { collection: 'grid_boxes', naming: 'client', ids: `${keptId},${theirsId}` } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ status: 'error', message: httpMessages.otherCompany });

    const tray = await server.request<{ client_id: string }>('POST', '/create_tray', { token: farm.regular.token, json: { tray_name: 'Clones B', company_id: farm.companyId, user_id: farm.regular.id, number_of_plants: 12 } });
    const operations = await server.request<{ documents: SyncDocument[] }>('GET', '/sync/documents', { token: farm.regular.token, query: { collection: 'operations', naming: 'client', ids: tray.body.client_id } });
    expect(operations.body.documents).toMatchObject([{ id: tray.body.client_id, tray_id: tray.body.client_id, kind: 'tray', tray_name: 'Clones B' }]);
    for (const ids of ['tmp-1', 'x']) {
      const bad = await server.request('GET', '/sync/documents', { token: farm.regular.token, query: { collection: 'operations', naming: 'client', ids } });
      expect(bad.body).toEqual({ status: 'error', message: m.idsInvalid });
    }
    const naming = await pull(farm.regular.token, { collection: 'rooms', naming: 'tablet' });
    expect(naming.body).toEqual({ status: 'error', message: m.namingInvalid });
  });
});
