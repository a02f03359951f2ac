/**
 * The database's tables as Kysely sees them. Columns that every synced table carries (ids, audit
 * columns, change tracking and tombstones) are `SyncColumns`; `change_seq`/`change_xid` are written by
 * the `track_change` trigger only (migrations.ts), never by application code.
 */
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Role } from '../../common/roles';
import type { CommandAction, CommandLanguage } from '../../common/commands/actions';
import type { CameraImageSource, CameraKind, CameraState } from '../../common/messages/cameras';
import type { CameraAnalysis } from '../../common/schemas/cameras';
import type { ScanFinding, ScanMark, ScanSummary, ScanType, TrapCounts } from '../../common/schemas/scans';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type ReadOnly<T> = ColumnType<T, never, never>;

export interface SyncColumns {
  /** The record's permanent uuid (migration 0006): chosen by the tablet that made it, else by the writer. */
  client_id: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: number | null;
  updated_by: number | null;
  deleted_at: Timestamp | null;
  change_seq: ReadOnly<number>;
  change_xid: ReadOnly<string>;
}

export interface CompaniesTable extends SyncColumns {
  id: Generated<number>;
  name: string;
  contact_name: string | null;
  contact_email: string | null;
  company_type: string | null;
  contact_phone: string | null;
  grid_order: Generated<string>;
  grid_opacity: Generated<number>;
  offline_mode: Generated<number>;
  ai_model: Generated<string>;
  auto_refresh: Generated<number>;
  stickytrap_render: Generated<number>;
  language: Generated<string>;
  max_sub_gridboxes: Generated<number>;
  /** The dashboard's slots (migration 0010): saved reports, or null for an empty slot. */
  dashboard_report_id1: number | null;
  dashboard_report_id2: number | null;
  dashboard_report_id3: number | null;
  dashboard_report_id4: number | null;
}

export interface UsersTable extends SyncColumns {
  id: Generated<number>;
  /** Null for a Consultant only (migration 0024): a consultant belongs to no company; grants give them access. */
  company_id: number | null;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  password_hash: string;
  threshold: number | null;
  location: string | null;
}

export interface RefreshTokensTable {
  id: Generated<number>;
  user_id: number;
  family_id: string;
  token_hash: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  replaced_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /** The company a Consultant's session acts in (migration 0024); null for company members. */
  company_id: number | null;
}

export interface InvitationsTable {
  id: Generated<number>;
  company_id: number;
  email: string;
  role: Role;
  token_hash: string;
  expires_at: Timestamp;
  accepted_at: Timestamp | null;
  created_by: number;
  created_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: Timestamp;
}

export interface AuditEventsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  user_id: number | null;
  event_title: string;
  room_id: number | null;
  batch_id: number | null;
  response_id: number | null;
  grid_box_id: Generated<number | null>;
  details: unknown | null;
  /** The Idempotency-Key of the request that recorded it (the tablet change it came from). */
  idempotency_key: Generated<string | null>;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response: unknown | null;
  created_at: Timestamp;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface FilesTable {
  id: Generated<string>;
  company_id: number;
  storage_key: string;
  content_type: string;
  size_bytes: number;
  original_name: string | null;
  created_by: number | null;
  created_at: Timestamp;
}

interface ScanState {
  scanned: Generated<boolean>;
  scanned_at: Timestamp | null;
  last_scanned_by: number | null;
}

export interface RoomsTable extends SyncColumns, ScanState {
  id: Generated<number>;
  company_id: number;
  name: string;
  description: string;
  whiteboard_image: string | null;
  start_scroll: Generated<number>;
}

export interface WhiteboardImagesTable {
  id: Generated<number>;
  company_id: number;
  room_id: number;
  file_id: string;
  uploaded_by: number | null;
  created_at: Timestamp;
}

export interface GridsTable extends SyncColumns, ScanState {
  id: Generated<number>;
  company_id: number;
  room_id: number;
  name: string;
  description: string | null;
  nx: number;
  ny: number;
  image_name: string | null;
}

