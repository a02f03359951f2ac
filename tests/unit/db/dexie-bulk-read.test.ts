import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { getRxStorageDexie } from 'rxdb/plugins/storage-dexie';
import type { MangoQuery, RxStorage } from 'rxdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GrowDatabase, openGrowDatabase } from '../../../src/db/database';
import { getRxStorageDexieBulkRead } from '../../../src/db/dexie-bulk-read';
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
    bulk = await openGrowDatabase({ storage: getRxStorageDexieBulkRead(settings), name: 'bulk-reads', multiInstance: false, collections: ['grid_boxes'] });
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
