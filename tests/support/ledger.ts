/**
 * A ledger of the changes tablets made (issue 11), and what the server must show of them once their
 * outboxes drained (`verifyLedger`: exactly once, in each user's order, under its author, refusals
 * explained). Used by the convergence property test and the SIGKILL chaos run.
 */
import { type Kysely, sql } from 'kysely';
import { httpMessages } from '../../common/messages/http';
import { subgridMessages } from '../../common/messages/subgrids';
import type { DB } from '../../server/db/schema';
import type { ApiContext } from '../../src/api/context';
import type { Recorder } from '../../sync/engine';
import { isClientId } from '../../common/client-ids';
import type { ClientId, OutboxEntry } from '../../sync/types';
import type { Tablet } from './client';

type Id = number | ClientId;

/** What a change was meant to do, in the domain's terms: the checks below read the server by it. */
export type ChangeIntent =
  | { kind: 'createRoom'; name: string }
  | { kind: 'createGrid'; name: string; nx: number; ny: number }
  | { kind: 'cull'; boxId: Id; culled: boolean }
  | { kind: 'rename'; boxId: Id; name: string }
  | { kind: 'createBatch'; batchNumber: string }
  | { kind: 'link'; batchId: Id; boxIds: Id[] }
  | { kind: 'divide'; boxId: Id; positions: Array<{ subx: number; suby: number }> }
  | { kind: 'form'; boxId: Id; text: string }
  | { kind: 'deleteGrid'; gridId: Id }
  | { kind: 'deleteRoom'; roomId: Id }
  | { kind: 'scan'; gridId: Id };

/** One change a user made on a tablet, with the outbox entries it recorded (a form: the submission, then one per photo). A ledger lists them in the order they were made. */
export interface RecordedChange {
  device: string;
  /** The scenario's step that made it, for messages. */
  step: number;
  /** The user at the screen when it was made. */
  userId: number;
  intent: ChangeIntent;
  entries: OutboxEntry[];
}

/**
 * The tablet's context with a recorder that also hands every entry it records to `sink`, so a test
 * knows each change's entries (their ids are the Idempotency-Keys the server stores).
 */
export function recordingContext(tablet: Pick<Tablet, 'context' | 'engine'>, sink: OutboxEntry[]): ApiContext {
  const recorder: Recorder = {
    async record(drafts) {
      const entries = await tablet.engine.record(drafts);
      sink.push(...entries);
      return entries;
    },
    awaitsCreate: (clientIds) => tablet.engine.awaitsCreate(clientIds),
    hasPendingEffects: (collection, id) => tablet.engine.hasPendingEffects(collection, id),
  };
  return { ...tablet.context, recorder };
}

/** A tablet's outbox sorted into what can never go without the grower (failed, and entries needing a record a failed one was to create) and what still waits. */
export function sortOutbox(entries: readonly OutboxEntry[]): { failed: OutboxEntry[]; blocked: OutboxEntry[]; waiting: OutboxEntry[] } {
  const failed: OutboxEntry[] = [];
  const blocked: OutboxEntry[] = [];
  const waiting: OutboxEntry[] = [];
  const lost = new Set<string>();
  for (const entry of [...entries].sort((a, b) => a.seq - b.seq)) {
    const own = new Set(entry.creates);
    if (entry.state === 'failed') failed.push(entry);
    else if (entry.clientIds.some((clientId) => !own.has(clientId) && lost.has(clientId))) blocked.push(entry);
    else {
      waiting.push(entry);
      continue;
    }
    for (const clientId of own) lost.add(clientId);
  }
  return { failed, blocked, waiting };
}

export interface SyncedDevice {
  name: string;
  tablet: Tablet;
}

const describeEntry = (entry: OutboxEntry) => `${entry.label} (${entry.method} ${entry.path}, user ${entry.userId}, ${entry.state}, ${entry.attempts} attempts, error ${JSON.stringify(entry.error)})`;

/**
 * Sends and pulls on every tablet (`engine.settle()`, which ignores backoff) until no outbox holds an
 * entry that could still go: only failed entries and those waiting on them remain. Throws, naming the
 * entries, when that does not happen within `timeoutMs`.
 */