/** Its client id is in `grid_box_client_ids` (migration 0006 says why). */
export interface GridBoxesTable extends Omit<SyncColumns, 'client_id'> {
  id: Generated<number>;
  company_id: number;
  grid_id: number;
  x: number;
  y: number;
  color: string | null;
  status: string | null;
  content: string | null;
  image_name: string | null;
  custom_name: string | null;
  culled: Generated<boolean>;
  culled_by: number | null;
  culled_at: Timestamp | null;
}

/** A grid box's client id (common/client-ids.ts `boxClientId`), written with the box, never changed. */
export interface GridBoxClientIdsTable {
  client_id: string;
  company_id: number;
  grid_box_id: number;
}

export interface SubGridboxesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  parent_gridbox_id: number;
  subx: number;
  suby: number;
  plant_id: string | null;
  custom_name: string | null;
  color: string | null;
  status: string | null;
  content: string | null;
  image_name: string | null;
}

/**
 * A scan session (migration 0017): one walk of a grid (or one camera image) by one user with one model.
 * grid_box_id, file_id, model and result are the per-box columns of migration 0002, kept for rows made
 * before; a session's boxes are scan_boxes rows.
 */
export interface ScansTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  room_id: number | null;
  grid_id: number | null;
  grid_box_id: number | null;
  file_id: string | null;
  model: string | null;
  result: unknown | null;
  user_id: number | null;
  scan_type: Generated<ScanType>;
  model_key: string | null;
  model_name: string | null;
  model_version: string | null;
  /** When the scan was made: the act's time. */
  scanned_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Written as JSON text; `{}` on rows made before migration 0017 (scans/session-queries.ts `summaryOf` reads both). */
  summary: ColumnType<Partial<ScanSummary>, string | undefined, string>;
}

/** A box's photo in a scan session, with the model's findings or the trap's marks and counts (migration 0017). */
export interface ScanBoxesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  scan_id: number;
  grid_box_id: number;
  file_id: string;
  captured_at: Timestamp;
  /** Written as JSON text, as the schemas of common/schemas/scans.ts describe them. */
  findings: ColumnType<ScanFinding[], string | undefined, string>;
  marks: ColumnType<ScanMark[], string | undefined, string>;
  counts: ColumnType<TrapCounts | null, string | null | undefined, string | null>;
  form_response_id: number | null;
}

export interface BatchesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  batch_number: string;
  number_of_plants: number;
  strain_name: string | null;
  batch_status: string;
  color: string | null;
  start_date: string | null;
  end_date: string | null;
  harvested_at: Timestamp | null;
  harvested_by: number | null;
}

interface BatchLink {
  batch_id: number;
  company_id: number;
  created_by: number | null;
  created_at: Timestamp;
}
export interface BatchRoomsTable extends BatchLink {
  room_id: number;
}
export interface BatchGridsTable extends BatchLink {
  grid_id: number;
}
export interface BatchGridBoxesTable extends BatchLink {
  grid_box_id: number;
}

export interface CustomBatchStatusesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  name: string;
}

export interface BatchProblemsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  batch_id: number;
  room_id: number | null;
  problem_type: string;
  severity: number;
  notes: string | null;
  user_id: number | null;
  resolved_at: Timestamp | null;
  resolved_by: number | null;
}

export interface BatchEventsTable {
  id: Generated<number>;
  company_id: number;
  batch_id: number;
  kind: string;
  from_room_id: number | null;
  to_room_id: number | null;
  details: unknown | null;
  user_id: number | null;
  created_at: Timestamp;
}

export interface PlantMovesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  plant_uid: string;
  sub_gridbox_id: number | null;
  from_parent_gridbox_id: number | null;
  to_parent_gridbox_id: number;
  from_subx: number | null;
  from_suby: number | null;
  to_subx: number;
  to_suby: number;
  movement_reason: string | null;
  notes: string | null;
  user_id: number | null;
}

export interface GridTemplatesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  template_name: string;
  template_type: 'Grid' | 'SubGrid';
  rows: number;
  columns: number;
  description: string | null;
  user_id: number | null;
}

export interface TraysTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  tray_name: string;
  number_of_plants: number;
  batch_id: number | null;
  user_id: number | null;
}

export interface TrayTemplatesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  template_name: string;
  number_of_plants: number;
  description: string | null;
  default_batch_id: number | null;
  user_id: number | null;
}

