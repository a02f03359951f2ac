/**
 * The local store's collections (ARCHITECTURE.md "The local store"): aggregates, each child inside its
 * parent's document, at most 12 collections (the open-source RxDB refuses a 14th in one process).
 *
 * The spec's offline store (part 1 §3, part 2 §3) maps onto them as follows:
 * - `rooms` → rooms; `grids` → grids (the room link is the grid's `RoomID`, so `room_grid` needs no
 *   table of its own); `grid_boxes` → grid_boxes (culled flag, batch links and sub-gridboxes inside);
 * - `formTemplates` and `formFields` → form_templates (fields inside the template);
 * - `offlineFormResponses` and `offlineFieldResponses` → form_responses (field responses inside);
 * - `problemColorMapping` → company (with the settings, users and custom batch statuses);
 * - `createRoomQueue` (and every other queued write) → the outbox (sync/outbox.ts), not a collection.
 *
 * Documents are the server's (GET /api/sync/pull, `naming=client`: every record the tablet can make is
 * named by its client id, in its `id` and in every field that refers to it, its integer id kept as
 * `serverId`) plus string link keys (`roomId`, `gridId`, …) that the screens query by. Automations are added with
 * their area; the name is reserved below.
 */
import type { RxJsonSchema } from 'rxdb';

type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'any';

/** Declared fields are nullable unless they are keys: the server sends null for what is not set. */
function properties(fields: Record<string, FieldType>) {
  return Object.fromEntries(
    Object.entries(fields).map(([name, type]) => [name, type === 'any' ? {} : { type: [type, 'null'] }]),
  );
}

const key = { type: 'string', maxLength: 100 } as const;

export type LocalDocument = Record<string, unknown> & { id: string };

function schema(title: string, fields: Record<string, FieldType>, keys: string[] = [], indexes: string[][] = []): RxJsonSchema<LocalDocument> {
  return {
    title,
    version: 0,
    primaryKey: 'id',
    type: 'object',
    properties: { id: key, ...properties({ serverId: 'number', ...fields }), ...Object.fromEntries(keys.map((name) => [name, key])) },
    required: ['id', ...keys],
    indexes,
  } as RxJsonSchema<LocalDocument>;
}

