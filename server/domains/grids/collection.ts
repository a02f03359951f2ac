/** The `grids` and `grid_boxes` collections. */
import type { Grid, GridBox } from '../../db/schema';
import type { SyncCollection } from '../replication/collections';
import { gridBoxJson, gridJson } from './queries';

export const gridsCollection: SyncCollection = {
  name: 'grids',
  tables: ['grids'],
  sources: [
    {
      table: 'grids',
      companyColumn: 'company_id',
      async toDocuments(_db, rows) {
        return (rows as unknown as Grid[]).map((grid) => ({ ...gridJson(grid), id: String(grid.id), _deleted: grid.deleted_at !== null }));
      },
    },
  ],
};

export const gridBoxesCollection: SyncCollection = {
  name: 'grid_boxes',
  tables: ['grid_boxes'],
  sources: [
    {
      table: 'grid_boxes',
      companyColumn: 'company_id',
      async toDocuments(_db, rows) {
        return (rows as unknown as GridBox[]).map((box) => ({ ...gridBoxJson(box), id: String(box.id), _deleted: box.deleted_at !== null }));
      },
    },
  ],
};