export interface FormTemplatesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  template_name: string;
  form_category: Generated<string>;
  page_css: string | null;
  is_default: Generated<boolean>;
  user_id: number | null;
}

export interface FormFieldsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  template_id: number;
  field_name: string;
  field_type: string;
  field_options: ColumnType<unknown, string | undefined, string>;
  report_id: number | null;
  css_class: string | null;
  is_required: Generated<number>;
  position: Generated<number>;
  is_active: Generated<number>;
}

export interface FormFieldHideRulesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  template_id: number;
  hidden_field_id: number;
  linked_field_id: number;
  linked_input: Generated<string>;
}

export interface FormResponsesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  template_id: number;
  grid_box_id: number | null;
  room_id: number | null;
  batch_id: number | null;
  submitted_by: number | null;
  submitted_at: Timestamp;
}

export interface FormFieldResponsesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  response_id: number;
  field_id: number;
  input_data: string | null;
}

export interface FormResponseImagesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  response_id: number;
  field_id: number | null;
  file_id: string;
}

/** A correction of a submitted form response (migration 0023): created_by corrected it, at created_at, for the reason. */
export interface FormCorrectionsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  response_id: number;
  reason: string;
}

/** A field's answer before and after a correction (migration 0023). */
export interface FormCorrectionValuesTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  correction_id: number;
  field_id: number;
  previous_value: string | null;
  corrected_value: string | null;
}

export interface DB {
  companies: CompaniesTable;
  users: UsersTable;
  refresh_tokens: RefreshTokensTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  audit_events: AuditEventsTable;
  idempotency_keys: IdempotencyKeysTable;
  server_secrets: ServerSecretsTable;
  files: FilesTable;
  rooms: RoomsTable;
  whiteboard_images: WhiteboardImagesTable;
  grids: GridsTable;
  grid_boxes: GridBoxesTable;
  grid_box_client_ids: GridBoxClientIdsTable;
  sub_gridboxes: SubGridboxesTable;
  scans: ScansTable;
  scan_boxes: ScanBoxesTable;
  batches: BatchesTable;
  batch_rooms: BatchRoomsTable;
  batch_grids: BatchGridsTable;
  batch_grid_boxes: BatchGridBoxesTable;
  custom_batch_statuses: CustomBatchStatusesTable;
  batch_problems: BatchProblemsTable;
  batch_events: BatchEventsTable;
  plant_moves: PlantMovesTable;
  grid_templates: GridTemplatesTable;
  trays: TraysTable;
  tray_templates: TrayTemplatesTable;
  form_templates: FormTemplatesTable;
  form_fields: FormFieldsTable;
  form_field_hide_rules: FormFieldHideRulesTable;
  form_responses: FormResponsesTable;
  form_field_responses: FormFieldResponsesTable;
  form_response_images: FormResponseImagesTable;
  form_corrections: FormCorrectionsTable;
  form_correction_values: FormCorrectionValuesTable;
  plant_problems: PlantProblemsTable;
  problem_color_mappings: ProblemColorMappingsTable;
  custom_solutions: CustomSolutionsTable;
  spray_products: SprayProductsTable;
  treatments: TreatmentsTable;
  spray_applications: SprayApplicationsTable;
  saved_reports: SavedReportsTable;
  report_shares: ReportSharesTable;
  task_automations: TaskAutomationsTable;
  tasks: TasksTable;
  response_comments: ResponseCommentsTable;
  notification_deliveries: NotificationDeliveriesTable;
  notifications: NotificationsTable;
  ai_models: AiModelsTable;
  video_uploads: VideoUploadsTable;
  box_videos: BoxVideosTable;
  cameras: CamerasTable;
  camera_images: CameraImagesTable;
  camera_device_tokens: CameraDeviceTokensTable;
  weather_places: WeatherPlacesTable;
  weather_days: WeatherDaysTable;
  company_subscriptions: CompanySubscriptionsTable;
  stripe_events: StripeEventsTable;
  commands: CommandsTable;
  consultant_access: ConsultantAccessTable;
}

