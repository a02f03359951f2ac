/**
 * The `operations` collection (ARCHITECTURE.md "The local store"): smaller records of several kinds
 * in one collection, each document with its `kind`. Spray products, treatments and spray records travel
 * here too, so a tablet shows re-entry markers and pre-harvest warnings offline; and the company's
 * image models (kind `ai_model`), videos of boxes and rows (kind `video`), and recent scan sessions
 * with their boxes (kind `scan`).
 */
import type { z } from 'zod';
import { gridTemplateRecord } from '../../../common/schemas/grid-templates';
import { aiModelRecord } from '../../../common/schemas/models';
import { plantMoveRecord } from '../../../common/schemas/subgrids';
import { sprayApplicationRecord, sprayProductRecord, treatmentRecord } from '../../../common/schemas/treatments';
import { trayRecord, trayTemplateRecord } from '../../../common/schemas/trays';
import { videoRecord } from '../../../common/schemas/videos';
import { gridTemplateJson } from '../grid-templates/queries';
import { aiModelJson } from '../models/queries';
import { NAMED_KINDS, type NamedKind, type ReferenceNames } from '../replication/client-naming';
import type { SyncCollection, SyncSource } from '../replication/sync-collection';
import { scanSource } from '../scans/collection';
import { plantMoveJson } from '../subgrids/queries';
import { sprayApplicationJson, sprayProductJson, treatmentJson } from '../treatments/queries';
import { trayJson, trayTemplateJson } from '../trays/queries';
import { videoJson } from '../videos/queries';

type OperationKind = 'tray' | 'tray_template' | 'grid_template' | 'plant_move' | 'spray_product' | 'treatment' | 'spray_application' | 'ai_model' | 'video';

/**
 * Whether tablets name this kind's records by client id (client-naming.ts knows it). Until they do,
 * its documents keep the server's ids.
 */
const isNamedKind = (kind: OperationKind): kind is OperationKind & NamedKind => Object.hasOwn(NAMED_KINDS, kind);

/** A source of one kind: its documents are `json(row)`, which its record schema `document` describes. */
function source<Row extends { id: number; deleted_at: unknown }, Document extends z.ZodObject>(
  kind: OperationKind,
  table: SyncSource['table'],
  json: (row: Row) => z.output<Document>,
  document: Document,
  references: ReferenceNames,
): SyncSource {
  return {
    kind,
    table,
    companyColumn: 'company_id',
    named: isNamedKind(kind) ? { kind, references } : undefined,
    document,
    async toDocuments(_db, rows) {
      return (rows as unknown as Row[]).map((row) => ({ ...json(row), id: String(row.id), _deleted: row.deleted_at !== null }));
    },
  };
}

export const operationsCollection: SyncCollection = {
  name: 'operations',
  tables: ['trays', 'tray_templates', 'grid_templates', 'plant_moves', 'spray_products', 'treatments', 'spray_applications', 'ai_models', 'box_videos', 'scans', 'scan_boxes'],
  sources: [
    source('tray', 'trays', trayJson, trayRecord, { tray_id: 'tray', batch_id: 'batch' }),
    source('tray_template', 'tray_templates', trayTemplateJson, trayTemplateRecord, { template_id: 'tray_template', default_batch_id: 'batch' }),
    source('grid_template', 'grid_templates', gridTemplateJson, gridTemplateRecord, { template_id: 'grid_template' }),
    source('plant_move', 'plant_moves', plantMoveJson, plantMoveRecord, {
      movement_id: 'plant_move',
      sub_gridbox_id: 'sub_gridbox',
      from_parent_gridbox_id: 'grid_box',
      to_parent_gridbox_id: 'grid_box',
    }),
    source('spray_product', 'spray_products', sprayProductJson, sprayProductRecord, { product_id: 'spray_product' }),
    source('treatment', 'treatments', treatmentJson, treatmentRecord, { treatment_id: 'treatment', product_id: 'spray_product' }),
    source('spray_application', 'spray_applications', sprayApplicationJson, sprayApplicationRecord, { application_id: 'spray_application', product_id: 'spray_product', Grid_boxIDs: 'grid_box' }),
    // The company's image models (issue 17), every version, so the scan screen knows labels and input
    // sizes offline. Only the server makes them: they keep the server's ids (`ai_model:<id>`).
    source('ai_model', 'ai_models', aiModelJson, aiModelRecord, {}),
    // Videos of boxes and rows (issue 17), so a box's history shows them offline; a tablet names them by
    // the client id it gave them when recording.
    source('video', 'box_videos', videoJson, videoRecord, { video_id: 'video', room_id: 'room', grid_id: 'grid', grid_box_id: 'grid_box' }),
    // Recent scan sessions with their boxes (issue 17; scans/collection.ts says what a document holds).
    scanSource,
  ],
};