export const SCHEMAS = {
  company: schema('company', {
    company_id: 'number',
    company_name: 'string',
    contact_name: 'string',
    contact_email: 'string',
    contact_phone: 'string',
    company_type: 'string',
    settings: 'object',
    users: 'array',
    custom_batch_statuses: 'array',
    created_at: 'string',
  }),
  rooms: schema('rooms', {
    RoomID: 'any',
    CompanyID: 'number',
    Name: 'string',
    Description: 'string',
    CreatedDateTime: 'string',
    UpdatedDateTime: 'string',
    Scanned: 'boolean',
    ScannedDateTime: 'string',
    LastScannedBy: 'number',
    WhiteboardImage: 'string',
    StartScroll: 'number',
  }),
  grids: schema(
    'grids',
    {
      Name: 'string',
      CompanyID: 'number',
      RoomID: 'any',
      CreatedDateTime: 'string',
      UpdatedDateTime: 'string',
      Description: 'string',
      ImageName: 'string',
      Scanned: 'boolean',
      ScannedDateTime: 'string',
      LastScannedBy: 'number',
      nx: 'number',
      ny: 'number',
    },
    ['roomId'],
    [['roomId']],
  ),
  grid_boxes: schema(
    'grid_boxes',
    {
      GridID: 'any',
      CompanyID: 'number',
      X: 'number',
      Y: 'number',
      Color: 'string',
      Status: 'string',
      Content: 'string',
      ImageName: 'string',
      CustomName: 'string',
      culled: 'boolean',
      CulledBy: 'number',
      CulledDateTime: 'string',
      BatchIDs: 'array',
      sub_gridboxes: 'array',
    },
    ['gridId'],
    [['gridId']],
  ),
  batches: schema('batches', {
    BatchID: 'any',
    CompanyID: 'number',
    BatchNumber: 'string',
    NumberOfPlants: 'number',
    StrainName: 'string',
    BatchStatus: 'string',
    Color: 'string',
    StartDate: 'string',
    EndDate: 'string',
    HarvestedAt: 'string',
    HarvestedBy: 'number',
    CreatedDateTime: 'string',
    UpdatedDateTime: 'string',
    RoomIDs: 'array',
    GridIDs: 'array',
    GridBoxIDs: 'array',
    open_problems: 'number',
    problems: 'array',
    history: 'array',
  }),
  /** Several small kinds (trays, tray templates, grid templates, plant moves; treatments later): `kind` tells which. */
  operations: schema('operations', { company_id: 'number', created_at: 'string', updated_at: 'string' }, ['kind'], [['kind']]),
  /** Saved reports with the data their charts were drawn from (common/schemas/saved-reports.ts), for viewing offline. */
  reports: schema('reports', { report_id: 'any', report_name: 'string', chart_type: 'string', report_data: 'array', filters: 'object', report_type: 'string', room_ids: 'array', company_id: 'number', user_id: 'number', created_at: 'string', updated_at: 'string', computed_at: 'string', dashboard_slot: 'number' }),
  audit_events: schema('audit_events', {
    EventID: 'any',
    CompanyID: 'number',
    UserID: 'number',
    UserName: 'string',
    EventTitle: 'string',
    RoomID: 'any',
    BatchID: 'any',
    response_id: 'any',
    GridBoxID: 'any',
    Details: 'any',
    CreatedAt: 'string',
    UpdatedAt: 'string',
  }),
  /** Templates with their fields and hide-until-link rules inside (spec's formTemplates and formFields). */
  form_templates: schema(
    'form_templates',
    {
      TemplateID: 'any',
      TemplateName: 'string',
      CompanyID: 'number',
      CreatedAt: 'string',
      FormCategory: 'string',
      PageCSS: 'string',
      IsDefault: 'boolean',
      fields: 'array',
      hide_rules: 'array',
    },
    ['category'],
    [['category']],
  ),
  /**
   * Responses with their answers and photos inside (spec's offlineFormResponses and
   * offlineFieldResponses): the server's recent window plus those made here and not yet sent, whose
   * photos wait as Blobs in their outbox entries.
   */
  form_responses: schema(
    'form_responses',
    {
      ResponseID: 'any',
      TemplateID: 'any',
      TemplateName: 'string',
      FormCategory: 'string',
      GridBoxID: 'any',
      RoomID: 'any',
      BatchID: 'any',
      SubmittedBy: 'number',
      SubmittedAt: 'string',
      fieldResponses: 'array',
      images: 'array',
    },
    ['gridBoxId', 'roomId'],
    [['gridBoxId'], ['roomId']],
  ),
  /**
   * Problems seen on grid boxes and on their plants (issue 14), open and closed: the box panel lists a
   * box's, the pest-pressure map a room's. Keyed by the problem's client id; a photo recorded here waits
   * as a Blob in its outbox entry (`image` stays null until the server's copy names the file).
   */
  plant_problems: schema(
    'plant_problems',
    {
      problem_id: 'any',
      company_id: 'number',
      room_id: 'any',
      grid_id: 'any',
      grid_box_id: 'any',
      sub_gridbox_id: 'any',
      problem_type: 'string',
      problem_slug: 'string',
      severity: 'number',
      notes: 'string',
      image: 'string',
      source: 'string',
      form_response_id: 'any',
      user_id: 'number',
      observed_at: 'string',
      status: 'string',
      status_at: 'string',
      status_by: 'number',
      created_at: 'string',
      updated_at: 'string',
      /** A photo recorded here that has not reached the server yet (the server's copy has no such field). */
      photo_pending: 'boolean',
    },
    ['roomId', 'gridId', 'gridBoxId'],
    [['roomId'], ['gridBoxId']],
  ),
} satisfies Record<string, RxJsonSchema<LocalDocument>>;

export type CollectionName = keyof typeof SCHEMAS;
export const COLLECTION_NAMES = Object.keys(SCHEMAS) as CollectionName[];

/** Collections the later areas add, counted now so the limit holds: 11 above + this one = 12. */
export const RESERVED_COLLECTIONS = ['automations'] as const;

/**
 * The string link keys of a document, from its references. Applied to every
 * pulled document and every optimistic write, so the screens' indexed queries see both alike.
 */
export function withLinkKeys(collection: CollectionName, document: LocalDocument): LocalDocument {
  switch (collection) {
    case 'grids':
      return { ...document, roomId: String(document.RoomID ?? '') };
    case 'grid_boxes':
      return { ...document, gridId: String(document.GridID ?? '') };
    case 'operations':
      return { ...document, kind: String(document.kind ?? '') };
    case 'form_templates':
      return { ...document, category: String(document.FormCategory ?? '') };
    case 'form_responses':
      return { ...document, gridBoxId: String(document.GridBoxID ?? ''), roomId: String(document.RoomID ?? '') };
    case 'plant_problems':
      return { ...document, roomId: String(document.room_id ?? ''), gridId: String(document.grid_id ?? ''), gridBoxId: String(document.grid_box_id ?? '') };
    default:
      return document;
  }
}