/** A company's grant of read-only access to an outside consultant (migration 0024; server/domains/consultants). */
export interface ConsultantAccessTable {
  id: Generated<number>;
  company_id: number;
  /** The consultant's account, once the invitation is accepted. */
  consultant_id: number | null;
  email: string;
  token_hash: string;
  invited_by: number;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_by: number | null;
  accepted_at: Timestamp | null;
  last_used_at: Timestamp | null;
  created_at: Timestamp;
}

/** A command given through the command bar, with the actions the tablet read from it (migration 0021). */
export interface CommandsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  user_id: number;
  command: string;
  /** Written as JSON text. */
  parsed: ColumnType<CommandAction[], string | undefined, string>;
  language: CommandLanguage;
  /** When the command was given: the act's time. */
  acted_at: Timestamp;
}

/** A problem seen on a plant (migration 0008). */
export interface PlantProblemsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  room_id: number;
  grid_id: number;
  grid_box_id: number;
  sub_gridbox_id: number | null;
  problem_type: string;
  problem_slug: string | null;
  severity: number;
  notes: string | null;
  image_name: string | null;
  source: Generated<'manual' | 'form' | 'scan'>;
  form_response_id: number | null;
  user_id: number | null;
  observed_at: Timestamp;
  status: Generated<'unresolved' | 'resolved' | 'dismissed' | 'treated'>;
  status_at: Timestamp | null;
  status_by: number | null;
}

/** A company's colour and abbreviation for a problem type (migration 0008). */
export interface ProblemColorMappingsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  problem: string;
  color: string | null;
  abbreviation: string | null;
  /** The other fields a mapping was sent with; written as JSON text. */
  extras: ColumnType<Record<string, unknown>, string | undefined, string>;
}

/** A company's own solution to a catalogue problem (migration 0008). */
export interface CustomSolutionsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  problem_slug: string;
  solution: string;
  user_id: number | null;
}

/** A spray product (migration 0009). */
export interface SprayProductsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  name: string;
  active_ingredient: string | null;
  rate: number | null;
  rate_unit: string | null;
  reentry_hours: number | null;
  preharvest_days: number | null;
  /** Written as JSON text. */
  details: ColumnType<Record<string, unknown>, string | undefined, string>;
}

export interface TreatmentsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  treatment_type: string;
  sub_type: string | null;
  product_id: number;
  /** Written as JSON text. */
  data: ColumnType<Record<string, unknown>, string | undefined, string>;
  removed_at: Timestamp | null;
  user_id: number | null;
}

export interface SprayApplicationsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  product_id: number | null;
  product_name: string;
  application_date: Timestamp;
  quantity_used: number;
  quantity_unit: string | null;
  notes: string | null;
  grid_box_ids: number[];
  reentry_until: Timestamp | null;
  preharvest_until: Timestamp | null;
  user_id: number | null;
}

/** A saved report (migration 0010); its author is `created_by`. */
export interface SavedReportsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  report_name: string;
  chart_type: string;
  report_type: string | null;
  /** Written as JSON text. */
  report_data: ColumnType<unknown, string, string>;
  /** Written as JSON text. */
  filters: ColumnType<unknown, string | null, string | null>;
  room_ids: number[];
  /** When report_data was computed (the save's act time); updated_at moves with any change. */
  computed_at: ColumnType<Date, Date | undefined, Date>;
}

/** A read-only link to a saved report (migration 0010): only its token's hash is kept. */
export interface ReportSharesTable {
  id: Generated<number>;
  company_id: number;
  report_id: number;
  token_hash: string;
  created_by: number;
  created_at: Timestamp;
  revoked_at: Timestamp | null;
  revoked_by: number | null;
}

/** A rule that makes a task when a form field's answer holds a keyword (migration 0013). */
export interface TaskAutomationsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  template_id: number;
  form_field_id: number;
  keyword: string;
  task_template_id: number;
  assignee_user_id: number | null;
  title: string | null;
  description: string | null;
}

export type TaskStatusColumn = 'open' | 'in_progress' | 'done';

/** A task made from a form response (migration 0013): at most one live task per response. */
export interface TasksTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  response_id: number;
  /** The response's form. */
  template_id: number;
  /** The Task form the work follows, when one was chosen. */
  task_template_id: number | null;
  title: string;
  description: Generated<string>;
  assignee_user_id: number | null;
  status: Generated<TaskStatusColumn>;
  due_at: Timestamp | null;
  closed_at: Timestamp | null;
  closed_by: number | null;
  /** The automation that made it, if one did. */
  automation_id: number | null;
}

