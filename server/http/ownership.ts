/**
 * Which parameter names carry which kind of record, and where each kind's owning company is. The
 * tenancy guard (guards.ts) reads this one table for every request; a domain adds its kinds and its
 * parameter names here instead of checking ownership in its handlers.
 *
 * A name counts wherever it stands in the request: in the path, the query, the body, or nested in
 * the body's objects and arrays at any depth (`fieldResponses[].fieldID`, `updatedFields[].FieldID`),
 * as client ids are resolved (client-ids.ts). So a record-naming field is declared once, by its name,
 * whether a call sends it alone or inside a list; a push's proofs (guards.ts `ownedAhead`) read its
 * entries the same way. tests/server/tenancy.test.ts fails for a field named like an id (`…id`,
 * `…ids`) in any route's schema that is neither known here (or to its route's `config.owns`) nor
 * exempted there with a reason.
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
  /**
   * A form field as a submission's answers name it: one deleted since the form was filled still
   * counts (its template was deleted meanwhile: the answers are a grower's observation and are kept,
   * README "Forms offline"), so only another company's field (403) or one that never was (404) is
   * refused.
   */
  answered_form_field: { table: 'form_fields', idColumn: 'id', companyColumn: 'company_id', softDeleted: false },
  form_response: { table: 'form_responses', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  plant_problem: { table: 'plant_problems', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  spray_product: { table: 'spray_products', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  saved_report: { table: 'saved_reports', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  /**
   * A read-only link to a saved report. Revoking one keeps its row (`revoked_at`; its Admins still see
   * it listed, and revoking it again answers that it already is), so a revoked link is not missing.
   */
  report_share: { table: 'report_shares', idColumn: 'id', companyColumn: 'company_id', softDeleted: false },
  task: { table: 'tasks', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  response_comment: { table: 'response_comments', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  notification: { table: 'notifications', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  ai_model: { table: 'ai_models', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  camera: { table: 'cameras', idColumn: 'id', companyColumn: 'company_id', softDeleted: true },
  camera_device_token: { table: 'camera_device_tokens', idColumn: 'id', companyColumn: 'company_id', softDeleted: false },
  /** A company's grant to an outside consultant (issue 18): kept when revoked or expired, so never missing once made. */
  consultant_access: { table: 'consultant_access', idColumn: 'id', companyColumn: 'company_id', softDeleted: false },
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
  Grid_boxIDs: 'grid_box',
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
  // The answers of the four submissions (`fieldResponses[].fieldID`).
  fieldID: 'answered_form_field',
  // The fields update_form_template changes in place (`updatedFields[].FieldID`).
  FieldID: 'form_field',
  form_field_hidden_FieldID: 'form_field',
  form_field_linked_FieldID: 'form_field',
  // A problem recorded on a plant (manage_problem's problemID). The catalogue's problem_id names global
  // content, not a company's record: add_custom_solution declares it (`config.owns` exempts it).
  problemID: 'plant_problem',
  product_id: 'spray_product',
  // Tasks and comments (issue 16). `submission_id` (update_task_description_title) and the forms a task
  // automation names (`template_id`, `form_field_id`, `task_template_id`) are declared by their routes.
  task_id: 'task',
  assignee_user_id: 'user',
  ResponseID: 'form_response',
  CommentID: 'response_comment',
  // Notification rules (issue 16). A rule saved again is named `id` by its calls, which declare it (`config.owns`).
  notification_id: 'notification',
  // A company's uploaded image model (issue 17).
  model_id: 'ai_model',
  // Automated cameras (issue 17); revoke_camera_device_token declares its token_id (`config.owns`).
  camera_id: 'camera',
  // A consultant's grant (issue 18, server/domains/consultants).
  access_id: 'consultant_access',
  // `template_id` names a grid, tray or form template depending on the route: routes declare it (`config.owns`).
  // `report_id` too: a saved report in the saved reports' calls (reports/saved-routes.ts declares it and
  // the dashboard's report_id1..report_id4), but a chart group number in a form template's fields.
};

/**
 * Every field under `value` whose name `names` declares, at any depth: the one way a request's
 * record-naming fields are found, by the tenancy guard (guards.ts) and by the resolution of client
 * ids (client-ids.ts). `visit` gets the object holding the field, its name and the kind it names. A
 * declared field's value holds ids and is not searched further; any other object or array is. Only a
 * name of the table's own counts (not `constructor` or another name every object inherits); files
 * (Buffers) are bytes.
 */
export function forEachNamedField(
  value: unknown,
  names: Readonly<Record<string, OwnedKindName>>,
  visit: (holder: Record<string, unknown>, key: string, kind: OwnedKindName) => void,
): void {
  if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return;
  if (Array.isArray(value)) {
    for (const item of value) forEachNamedField(item, names, visit);
    return;
  }
  const holder = value as Record<string, unknown>;
  for (const [key, item] of Object.entries(holder)) {
    const kind = Object.hasOwn(names, key) ? names[key] : undefined;
    if (kind) visit(holder, key, kind);
    else forEachNamedField(item, names, visit);
  }
}
