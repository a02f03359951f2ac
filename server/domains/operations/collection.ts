/**
 * The `operations` collection (ARCHITECTURE.md "The local store"): smaller records of several kinds
 * in one collection, each document with its `kind` and an id `<kind>:<id>`. Treatments and spray
 * products join it with the treatments work.
 */
import type { Selectable } from 'kysely';
import type { GridTemplatesTable, PlantMovesTable, TrayTemplatesTable, TraysTable } from '../../db/schema';
import { gridTemplateJson } from '../grid-templates/queries';
import type { SyncCollection, SyncSource } from '../replication/collections';
import { plantMoveJson } from '../subgrids/queries';
import { trayJson, trayTemplateJson } from '../trays/queries';

function source<Row extends { id: number; deleted_at: unknown }>(kind: string, table: SyncSource['table'], json: (row: Row) => object): SyncSource {
  return {
    kind,
    table,
    companyColumn: 'company_id',
    async toDocuments(_db, rows) {
      return (rows as unknown as Row[]).map((row) => ({ ...json(row), id: String(row.id), _deleted: row.deleted_at !== null }));
    },
  };
}

export const operationsCollection: SyncCollection = {
  name: 'operations',
  tables: ['trays', 'tray_templates', 'grid_templates', 'plant_moves'],
  sources: [
    source<Selectable<TraysTable>>('tray', 'trays', trayJson),
    source<Selectable<TrayTemplatesTable>>('tray_template', 'tray_templates', trayTemplateJson),
    source<Selectable<GridTemplatesTable>>('grid_template', 'grid_templates', gridTemplateJson),
    source<Selectable<PlantMovesTable>>('plant_move', 'plant_moves', plantMoveJson),
  ],
};