/** A comment on a form response (migration 0013); its author is user_id. */
export interface ResponseCommentsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  response_id: number;
  user_id: number | null;
  comment_text: string;
  edited_at: Timestamp | null;
}

export type DeliveryMethod = 'email' | 'Slack' | 'Microsoft Teams';
export type DeliveryStatus = 'queued' | 'sent' | 'failed' | 'retrying';

/** A notification's delivery (migration 0014): the outbox row and its log entry (server/notifications/delivery.ts). */
export interface NotificationDeliveriesTable {
  id: Generated<number>;
  company_id: number;
  notification_id: number | null;
  trigger_key: string;
  method: DeliveryMethod;
  /** E-mail addresses joined by ';', or the webhook URL. */
  recipient: string;
  subject: string;
  body: string;
  html: string | null;
  /** Written as JSON text. */
  attachment: ColumnType<{ filename: string; content: string; contentType: string } | null, string | null, string | null>;
  /** Written as JSON text. */
  link: ColumnType<{ url: string; label: string } | null, string | null, string | null>;
  status: Generated<DeliveryStatus>;
  attempts: Generated<number>;
  last_error: string | null;
  next_try_at: Timestamp | null;
  sent_at: Timestamp | null;
  created_at: Generated<Date>;
  acted_at: Timestamp;
  job_id: string | null;
}

export type NotificationTriggerColumn = 'problem_recorded' | 'form_submitted' | 'keyword' | 'task_assigned' | 'task_done' | 'template_due' | 'weekly_report';
export type FrequencyColumn = 'daily' | 'weekly' | 'monthly';

/**
 * A notification rule (migration 0015): the method's own recipient column is set, and the columns its
 * trigger uses (common/schemas/automations.ts `NotificationRule`); the rest are null.
 */
export interface NotificationsTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  method: DeliveryMethod;
  /** E-mail addresses joined by ';'. */
  email_recipient: string | null;
  slack_webhook_url: string | null;
  teams_webhook_url: string | null;
  trigger: NotificationTriggerColumn;
  problem_type: string | null;
  room_id: number | null;
  form_category: string | null;
  template_id: number | null;
  form_field_id: number | null;
  keyword: string | null;
  frequency: FrequencyColumn | null;
  /** ISO weekday: 1 Monday … 7 Sunday. */
  weekday: number | null;
  day_of_month: number | null;
  /** "HH:MM", UTC. */
  notification_time: string | null;
  report_duration_weeks: number | null;
}

/**
 * One version of a company's uploaded image classifier (migration 0016). No client id: only the server
 * makes them (an Admin's upload, online).
 */
export interface AiModelsTable extends Omit<SyncColumns, 'client_id'> {
  id: Generated<number>;
  company_id: number;
  key: string;
  name: string;
  description: string | null;
  version: number;
  /** [{label, problem_slug}], in the output's order; written as JSON text. */
  labels: ColumnType<Array<{ label: string; problem_slug: string | null }>, string, string>;
  /** {width, height, layout, mean, std}; written as JSON text. */
  input: ColumnType<{ width: number; height: number; layout: 'NCHW' | 'NHWC'; mean: number[]; std: number[] }, string, string>;
  input_name: string;
  output_name: string;
  file_id: string;
  superseded_at: Timestamp | null;
}

/** An automated camera (migration 0019; server/domains/cameras). */
export interface CamerasTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  name: string;
  room_id: number;
  grid_id: number | null;
  grid_box_id: number | null;
  kind: CameraKind;
  /** WARNING: may hold credentials; never log it, answer it masked (cameras/snapshot-url.ts). */
  snapshot_url: string | null;
  interval_seconds: number;
  model_key: string | null;
  enabled: Generated<boolean>;
  next_capture_at: Timestamp | null;
  last_capture_at: Timestamp | null;
  last_error: string | null;
  failures: Generated<number>;
  state: Generated<CameraState>;
}

