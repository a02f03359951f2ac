/**
 * The `operations` collection (ARCHITECTURE.md "The local store"): smaller records of several kinds
 * in one collection, each document with its `kind`. Treatments and spray
 * products join it with the treatments work.
 */
import type { Selectable } from 'kysely';
import type { GridTemplatesTable, PlantMovesTable, TrayTemplatesTable, TraysTable } from '../../db/schema';
import { gridTemplateJson } from '../grid-templates/queries';
import type { ReferenceNames } from '../replication/client-naming';
import type { SyncCollection, SyncSource } from '../replication/sync-collection';
import { plantMoveJson } from '../subgrids/queries';
import { trayJson, trayTemplateJson } from '../trays/queries';

function source<Row extends { id: number; deleted_at: unknown }>(
  kind: 'tray' | 'tray_template' | 'grid_template' | 'plant_move',
  table: SyncSource['table'],
  json: (row: Row) => object,
  references: ReferenceNames,
): SyncSource {
  return {
    kind,
    table,
    companyColumn: 'company_id',
    named: { kind, references },
    async toDocuments(_db, rows) {
      return (rows as unknown as Row[]).map((row) => ({ ...json(row), id: String(row.id), _deleted: row.deleted_at !== null }));
    },
  };
}

export const operationsCollection: SyncCollection = {
  name: 'operations',
  tables: ['trays', 'tray_templates', 'grid_templates', 'plant_moves'],
  sources: [
    source<Selectable<TraysTable>>('tray', 'trays', trayJson, { tray_id: 'tray', batch_id: 'batch' }),
    source<Selectable<TrayTemplatesTable>>('tray_template', 'tray_templates', trayTemplateJson, { template_id: 'tray_template', default_batch_id: 'batch' }),
    source<Selectable<GridTemplatesTable>>('grid_template', 'grid_templates', gridTemplateJson, { template_id: 'grid_template' }),
    source<Selectable<PlantMovesTable>>('plant_move', 'plant_moves', plantMoveJson, {
      movement_id: 'plant_move',
      sub_gridbox_id: 'sub_gridbox',
      from_parent_gridbox_id: 'grid_box',
      to_parent_gridbox_id: 'grid_box',
    }),
  ],
};
