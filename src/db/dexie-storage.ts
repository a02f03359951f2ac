/**
 * RxDB's Dexie storage, as the page and the sync worker open it, with two changes.
 *
 * 1. A whole query's documents are read in one IndexedDB request. RxDB's Dexie query walks its index
 * with a cursor: one IndexedDB request per document, about 0.12 ms each in Chromium, so a room of 2,000
 * boxes took some 250 ms to read on a tablet's cold start. A query with no limit wants every document
 * in its index range anyway: `getAll(range)` reads them in one request (30–60 ms for the same room).
 * The matching, the order, and queries with a limit (which may stop early) are RxDB's own.
 *
 * 2. Another instance's inserts reach live queries as updates of unknown previous state. The sync
 * worker writes through its own instance, and the page hears of each write from its change event,
 * sent over a BroadcastChannel after the write committed. A query the page starts in between (a room's
 * boxes, once its new grid shows) reads the new documents from IndexedDB, and then their insert events
 * arrive: RxDB's event-reduce takes an insert to be of a document not in the results yet, and may add
 * it a second time (at the front or the end, unchecked), so the room showed a box twice and, once it was
 * deleted, still showed one copy. An update of unknown previous state is placed or replaced wherever
 * the document stands, so it is right either way. The instance's own inserts keep their kind: their
 * events are emitted before the write returns, and RxDB re-reads a query a write overlapped.
 */
import { map, type Observable } from 'rxjs';
import { type EventBulk, getQueryMatcher, getSortComparator, type PreparedQuery, type DexieSettings, type RxDocumentData, type RxStorage, type RxStorageChangeEvent, type RxStorageInstance, type RxStorageInstanceCreationParams, type RxStorageQueryResult } from 'rxdb';
import { DEXIE_DOCS_TABLE_NAME, dexieReplaceIfStartsWithPipe, fromDexieToStorage, getKeyRangeByQueryPlan, getRxStorageDexie, type RxStorageInstanceDexie } from 'rxdb/plugins/storage-dexie';

type DexieInstance = RxStorageInstanceDexie<unknown>;

async function readInOneRequest(instance: DexieInstance, prepared: PreparedQuery<unknown>): Promise<RxStorageQueryResult<unknown>> {
  const state = await instance.internals;
  const { query, queryPlan } = prepared;
  let range: IDBKeyRange;
  try {
    range = getKeyRangeByQueryPlan(state.booleanIndexes, queryPlan, (state.dexieDb as unknown as { _options: { IDBKeyRange?: unknown } })._options.IDBKeyRange) as IDBKeyRange;
  } catch (error) {
    // As RxDB's own query: a range IndexedDB cannot express matches nothing.
    if (error instanceof Error && error.name === 'DataError') return { documents: [] };
    throw error;
  }
  const indexName = `[${queryPlan.index.map((field) => dexieReplaceIfStartsWithPipe(field)).join('+')}]`;
  const stored = await state.dexieDb.transaction('r', state.dexieTable, async (transaction) => {
    const request = (transaction as unknown as { idbtrans: IDBTransaction }).idbtrans.objectStore(DEXIE_DOCS_TABLE_NAME).index(indexName).getAll(range);
    return new Promise<unknown[]>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error(`Reading ${indexName} failed.`));
    });
  });
  let documents = stored.map((row) => fromDexieToStorage<unknown>(state.booleanIndexes, row));
  if (!queryPlan.selectorSatisfiedByIndex) {
    const matches = getQueryMatcher(instance.schema, query);
    documents = documents.filter((document) => matches(document));
  }
  if (!queryPlan.sortSatisfiedByIndex) documents.sort(getSortComparator(instance.schema, query) as (a: RxDocumentData<unknown>, b: RxDocumentData<unknown>) => number);
  return { documents: query.skip ? documents.slice(query.skip) : documents };
}

type ChangeBulk = EventBulk<RxStorageChangeEvent<unknown>, unknown>;

/** Another instance's events, its inserts as updates of unknown previous state (2. above). */
function asSeenFromAnotherInstance(bulk: ChangeBulk): ChangeBulk {
  if (!bulk.events.some((event) => event.operation === 'INSERT')) return bulk;
  // An update without previousDocumentData is what RxDB's own types leave out but its event-reduce reads
  // as an update of unknown previous state (rx-change-event.ts `rxChangeEventToEventReduceChangeEvent`).
  const events = bulk.events.map((event) => (event.operation === 'INSERT' ? ({ ...event, operation: 'UPDATE' } as unknown as RxStorageChangeEvent<unknown>) : event));
  return { ...bulk, events };
}

/** The instance's change stream with another instance's inserts made updates; its own events as they were. */
function withOtherInstancesInsertsAsUpdates(instance: RxStorageInstance<unknown, unknown, unknown>) {
  // The instance's own writes are emitted on its `changes$` (multi-instance support adds the others'
  // events to it in `changeStream()`): noted first, since this subscribes before any reader of the stream.
  const own = new WeakSet<ChangeBulk>();
  (instance as unknown as { changes$: Observable<ChangeBulk> }).changes$.subscribe((bulk) => own.add(bulk));
  const everyInstance = instance.changeStream.bind(instance);
  instance.changeStream = () => everyInstance().pipe(map((bulk: ChangeBulk) => (own.has(bulk) ? bulk : asSeenFromAnotherInstance(bulk))));
}

/** RxDB's Dexie storage with the two changes above. */
export function getGrowroomDexieStorage(settings: DexieSettings = {}): RxStorage<unknown, unknown> {
  const storage = getRxStorageDexie(settings) as unknown as RxStorage<unknown, unknown>;
  const createInstance = storage.createStorageInstance.bind(storage);
  storage.createStorageInstance = async <RxDocType>(params: RxStorageInstanceCreationParams<RxDocType, unknown>) => {
    const instance = await createInstance(params);
    const dexie = instance as unknown as DexieInstance;
    const cursorQuery = dexie.query.bind(dexie);
    dexie.query = (prepared) => (typeof prepared.query.limit === 'number' ? cursorQuery(prepared) : readInOneRequest(dexie, prepared));
    if (params.multiInstance) withOtherInstancesInsertsAsUpdates(instance as RxStorageInstance<unknown, unknown, unknown>);
    return instance;
  };
  return storage;
}