/** One image of a camera (migration 0019). `analysis` is written as JSON text. */
export interface CameraImagesTable extends SyncColumns {
  id: Generated<number>;
  camera_id: number;
  company_id: number;
  file_id: string;
  thumbnail_file_id: string | null;
  captured_at: Timestamp;
  analysis: ColumnType<CameraAnalysis | null, string | null | undefined, string | null>;
  source: CameraImageSource;
}

/** A phone camera's link (migration 0019): only the token's SHA-256 is kept. */
export interface CameraDeviceTokensTable {
  id: Generated<number>;
  camera_id: number;
  company_id: number;
  token_hash: string;
  created_by: number;
  created_at: Generated<Date>;
  revoked_at: Timestamp | null;
  revoked_by: number | null;
  last_used_at: Timestamp | null;
}

/**
 * What the server has so far of a video being uploaded in chunks (migration 0018): its first
 * `received_bytes` bytes, in the file store under `storage_key`. Not synced: the server's bookkeeping.
 */
export interface VideoUploadsTable {
  client_id: string;
  company_id: number;
  user_id: number;
  what: 'box' | 'row';
  room_id: number;
  grid_id: number | null;
  grid_box_id: number | null;
  row_number: number | null;
  duration_ms: number;
  size_bytes: number;
  received_bytes: Generated<number>;
  /** What the first chunk's bytes showed; null before it arrived. */
  content_type: 'video/webm' | 'video/mp4' | null;
  storage_key: string;
  started_at: Timestamp;
  updated_at: Timestamp;
}

/** A video of a box, or of a row of a grid (migration 0018). */
export interface BoxVideosTable extends SyncColumns {
  id: Generated<number>;
  company_id: number;
  what: 'box' | 'row';
  room_id: number;
  grid_id: number | null;
  grid_box_id: number | null;
  row_number: number | null;
  file_id: string;
  content_type: 'video/webm' | 'video/mp4';
  size_bytes: number;
  duration_ms: number;
  /** When the grower recorded it: the act's time. */
  recorded_at: Timestamp;
  recorded_by: number | null;
}

/** A place name and what Open-Meteo's geocoding resolved it to (migration 0020): kept for good. */
export interface WeatherPlacesTable {
  /** The name as asked: spaces collapsed, lower case. */
  query: string;
  name: string;
  country: string | null;
  latitude: number;
  longitude: number;
  /** The place's time zone, when geocoding says (else the weather's answer says it). */
  timezone: string | null;
  fetched_at: Timestamp;
}

/** One local day's weather at a point rounded to 0.01° (migration 0020; server/domains/weather/cache.ts). */
export interface WeatherDaysTable {
  latitude: number;
  longitude: number;
  /** yyyy-mm-dd (DATE is read as text: server/db/database.ts). */
  day: string;
  timezone: string;
  temperature_max: number | null;
  temperature_min: number | null;
  temperature_mean: number | null;
  humidity_mean: number | null;
  precipitation: number | null;
  weather_code: number | null;
  source: 'forecast' | 'archive';
  /** The day was over everywhere when fetched: kept for good. Otherwise stale an hour after `fetched_at`. */
  final: boolean;
  fetched_at: Timestamp;
}

/** A company's subscription as Stripe last said it (migration 0022; server/domains/payments). */
export interface CompanySubscriptionsTable {
  id: Generated<number>;
  company_id: number;
  plan: 'monthly' | 'yearly';
  /** Stripe's status of the subscription (`active`, `past_due`, `canceled`, …). */
  status: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  /** The end of the paid period: the renewal date. */
  current_period_end: Timestamp | null;
  /** When the server read from Stripe the state the row holds: an older read does not overwrite it. */
  stripe_state_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A Stripe event handled (migration 0022): each is applied once, however often Stripe delivers it. */
export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: Timestamp;
}

export type Company = Selectable<CompaniesTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type AuditEvent = Selectable<AuditEventsTable>;
export type Room = Selectable<RoomsTable>;
export type Grid = Selectable<GridsTable>;
export type GridBox = Selectable<GridBoxesTable>;
export type SubGridbox = Selectable<SubGridboxesTable>;
export type Batch = Selectable<BatchesTable>;
