/** The `grids` and `grid_boxes` collections. */
import { gridBoxDocument, gridRecord } from '../../../common/schemas/grids';
import type { Grid, GridBox } from '../../db/schema';
import type { SyncCollection } from '../replication/sync-collection';
import { batchQueries } from '../batches/queries';
import { subGridboxJson, subGridboxQueries } from '../subgrids/queries';
import { gridBoxJson, gridJson } from './queries';

export const gridsCollection: SyncCollection = {
  name: 'grids',
  tables: ['grids'],
  sources: [
    {
      table: 'grids',
      companyColumn: 'company_id',
      named: { kind: 'grid', references: { RoomID: 'room' } },
      document: gridRecord,
      async toDocuments(_db, rows) {
        return (rows as unknown as Grid[]).map((grid) => ({ ...gridJson(grid), id: String(grid.id), _deleted: grid.deleted_at !== null }));
      },
    },
  ],
};

/**
 * Grid boxes with their live sub-gridboxes inside (`sub_gridboxes`, shaped as the API shows them) and
 * the ids of their live batches (`BatchIDs`). Every sub-gridbox write and every batch link change
 * touches the box (subgrids/queries.ts, batches/queries.ts), so the box is pulled again.
 */
export const gridBoxesCollection: SyncCollection = {
  name: 'grid_boxes',
  tables: ['grid_boxes', 'sub_gridboxes'],
  sources: [
    {
      table: 'grid_boxes',
      companyColumn: 'company_id',
      named: { kind: 'grid_box', references: { GridID: 'grid', BatchIDs: 'batch', Sub_gridboxID: 'sub_gridbox', ParentGridboxID: 'grid_box' } },
      document: gridBoxDocument,
      async toDocuments(db, rows) {
        const boxes = rows as unknown as GridBox[];
        // One query for the whole pull page, whatever its size.
        const subs = await subGridboxQueries.liveOfParents(
          db,
          boxes.map((box) => box.id),
        );
        const subsByBox = new Map<number, ReturnType<typeof subGridboxJson>[]>();
        for (const sub of subs) {
          const list = subsByBox.get(sub.parent_gridbox_id) ?? [];
          list.push(subGridboxJson(sub));
          subsByBox.set(sub.parent_gridbox_id, list);
        }
        const batchesByBox = new Map<number, number[]>();
        for (const link of await batchQueries.liveLinksOfBoxes(
          db,
          boxes.map((box) => box.id),
        )) {
          const list = batchesByBox.get(link.grid_box_id) ?? [];
          list.push(link.batch_id);
          batchesByBox.set(link.grid_box_id, list);
        }
        return boxes.map((box) => ({
          ...gridBoxJson(box),
          BatchIDs: batchesByBox.get(box.id) ?? [],
          sub_gridboxes: subsByBox.get(box.id) ?? [],
          id: String(box.id),
          _deleted: box.deleted_at !== null,
        }));
      },
    },
  ],
};