export async function drainAll(devices: readonly SyncedDevice[], timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const device of devices) await device.tablet.engine.settle();
    const waiting = [];
    for (const device of devices) for (const entry of sortOutbox(await device.tablet.outbox.all()).waiting) waiting.push(`${device.name}: ${describeEntry(entry)}`);
    if (waiting.length === 0) return;
    if (Date.now() > deadline) throw new Error(`Outboxes did not drain within ${timeoutMs / 1000} s; still waiting:\n${waiting.slice(0, 20).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What a tablet's outbox says after the drain: the entries left. */
export interface DeviceOutcome {
  remaining: OutboxEntry[];
}

export async function outcomeOf(tablet: Pick<Tablet, 'outbox'>): Promise<DeviceOutcome> {
  return { remaining: await tablet.outbox.all() };
}

const KIND_TABLES = { room: 'rooms', grid: 'grids', grid_box: 'grid_boxes', sub_gridbox: 'sub_gridboxes', batch: 'batches', form_response: 'form_responses' } as const;

/** Every number in an entry's path, query and body (the ids it names once rewritten). */
function numbersIn(value: unknown, found = new Set<number>()): Set<number> {
  if (typeof value === 'number') found.add(value);
  else if (typeof value === 'string') for (const match of value.matchAll(/\d+/g)) found.add(Number(match[0]));
  else if (Array.isArray(value)) for (const item of value) numbersIn(item, found);
  else if (value && typeof value === 'object' && !(value instanceof Blob)) for (const item of Object.values(value)) numbersIn(item, found);
  return found;
}

const chunks = <T>(list: readonly T[], size = 500): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, index) => list.slice(index * size, index * size + size));

/**
 * Checks the server's database against the ledger of changes, after every outbox drained (before
 * failed entries are discarded). Answers the problems found, each naming the tablet, step, user and
 * change:
 *
 * 1. Exactly once, under its author: the server applied an entry when it stored a 2xx answer under
 *    its Idempotency-Key (in the same transaction as the change). An entry gone from its outbox has
 *    one such record, under its author's scope; a failed or waiting one has none (else the tablet
 *    shows as refused a change the server made). Creates made exactly one row if applied, none
 *    otherwise (unique names), forms one response, photos one image each.
 * 2. In each user's order: the transactions of one user's applied entries follow the order the user
 *    made them (transaction ids increase).
 * 3. Author and moment: every audit event written in an applied entry's transaction names its author
 *    and carries the moment it was done (`actedAt`); created rows name their author.
 * 4. Last write wins per field: a box's culled flag and name, and a grid's scan, are those of the last
 *    applied change to them (in the order the server applied them: their audit events' order).
 * 5. Every refused entry is explained by the server's state, with the server's message: a record it
 *    names was deleted (404 "No record found for …"), a Regular user's deletion (403), or a
 *    sub-gridbox position taken meanwhile (409).
 */
export async function verifyLedger(
  db: Kysely<DB>,
  input: { companyId: number; changes: readonly RecordedChange[]; devices: ReadonlyMap<string, DeviceOutcome>; roles: ReadonlyMap<number, string> },
): Promise<string[]> {
  const { companyId, changes, devices, roles } = input;
  const problems: string[] = [];
  const say = (change: RecordedChange, text: string) => problems.push(`${change.device}, step ${change.step}, user ${change.userId}, ${change.intent.kind}: ${text}`);

  // What became of each entry.
  const fates = new Map<string, { fate: 'applied' | 'failed' | 'blocked'; final: OutboxEntry }>();
  for (const change of changes) {
    const outcome = devices.get(change.device);
    if (!outcome) throw new Error(`No outcome for tablet ${change.device}`);
    const sorted = sortOutbox(outcome.remaining);
    for (const entry of change.entries) {
      const failed = sorted.failed.find((other) => other.id === entry.id);
      const blocked = sorted.blocked.find((other) => other.id === entry.id);
      const waiting = sorted.waiting.find((other) => other.id === entry.id);
      if (waiting) say(change, `entry ${entry.id} (${entry.label}) still waits after the drain`);
      fates.set(entry.id, failed ? { fate: 'failed', final: failed } : blocked ? { fate: 'blocked', final: blocked } : { fate: 'applied', final: entry });
      if (entry.userId !== change.userId) say(change, `entry ${entry.id} was recorded as user ${entry.userId}'s while user ${change.userId} was at the screen`);
    }
  }

  // 1. The stored keys: what the server applied (a 2xx answer stored under the key), whatever the tablet thinks.
  const keys = new Map<string, Array<{ scope: string; status_code: number | null; xid: string }>>();
  for (const chunk of chunks(changes.flatMap((change) => change.entries.map((entry) => entry.id)))) {
    if (chunk.length === 0) continue;
    const rows = await db.selectFrom('idempotency_keys').select(['scope', 'key', 'status_code', sql<string>`xmin::text`.as('xid')]).where('key', 'in', chunk).execute();
    for (const row of rows) keys.set(row.key, [...(keys.get(row.key) ?? []), row]);
  }
  const succeeded = (row: { status_code: number | null }) => row.status_code !== null && row.status_code >= 200 && row.status_code < 300;
  /** The transaction that applied each entry the server applied. */
  const xidOf = new Map<string, string>();
  for (const change of changes) {
    for (const entry of change.entries) {
      const rows = keys.get(entry.id) ?? [];
      const applied = rows.find(succeeded);
      if (applied) xidOf.set(entry.id, applied.xid);
      const fate = fates.get(entry.id);
      if (fate?.fate === 'applied') {
        if (rows.length !== 1 || !applied || applied.scope !== `user:${entry.userId}`) {
          say(change, `entry ${entry.id} (${entry.label}) left the outbox as applied, but the server's records of its key are ${JSON.stringify(rows)} (expected one under user:${entry.userId} with a 2xx answer)`);
        }
      } else if (rows.length > 0) {
        say(change, `entry ${entry.id} (${entry.label}) is ${fate?.fate} on the tablet (error ${JSON.stringify(fate?.final.error)}), but the server applied it: ${JSON.stringify(rows)}`);
      }
    }
  }
  const applied = (entry: OutboxEntry | undefined) => entry !== undefined && xidOf.has(entry.id);

  // 3. Audit events of each applied entry: an event names the Idempotency-Key of the change that recorded it.
  const events = await db
    .selectFrom('audit_events')
    .select(['id', 'user_id', 'event_title', 'created_at', 'idempotency_key'])
    .where('company_id', '=', companyId)
    .orderBy('id')
    .execute();
  const eventsOf = new Map<string, typeof events>();
  for (const event of events) if (event.idempotency_key !== null) eventsOf.set(event.idempotency_key, [...(eventsOf.get(event.idempotency_key) ?? []), event]);
  /** Where an applied entry stands in the server's order of application (its first audit event). */
  const appliedAt = new Map<string, number>();
  for (const change of changes) {
    for (const entry of change.entries) {
      if (!xidOf.has(entry.id)) continue;
      const written = eventsOf.get(entry.id) ?? [];
      // A link audits each plant it newly links: linking plants already linked writes none.
      if (written.length === 0 && change.intent.kind !== 'link') say(change, `entry ${entry.id} (${entry.label}) was applied without an audit event`);
      const first = written[0];
      if (first) appliedAt.set(entry.id, first.id);
      for (const event of written) {
        if (event.user_id !== entry.userId) say(change, `audit event ${event.id} "${event.event_title}" of entry ${entry.id} names user ${event.user_id}, not its author ${entry.userId}`);
        const at = new Date(event.created_at).getTime();
        if (at !== Date.parse(entry.actedAt)) say(change, `audit event ${event.id} "${event.event_title}" is dated ${new Date(at).toISOString()}, but the change was made at ${entry.actedAt}`);
      }
    }
  }

  // 2. Each user's order (per tablet: a user's changes on one tablet): by transaction, and within one
  // push's transaction by audit event (the push applies its entries in order; events are numbered as written).
  // The ledger is in the order the changes were made (an entry's `seq` restarts once its outbox empties).
  const byAuthor = new Map<string, Array<{ change: RecordedChange; entry: OutboxEntry }>>();
  for (const change of changes) {
    for (const entry of change.entries) if (xidOf.has(entry.id)) byAuthor.set(`${change.device}\u0000${entry.userId}`, [...(byAuthor.get(`${change.device}\u0000${entry.userId}`) ?? []), { change, entry }]);
  }
  for (const list of byAuthor.values()) {
    for (let index = 1; index < list.length; index += 1) {
      const before = list[index - 1] as (typeof list)[number];
      const after = list[index] as (typeof list)[number];
      const [xidBefore, xidAfter] = [BigInt(xidOf.get(before.entry.id) as string), BigInt(xidOf.get(after.entry.id) as string)];
      const [eventBefore, eventAfter] = [appliedAt.get(before.entry.id), appliedAt.get(after.entry.id)];
      const sameTransactionOutOfOrder = xidAfter === xidBefore && eventBefore !== undefined && eventAfter !== undefined && eventAfter < eventBefore;
      if (xidAfter < xidBefore || sameTransactionOutOfOrder) {
        say(after.change, `entry ${after.entry.id} (${after.entry.label}) was applied (transaction ${xidAfter}, event ${eventAfter}) before the same user's earlier ${before.entry.label} of step ${before.change.step} (transaction ${xidBefore}, event ${eventBefore})`);
      }
    }
  }

  // The company's rows, read once.
  const rooms = await db.selectFrom('rooms').select(['id', 'name', 'created_by', 'deleted_at']).where('company_id', '=', companyId).execute();
  const grids = await db.selectFrom('grids').select(['id', 'name', 'created_by', 'deleted_at', 'scanned', 'scanned_at', 'last_scanned_by']).where('company_id', '=', companyId).execute();
  const boxes = await db.selectFrom('grid_boxes').select(['id', 'grid_id', 'culled', 'culled_by', 'custom_name', 'deleted_at']).where('company_id', '=', companyId).execute();
  const subs = await db.selectFrom('sub_gridboxes').select(['id', 'parent_gridbox_id', 'subx', 'suby', 'deleted_at']).where('company_id', '=', companyId).execute();
  const batches = await db.selectFrom('batches').select(['id', 'batch_number', 'created_by', 'deleted_at']).where('company_id', '=', companyId).execute();
  const links = await db.selectFrom('batch_grid_boxes').select(['batch_id', 'grid_box_id']).where('company_id', '=', companyId).execute();
  const responses = await db.selectFrom('form_responses').select(['id', 'submitted_by', 'created_by', 'grid_box_id']).where('company_id', '=', companyId).execute();
  const answers = await db.selectFrom('form_field_responses').select(['response_id', 'input_data']).where('company_id', '=', companyId).execute();
  const images = await db.selectFrom('form_response_images').select(['response_id']).where('company_id', '=', companyId).where('deleted_at', 'is', null).execute();
  // The server's ids of the records tablets named by client id.
  const boxClientIds = await db.selectFrom('grid_box_client_ids').select(['grid_box_id as id', 'client_id']).where('company_id', '=', companyId).execute();
  const named = await Promise.all(
    (['rooms', 'grids', 'batches', 'sub_gridboxes', 'form_responses'] as const).map((table) => db.selectFrom(table).select(['id', 'client_id']).where('company_id', '=', companyId).execute()),
  );
  const serverIdOf = new Map<string, number>([...boxClientIds, ...named.flat()].map((row) => [String(row.client_id), row.id]));
  const resolve = (id: Id): number | null => (typeof id === 'number' ? id : (serverIdOf.get(id) ?? null));
  const boxById = new Map(boxes.map((box) => [box.id, box]));
  const gridById = new Map(grids.map((grid) => [grid.id, grid]));

  const created = <Row extends { created_by: number | null }>(change: RecordedChange, what: string, rows: Row[], entry: OutboxEntry | undefined): Row | undefined => {
    const expected = applied(entry) ? 1 : 0;
    if (rows.length !== expected) say(change, `${what}: the server holds ${rows.length} rows, expected ${expected} (the server ${expected ? 'applied' : 'did not apply'} its entry)`);
    for (const row of rows) if (row.created_by !== change.userId) say(change, `${what}: created by user ${row.created_by}, expected ${change.userId}`);
    return rows[0];
  };

  // Last applied change per target, for the last-write-wins checks.
  const lastOf = new Map<string, { change: RecordedChange; entry: OutboxEntry }>();
  const noteLast = (key: string, change: RecordedChange, entry: OutboxEntry) => {
    const current = lastOf.get(key);
    if (!current || (appliedAt.get(entry.id) ?? 0) > (appliedAt.get(current.entry.id) ?? 0)) lastOf.set(key, { change, entry });
  };
  const divisions = new Map<number, Array<{ subx: number; suby: number }>>();

  for (const change of changes) {
    const { intent } = change;
    const entry = change.entries[0];
    if (!entry) {
      say(change, 'recorded no outbox entry');
      continue;
    }
    const isApplied = applied(entry);
    switch (intent.kind) {
      case 'createRoom':
        created(change, `room ${intent.name}`, rooms.filter((room) => room.name === intent.name), entry);
        break;
      case 'createGrid': {
        const grid = created(change, `grid ${intent.name}`, grids.filter((row) => row.name === intent.name), entry);
        const count = grid ? boxes.filter((box) => box.grid_id === grid.id).length : 0;
        if (grid && count !== intent.nx * intent.ny) say(change, `grid ${intent.name} has ${count} boxes, expected ${intent.nx * intent.ny}`);
        break;
      }
      case 'createBatch':
        created(change, `batch ${intent.batchNumber}`, batches.filter((batch) => batch.batch_number === intent.batchNumber), entry);
        break;
      case 'form': {
        const answered = answers.filter((answer) => answer.input_data === intent.text);
        const response = created(
          change,
          `form response "${intent.text}"`,
          responses.filter((row) => answered.some((answer) => answer.response_id === row.id)),
          entry,
        );
        if (response && response.submitted_by !== change.userId) say(change, `form response ${response.id} submitted by ${response.submitted_by}, expected ${change.userId}`);
        const photos = change.entries.slice(1);
        const expected = photos.filter(applied).length;
        const stored = response ? images.filter((image) => image.response_id === response.id).length : 0;
        if (stored !== expected) say(change, `form response "${intent.text}" has ${stored} photos on the server, expected ${expected} (${photos.length} recorded)`);
        break;
      }
      case 'cull':
      case 'rename': {
        if (!isApplied) break;
        const boxId = resolve(intent.boxId);
        if (boxId === null) say(change, `applied, but its box ${intent.boxId} never got a server id`);
        else noteLast(`${intent.kind}:${boxId}`, change, entry);
        break;
      }
      case 'scan': {
        if (!isApplied) break;
        const gridId = resolve(intent.gridId);
        if (gridId === null) say(change, `applied, but its grid ${intent.gridId} never got a server id`);
        else noteLast(`scan:${gridId}`, change, entry);
        break;
      }
      case 'link': {
        if (!isApplied) break;
        const batchId = resolve(intent.batchId);
        for (const id of intent.boxIds) {
          const boxId = resolve(id);
          const count = links.filter((link) => link.batch_id === batchId && link.grid_box_id === boxId).length;
          const live = boxId !== null && boxById.get(boxId)?.deleted_at === null;
          if (count > 1 || (live && count !== 1)) say(change, `batch ${batchId} is linked ${count} times to box ${boxId}, expected once`);
        }
        break;
      }
      case 'divide': {
        if (!isApplied) break;
        const boxId = resolve(intent.boxId);
        if (boxId === null) say(change, `applied, but its box ${intent.boxId} never got a server id`);
        else divisions.set(boxId, [...(divisions.get(boxId) ?? []), ...intent.positions]);
        break;
      }
      case 'deleteGrid':
      case 'deleteRoom': {
        if (!isApplied) break;
        const id = resolve(intent.kind === 'deleteGrid' ? intent.gridId : intent.roomId);
        const row = intent.kind === 'deleteGrid' ? gridById.get(id ?? -1) : rooms.find((room) => room.id === id);
        if (!row || row.deleted_at === null) say(change, `applied, but ${intent.kind === 'deleteGrid' ? 'grid' : 'room'} ${id} is not deleted on the server`);
        break;
      }
    }
  }

  // 4. Last write wins.
  for (const [key, { change, entry }] of lastOf) {
    const [kind, idText] = key.split(':');
    const id = Number(idText);
    const { intent } = change;
    if (kind === 'cull' && intent.kind === 'cull') {
      const box = boxById.get(id);
      const expected = { culled: intent.culled, culled_by: intent.culled ? entry.userId : null };
      if (!box || box.culled !== expected.culled || box.culled_by !== expected.culled_by) {
        say(change, `box ${id} is ${JSON.stringify(box && { culled: box.culled, culled_by: box.culled_by })} on the server, but the last applied cull (entry ${entry.id}) set ${JSON.stringify(expected)}`);
      }
    } else if (kind === 'rename' && intent.kind === 'rename') {
      const box = boxById.get(id);
      if (!box || box.custom_name !== intent.name) say(change, `box ${id} is named ${JSON.stringify(box?.custom_name)} on the server, but the last applied rename (entry ${entry.id}) named it ${intent.name}`);
    } else if (kind === 'scan') {
      const grid = gridById.get(id);
      const at = grid?.scanned_at ? new Date(grid.scanned_at).getTime() : null;
      if (!grid || !grid.scanned || grid.last_scanned_by !== entry.userId || at !== Date.parse(entry.actedAt)) {
        say(change, `grid ${id} shows ${JSON.stringify(grid && { scanned: grid.scanned, by: grid.last_scanned_by, at: at && new Date(at).toISOString() })}, but the last applied scan (entry ${entry.id}) was by ${entry.userId} at ${entry.actedAt}`);
      }
    }
  }
  for (const [boxId, positions] of divisions) {
    const box = boxById.get(boxId);
    const live = subs.filter((sub) => sub.parent_gridbox_id === boxId && sub.deleted_at === null);
    const expected = box?.deleted_at === null ? positions : [];
    const key = (position: { subx: number; suby: number }) => `${position.subx}-${position.suby}`;
    const have = live.map((sub) => key({ subx: sub.subx, suby: sub.suby })).sort();
    const want = expected.map(key).sort();
    if (JSON.stringify(have) !== JSON.stringify(want)) problems.push(`box ${boxId}: live sub-gridboxes at ${have.join(' ') || 'none'}, but the applied divisions made ${want.join(' ') || 'none'}`);
  }

  // 5. Refusals.
  for (const change of changes) {
    for (const entry of change.entries) {
      const fate = fates.get(entry.id);
      if (fate?.fate !== 'failed') continue;
      const error = fate.final.error ?? '';
      // The records it names: by integer id, or by client id (the server's message names either).
      const names = numbersIn([fate.final.path, fate.final.query, fate.final.body]);
      for (const clientId of fate.final.clientIds) if (serverIdOf.has(clientId)) names.add(serverIdOf.get(clientId) as number);
      const missing = /^No record found for (\w+) ([\w-]+)\.$/.exec(error);
      if (missing) {
        const table = KIND_TABLES[missing[1] as keyof typeof KIND_TABLES];
        const id = isClientId(missing[2]) ? (serverIdOf.get(missing[2]) ?? -1) : Number(missing[2]);
        const row = table ? await db.selectFrom(table).select(['id', 'deleted_at']).where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst() : undefined;
        if (!names.has(id)) say(change, `entry ${entry.id} (${entry.label}) was refused with "${error}", a record it does not name`);
        else if (!row || row.deleted_at === null) say(change, `entry ${entry.id} (${entry.label}) was refused with "${error}", but that record is live on the server`);
        continue;
      }
      if (error === httpMessages.roleForbidden && roles.get(entry.userId ?? -1) === 'Regular' && /^\/delete_/.test(fate.final.path)) continue;
      if (fate.final.path === '/create_sub_gridboxes' && (error.startsWith('Already occupied in this grid box:') || error === subgridMessages.positionTaken || /^A grid box holds at most \d+ sub-gridboxes\.$/.test(error))) continue;
      say(change, `entry ${entry.id} (${entry.label}) was refused with an unexpected message: ${JSON.stringify(error)}`);
    }
  }
  return problems;
}
