/**
 * Entries stored by the previous version of the outbox (Dexie version 2), renamed for client ids.
 *
 * Then a record made on the tablet was `tmp-<uuid>` until its create answered, and the create's
 * request did not carry an id: the server chose one. Now the record's client id is its name for life,
 * and the server must take it from the request. So each waiting entry is rewritten once, when the
 * outbox opens under the new version:
 *
 * - `tmp-<uuid>` becomes `<uuid>` wherever it stands (path, query, body, effects), and documents of
 *   the `operations` collection lose their `<kind>:` prefix, as the server now names them;
 * - a create's request carries the client ids its records are to have: `client_id` (a field's in its
 *   own `client_id`); records made with another take the ids both sides derive from it
 *   (common/client-ids.ts): a grid's boxes, a division's sub-gridboxes, the responses of a multi-box
 *   submission, renamed in every entry that names them;
 * - effects on documents named by an integer (records whose create had answered, which the new local
 *   store names by client id) are dropped: their change still goes to the server, and the pull brings
 *   its result; until then the screen shows the server's state.
 *
 * The local store is a new database (src/db/database.ts): the pull fills it, named by client id, and
 * the engine lays the entries' effects over it when it starts.
 */
import { boxClientId, type ClientId, clientIdsIn, newClientId, responseClientId, subGridboxClientId } from '../common/client-ids';
import type { Effect, EntryBody, OutboxEntry } from './types';

/** How version 2 said where a create's answer held a record's server id. */
interface LegacyIdSource {
  tempId: string;
  path: string[];
  match?: Record<string, unknown>;
}

type LegacyEntry = Omit<OutboxEntry, 'creates' | 'clientIds'> & { creates?: LegacyIdSource[]; tempIds?: string[] };

const TEMP_ID = /tmp-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/g;
const withoutPrefix = (tempId: string) => tempId.replace(/^tmp-/, '');

/** A copy of `value` with each temporary id renamed: as `renames` says, else its uuid alone. */
function renamed<T>(value: T, renames: ReadonlyMap<string, ClientId>): T {
  if (typeof value === 'string') return value.replace(TEMP_ID, (tempId, uuid: string) => renames.get(tempId) ?? uuid) as T;
  if (Array.isArray(value)) return value.map((item) => renamed(item, renames)) as T;
  if (value && typeof value === 'object' && !(value instanceof Blob)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renamed(item, renames)])) as T;
  return value;
}

/** The body with `client_id` set at `path` (a field's own: `['fields', '2']`), where the request has none. */
function withClientId(body: EntryBody, path: string[], clientId: ClientId): EntryBody {
  if (body.kind === 'multipart') {
    if (path.length > 0 || body.parts.some((part) => part.name === 'client_id')) return body;
    return { ...body, parts: [...body.parts, { name: 'client_id', value: clientId }] };
  }
  if (body.kind !== 'json' || !body.data || typeof body.data !== 'object') return body;
  const data = structuredClone(body.data) as Record<string, unknown>;
  let target: unknown = data;
  for (const key of path) target = target && typeof target === 'object' ? (target as Record<string, unknown>)[key] : undefined;
  if (target && typeof target === 'object' && !('client_id' in target)) (target as Record<string, unknown>).client_id = clientId;
  return { kind: 'json', data };
}

/** The client ids a version-2 create's records get, and its body carrying them. */
function createdIds(entry: LegacyEntry, renames: Map<string, ClientId>): { creates: ClientId[]; body: EntryBody } {
  const sources = entry.creates ?? [];
  let body = entry.body;
  // The record the call makes (a room, a grid, a template, a single response); children derive from it.
  const primary = sources.find((source) => !source.match && !/^\d+$/.test(source.path.at(-1) ?? ''));
  // Calls that make only children (a division's sub-gridboxes, a multi-box submission's responses) get a new id to derive them from.
  const parent = primary ? withoutPrefix(primary.tempId) : newClientId();
  if (sources.length > 0) body = withClientId(body, [], parent);
  for (const source of sources) {
    const index = Number(source.path.at(-1));
    const list = source.path.at(-2);
    if (source === primary) continue;
    if (typeof source.match?.X === 'number' && typeof source.match.Y === 'number') renames.set(source.tempId, boxClientId(parent, source.match.X, source.match.Y));
    else if (typeof source.match?.SubX === 'number' && typeof source.match.SubY === 'number') renames.set(source.tempId, subGridboxClientId(parent, source.match.SubX, source.match.SubY));
    else if (list === 'response_ids') renames.set(source.tempId, responseClientId(parent, index));
    else if (list === 'field_ids' || list === 'new_field_ids') body = withClientId(body, [list === 'field_ids' ? 'fields' : 'newFields', String(index)], withoutPrefix(source.tempId));
  }
  return { creates: sources.map((source) => renames.get(source.tempId) ?? withoutPrefix(source.tempId)), body };
}

/** An effect's document as the new local store names it; null for one named by an integer. */
function renamedEffect(effect: Effect, renames: ReadonlyMap<string, ClientId>): Effect | null {
  const id = renamed(effect.id, renames).replace(/^[a-z_]+:/, '');
  if (!clientIdsIn(id).size) return null;
  const before = effect.before ? { ...renamed(effect.before, renames), id } : effect.before;
  return effect.op === 'remove' ? { ...effect, id, before } : { ...effect, id, data: renamed(effect.data, renames), before };
}

/** Version-2 entries (in order) as version 3 stores them. */
export function upgradeToClientIds(stored: readonly unknown[]): OutboxEntry[] {
  const entries = stored as LegacyEntry[];
  const renames = new Map<string, ClientId>();
  const created = entries.map((entry) => createdIds(entry, renames));
  return entries.map((entry, index): OutboxEntry => {
    const { tempIds: _tempIds, creates: _creates, ...rest } = entry;
    const path = renamed(entry.path, renames);
    const query = renamed(entry.query, renames);
    const body = renamed(created[index]!.body, renames);
    return {
      ...rest,
      path,
      query,
      body,
      clientIds: [...clientIdsIn([path, query, body])],
      creates: created[index]!.creates,
      effects: entry.effects.map((effect) => renamedEffect(effect, renames)).filter((effect): effect is Effect => effect !== null),
    };
  });
}
