import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import { createRevision, type EventBulk, getBroadcastChannelReference, removeBroadcastChannelReference, type MangoQuery, now, type RxDocumentData, type RxStorage, type RxStorageChangeEvent, type RxStorageInstance } from 'rxdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GrowDatabase, openGrowDatabase } from '../../../src/db/database';
import { getGrowroomDexieStorage } from '../../../src/db/dexie-storage';
import type { LocalDocument } from '../../../src/db/schemas';

/** 3 grids of 60 boxes, some culled, one box deleted: what a room's screen reads. */
function boxes() {
  return Array.from({ length: 180 }, (_, index) => ({
    id: `box-${String(index).padStart(3, '0')}`,
    gridId: `grid-${index % 3}`,
    X: (index % 12) + 1,
    Y: Math.floor(index / 36) + 1,
    culled: index % 7 === 0,
    CustomName: index % 5 === 0 ? `Mother ${index}` : null,
  }));
}

describe('the Dexie storage reading a query in one request', () => {
  let cursor: GrowDatabase;
  let bulk: GrowDatabase;
  beforeAll(async () => {
    const settings = { indexedDB, IDBKeyRange };
    cursor = await openGrowDatabase({ storage: getRxStorageDexie(settings) as RxStorage<unknown, unknown>, name: 'cursor-reads', multiInstance: false, collections: ['grid_boxes'] });
    bulk = await openGrowDatabase({ storage: getGrowroomDexieStorage(settings), name: 'bulk-reads', multiInstance: false, collections: ['grid_boxes'] });
    for (const database of [cursor, bulk]) {
      await database.grid_boxes.bulkInsert(boxes());
      await (await database.grid_boxes.findOne('box-004').exec())?.remove();
    }
  });
  afterAll(async () => {
    await cursor?.close();
    await bulk?.close();
  });

  const queries: Record<string, MangoQuery<LocalDocument>> = {
    'boxes of two grids (the room screen)': { selector: { gridId: { $in: ['grid-0', 'grid-2'] } } },
    'one grid, by position': { selector: { gridId: 'grid-1' }, sort: [{ Y: 'asc' }, { X: 'desc' }] },
    'culled boxes, a field outside the index': { selector: { culled: true } },
    'named boxes after the first ten': { selector: { CustomName: { $ne: null } }, skip: 10 },
    'a page of twenty (a limit: RxDB’s own cursor)': { selector: { gridId: { $gt: 'grid-0' } }, limit: 20 },
    'no grid of that name': { selector: { gridId: 'grid-9' } },
  };

  for (const [what, query] of Object.entries(queries)) {
    it(`answers as RxDB’s cursor does: ${what}`, async () => {
      const read = async (database: GrowDatabase) => (await database.grid_boxes.find(query).exec()).map((document) => document.toJSON());
      const expected = await read(cursor);
      expect(await read(bulk)).toEqual(expected);
      if (what !== 'no grid of that name') expect(expected.length).toBeGreaterThan(0);
    });
  }

  it('leaves deleted documents out', async () => {
    expect((await bulk.grid_boxes.find({ selector: { gridId: 'grid-1' } }).exec()).map((document) => document.id)).not.toContain('box-004');
    expect(await bulk.grid_boxes.count().exec()).toBe(179);
  });
});

/**
 * In the browser the sync worker writes through its own RxDB instance, and the page learns of each
 * write from its change events, sent over a BroadcastChannel: a query the page starts in between (a
 * room's boxes, once a new grid shows) reads the documents from IndexedDB, and then their events arrive.
 * Here the worker is a storage instance of the same database writing without broadcasting, and the
 * test sends its events when the page's query has read.
 */
describe('the page’s live query, when another instance’s events arrive after it read their documents', () => {
  const settings = { indexedDB, IDBKeyRange };
  const name = 'late-events';
  let page: GrowDatabase;
  let worker: RxStorageInstance<LocalDocument, unknown, unknown>;
  const sent: Array<EventBulk<RxStorageChangeEvent<LocalDocument>, unknown>> = [];
  // The channel RxDB's multi-instance support broadcasts a storage instance's writes on.
  const channelOwner = {};
  const channel = getBroadcastChannelReference('dexie', 'the-sync-worker', name, channelOwner);
  beforeAll(async () => {
    page = await openGrowDatabase({ storage: getGrowroomDexieStorage(settings), name, multiInstance: true, collections: ['grid_boxes'] });
    worker = (await getRxStorageDexie(settings).createStorageInstance({
      databaseInstanceToken: 'the-sync-worker',
      databaseName: name,
      collectionName: 'grid_boxes',
      schema: page.grid_boxes.schema.jsonSchema,
      options: {},
      multiInstance: false,
      devMode: false,
    })) as RxStorageInstance<LocalDocument, unknown, unknown>;
    worker.changeStream().subscribe((bulk) => sent.push(bulk));
  });
  afterAll(async () => {
    await removeBroadcastChannelReference('the-sync-worker', channelOwner);
    await worker?.close();
    await page?.remove();
  });

  /** What the worker's instance would broadcast for its writes so far. */
  function deliverEvents() {
    for (const eventBulk of sent.splice(0)) void channel.postMessage({ storageName: 'dexie', databaseName: name, collectionName: 'grid_boxes', version: page.grid_boxes.schema.version, eventBulk });
  }

  async function workerWrites(documents: Array<RxDocumentData<LocalDocument>>, previous?: Array<RxDocumentData<LocalDocument>>) {
    const result = await worker.bulkWrite(documents.map((document, index) => ({ document, ...(previous ? { previous: previous[index] } : {}) })), 'test');
    expect(result.error).toEqual([]);
  }

  const stored = (id: string, data: Partial<LocalDocument> = {}, deleted = false): RxDocumentData<LocalDocument> =>
    ({ id, gridId: 'grid-new', X: 1, Y: 1, ...data, _deleted: deleted, _attachments: {}, _rev: createRevision('the-sync-worker'), _meta: { lwt: now() } }) as RxDocumentData<LocalDocument>;

  // Before: the first box was held twice once its event came, and one copy stayed after it was deleted.
  it('holds each document once, and lets a removed one go', async () => {
    const written = Array.from({ length: 24 }, (_, index) => stored(`new-box-${String(index).padStart(2, '0')}`, { X: (index % 4) + 1, Y: Math.floor(index / 4) + 1 }));
    await workerWrites(written);
    const emissions: string[][] = [];
    const subscription = page.grid_boxes.find({ selector: { gridId: { $in: ['grid-new'] } } }).$.subscribe((documents) => emissions.push(documents.map((document) => document.id)));
    try {
      await expect.poll(() => emissions.at(-1)?.length).toBe(24);
      deliverEvents();
      const removed = written[0]!;
      await workerWrites([stored(removed.id, { X: 1, Y: 1 }, true)], [removed]);
      deliverEvents();
      await expect.poll(() => emissions.at(-1)).toEqual(written.slice(1).map((document) => document.id));
      for (const ids of emissions) expect(new Set(ids).size).toBe(ids.length);
    } finally {
      subscription.unsubscribe();
    }
  });
});
