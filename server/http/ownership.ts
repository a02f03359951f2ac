/**
 * Which parameter names carry which kind of record, and where each kind's owning company is. The
 * tenancy guard (guards.ts) reads this one table for every request; a domain adds its kinds and its
 * parameter names here instead of checking ownership in its handlers.
 */
export interface OwnedKind {
  table: string;
  idColumn: string;
  /** Column holding the owning company's id; for the company kind itself, no lookup is needed. */
  companyColumn: string;
  /** Tombstoned records count as missing. */
  softDeleted: boolean;
}

export const OWNED_KINDS = {
  company: { table: 'companies', idColumn: 'id', companyColumn: 'id', softDeleted: true },
  user: { table: 'users', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  invitation: { table: 'invitations', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  audit_event: { table: 'audit_events', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  room: { table: 'rooms', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  grid: { table: 'grids', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  grid_box: { table: 'grid_boxes', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  sub_gridbox: { table: 'sub_gridboxes', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  scan: { table: 'scans', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  batch: { table: 'batches', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  grid_template: { table: 'grid_templates', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  tray: { table: 'trays', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  tray_template: { table: 'tray_templates', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  form_template: { table: 'form_templates', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  form_field: { table: 'form_fields', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  form_response: { table: 'form_responses', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
} satisfies Record<string, OwnedKind>;

export type OwnedKindName = keyof typeof OWNED_KINDS;

/** Parameter names (query, body or path) and the kind of record they name, as the spec spells them. */
export const OWNED_PARAMETERS: Record<string, OwnedKindName> = {
  company_id: 'company',
  CompanyID: 'company',
  companyID: 'company',
  ncompany_id: 'company',
  user_id: 'user',
  userID: 'user',
  UserID: 'user',
  user_ID: 'user',
  submittedBy: 'user',
  invitation_id: 'invitation',
  room_id: 'room',
  RoomID: 'room',
  roomID: 'room',
  nroom_id: 'room',
  old_room_id: 'room',
  new_room_id: 'room',
  room_ids: 'room',
  grid_id: 'grid',
  GridID: 'grid',
  gridID: 'grid',
  grid_box_id: 'grid_box',
  grid_box_ids: 'grid_box',
  GridBoxID: 'grid_box',
  GridBoxIDs: 'grid_box',
  Grid_boxID: 'grid_box',
  gridbox_id: 'grid_box',
  parent_gridbox_id: 'grid_box',
  target_parent_gridbox_id: 'grid_box',
  sub_gridbox_id: 'sub_gridbox',
  scan_id: 'scan',
  batch_id: 'batch',
  batchId: 'batch',
  BatchID: 'batch',
  batchid: 'batch',
  batch_ids: 'batch',
  default_batch_id: 'batch',
  tray_id: 'tray',
  response_id: 'form_response',
  field_id: 'form_field',
  fieldID: 'form_field',
  FieldID: 'form_field',
  form_field_hidden_FieldID: 'form_field',
  form_field_linked_FieldID: 'form_field',
  // `template_id` names a grid, tray or form template depending on the route: routes declare it (`config.owns`).
};
