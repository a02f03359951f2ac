/**
 * The titles of the audit events the server records (spec part 2 §3 "Audit event", issue 18): stored in
 * English, as the spec's field EventTitle, and shown in the reader's language by the audit trail
 * (src/features/audit/EventCard.tsx) through translateMessage (src/i18n/messages.ts): the English text
 * is the key in common/i18n/messages/{es,nl}.json, a title built around values by its pattern with the
 * values as {{0}}, {{1}}…. A title an Admin types by hand (add_audit_event, update_audit_event) is the
 * company's own text and shows as typed.
 *
 * WARNING: a function takes only the values it shows as they are (names, numbers, e-mail addresses,
 * moments already written out); the English around them is fixed per entry, so a title that reads
 * differently (each role, scan type, treatment type, action on problems, with a unit or without) is an
 * entry of its own, chosen at the call site. Never pass in a value built in English ("box 12"): it would
 * show in English in every language. The titles are stored: an entry whose English changes leaves the
 * events recorded before under the old words, which then show in English. Where two patterns
 * fit one title ("Created tray {{0}} ({{1}} plants)" fits "Created tray A from template B (6 plants)"),
 * translateMessage takes the one with the more fixed text.
 */
import { multiSelectAuditTitle } from './audit';
import { titlesHoldingParts, type Value } from './audit-title-parts';
import { KIND_LABELS, type CameraKind } from './cameras';
import type { FormCategory } from './forms';
import type { GridTemplateType } from './grid-templates';
import { PLAN_LABELS, type Plan, SUBSCRIPTION_STATUS_LABELS } from './payments';
import type { SCAN_TYPES } from './scans';
import type { GridOrder } from './settings';
import type { TreatmentType } from './treatments';
import type { BUILT_IN_BATCH_STATUSES } from '../batch-statuses';
import type { ProblemAction } from '../problem-statuses';
import type { INVITABLE_ROLES } from '../roles';

type ScanType = (typeof SCAN_TYPES)[number];
type InvitableRole = (typeof INVITABLE_ROLES)[number];
type BuiltInBatchStatus = (typeof BUILT_IN_BATCH_STATUSES)[number];

/** The titles of one camera kind (common/messages/cameras.ts KIND_LABELS names it after the camera's name). */
const camera = (kind: CameraKind) => ({
  added: (name: string) => `Added camera ${name} (${KIND_LABELS[kind]})`,
  changed: (name: string) => `Changed camera ${name} (${KIND_LABELS[kind]})`,
  deleted: (name: string) => `Deleted camera ${name} (${KIND_LABELS[kind]})`,
  madeDeviceLink: (name: string) => `Made a device link for camera ${name} (${KIND_LABELS[kind]})`,
  revokedDeviceLink: (name: string) => `Revoked a device link of camera ${name} (${KIND_LABELS[kind]})`,
});

/** The titles of one scan type, by the word the trail uses for it ("sticky-trap"); `model`: its name and version. */
const scan = (word: string) => ({
  startedOfGrid: (grid: string, room: string, model: string) => `Started a ${word} scan of grid ${grid} in room ${room} with ${model}`,
  startedOfRoom: (room: string, model: string) => `Started a ${word} scan of room ${room} with ${model}`,
  scannedBox: (box: string, scanId: Value) => `Scanned box ${box} in ${word} scan ${scanId}`,
  recordedProblem: {
    onBox: (problemType: string, severity: Value, box: string, model: string) => `Recorded ${problemType} (severity ${severity}) on box ${box} from a ${word} scan with ${model}`,
    onPlantOfBox: (problemType: string, severity: Value, box: string, model: string) =>
      `Recorded ${problemType} (severity ${severity}) on a plant of box ${box} from a ${word} scan with ${model}`,
  },
});

/** The titles of one action on problems (common/problem-statuses.ts), each beginning with what was done. */
const problemAction = (did: string) => ({
  /** One problem, by its type, on its box (named by id). */
  onBox: (count: Value, problemType: string, boxId: Value) => `${did} ${count} problem(s) (${problemType}) on box ${boxId}`,
  inRoom: (count: Value, room: string) => `${did} ${count} problem(s) in room ${room}`,
  inGrid: (count: Value, grid: string) => `${did} ${count} problem(s) in grid ${grid}`,
  ofTypeInRoom: (count: Value, problemType: string, room: string) => `${did} ${count} problem(s) of type ${problemType} in room ${room}`,
  ofTypeInGrid: (count: Value, problemType: string, grid: string) => `${did} ${count} problem(s) of type ${problemType} in grid ${grid}`,
});

/** The titles of a product's treatment of one type. */
const treatment = (type: TreatmentType) => ({
  created: (product: string) => `Created ${type} treatment for ${product}`,
  updated: (product: string) => `Updated ${type} treatment for ${product}`,
  removed: (product: string) => `Removed ${type} treatment for ${product}`,
  restored: (product: string) => `Restored ${type} treatment for ${product}`,
});

/** The titles of a subscription's change on one plan: by Stripe status (common/messages/payments.ts SUBSCRIPTION_STATUS_LABELS). */
const subscription = (plan: Plan) => {
  const titled = (status: string) => `Subscription: ${PLAN_LABELS[plan].toLowerCase()} plan, ${status}`;
  return {
    statuses: Object.fromEntries(Object.entries(SUBSCRIPTION_STATUS_LABELS).map(([status, label]) => [status, titled(label.toLowerCase())])) as Readonly<Record<string, string>>,
    /** A status this app has no words for, as Stripe names it (lower case, underscores as spaces). */
    other: (status: string) => titled(status),
  };
};

export const auditTitles = {
  // Audit events (corrections to the trail leave a trace of their own).
  editedAuditEvent: (eventId: Value) => `Edited audit event ${eventId}`,
  deletedAuditEvent: (eventId: Value) => `Deleted audit event ${eventId}`,

  // Companies, users, invitations, sign-up.
  createdCompany: (company: string) => `Created company ${company}`,
  /** The platform's own creation of a company with its first Admin (server/companies.ts, the demo). */
  createdCompanyWithAdmin: (company: string, email: string) => `Created company ${company} with Admin ${email}`,
  invited: {
    Regular: (email: string) => `Invited ${email} as Regular`,
    Admin: (email: string) => `Invited ${email} as Admin`,
  } satisfies Record<InvitableRole, (email: string) => string>,
  joined: {
    Regular: (firstName: string, lastName: string) => `${firstName} ${lastName} joined as Regular`,
    Admin: (firstName: string, lastName: string) => `${firstName} ${lastName} joined as Admin`,
  } satisfies Record<InvitableRole, (firstName: string, lastName: string) => string>,
  withdrewInvitation: (email: string) => `Withdrew the invitation of ${email}`,
  resetPassword: 'Reset password',
  setThreshold: (threshold: Value) => `Set threshold to ${threshold}`,
  updatedLocation: 'Updated location',

  // Consultants (`until`: a moment written out, "2025-06-30 17:00 UTC").
  invitedConsultant: (email: string, until: string) => `Invited consultant ${email} (read-only until ${until})`,
  revokedConsultant: (email: string) => `Revoked the consultant access of ${email}`,
  consultantAccepted: (firstName: string, lastName: string) => `Consultant ${firstName} ${lastName} accepted read-only access`,

  // Notifications (they hold the rule's description: audit-title-parts.ts).
  createdNotification: titlesHoldingParts.createdNotification,
  updatedNotification: titlesHoldingParts.updatedNotification,
  deletedNotification: titlesHoldingParts.deletedNotification,
  sentTestNotification: titlesHoldingParts.sentTestNotification,

  // Batches, their links, statuses and problems.
  createdBatch: (batchNumber: Value) => `Created batch ${batchNumber}`,
  updatedBatch: (batchNumber: Value) => `Updated batch ${batchNumber}`,
  deletedBatch: (batchNumber: Value) => `Deleted batch ${batchNumber}`,
  linkedBatchToRoom: (batchNumber: Value, room: string) => `Linked batch ${batchNumber} to room ${room}`,
  linkedBatchToGrid: (batchNumber: Value, grid: string) => `Linked batch ${batchNumber} to grid ${grid}`,
  linkedPlantToBatch: (batchNumber: Value) => `Linked plant to batch ${batchNumber}`,
  harvestedBatch: (batchNumber: Value) => `Harvested batch ${batchNumber}`,
  movedBatch: (batchNumber: Value, fromRoom: string, toRoom: string) => `Moved batch ${batchNumber} from ${fromRoom} to ${toRoom}`,
  setBatchStatus: {
    Propagation: (batchNumber: Value) => `Set batch ${batchNumber} to Propagation`,
    Vegetative: (batchNumber: Value) => `Set batch ${batchNumber} to Vegetative`,
    Flowering: (batchNumber: Value) => `Set batch ${batchNumber} to Flowering`,
    Drying: (batchNumber: Value) => `Set batch ${batchNumber} to Drying`,
    Curing: (batchNumber: Value) => `Set batch ${batchNumber} to Curing`,
    Harvested: (batchNumber: Value) => `Set batch ${batchNumber} to Harvested`,
    Destroyed: (batchNumber: Value) => `Set batch ${batchNumber} to Destroyed`,
  } satisfies Record<BuiltInBatchStatus, (batchNumber: Value) => string>,
  /** A status of the company's own (its name, as it wrote it). */
  setBatchCustomStatus: (batchNumber: Value, status: string) => `Set batch ${batchNumber} to ${status}`,
  addedBatchStatus: (status: string) => `Added batch status ${status}`,
  removedBatchStatus: (status: string) => `Removed batch status ${status}`,
  reportedBatchProblem: (problemType: string, severity: Value, batchNumber: Value) => `Reported ${problemType} (severity ${severity}) on batch ${batchNumber}`,
  resolvedBatchProblems: (count: Value, batchNumber: Value) => `Resolved ${count} problem(s) on batch ${batchNumber}`,
  resolvedBatchAndBoxProblems: (count: Value, batchNumber: Value, onBoxes: Value) => `Resolved ${count} problem(s) on batch ${batchNumber} and ${onBoxes} on its boxes and plants`,

  // Cameras, by kind.
  cameras: { ip: camera('ip'), device: camera('device') } satisfies Record<CameraKind, ReturnType<typeof camera>>,

  // Commands (`command`: as given, cut to a length).
  gaveCommand: (command: string) => `Gave the command "${command}"`,

  // Form templates, their rules, responses, photos and corrections.
  createdForm: (form: string, fields: Value) => `Created form template ${form} (${fields} fields)`,
  updatedForm: (form: string, newFields: Value, changedFields: Value) => `Updated form template ${form} (${newFields} new, ${changedFields} changed fields)`,
  madeDefaultForm: {
    Scouting: (form: string) => `Made ${form} the default Scouting form`,
    'Sticky Trap': (form: string) => `Made ${form} the default Sticky Trap form`,
    Treatment: (form: string) => `Made ${form} the default Treatment form`,
    Task: (form: string) => `Made ${form} the default Task form`,
    General: (form: string) => `Made ${form} the default General form`,
  } satisfies Record<FormCategory, (form: string) => string>,
  resetForms: (removed: Value) => `Reset form templates to the defaults (${removed} removed)`,
  deletedForm: (form: string) => `Deleted form template ${form}`,
  hidFieldUntil: (form: string, hiddenField: string, linkedField: string, answer: string) => `In form ${form}, ${hiddenField} hidden until ${linkedField} is ${answer}`,
  changedHiddenUntil: (form: string, hiddenField: string, linkedField: string, answer: string) => `In form ${form}, ${hiddenField} now hidden until ${linkedField} is ${answer}`,
  unhidField: (form: string, hiddenField: string) => `In form ${form}, ${hiddenField} no longer hidden`,
  submittedForBox: (form: string, gridBoxId: Value) => `Submitted ${form} for grid box ${gridBoxId}`,
  /** Spec §8 names this title (common/messages/audit.ts). */
  submittedMultiSelect: multiSelectAuditTitle,
  submittedForRoom: (form: string, room: string) => `Submitted ${form} in room ${room}`,
  addedResponsePhoto: (responseId: Value) => `Added a photo to form response ${responseId}`,
  /** It holds each answer changed (audit-title-parts.ts). */
  correctedResponse: titlesHoldingParts.correctedResponse,

  // Grid templates, grids, boxes and sub-gridboxes.
  createdGridTemplate: {
    Grid: (name: string, rows: Value, columns: Value) => `Created Grid template ${name} (${rows} × ${columns})`,
    SubGrid: (name: string, rows: Value, columns: Value) => `Created SubGrid template ${name} (${rows} × ${columns})`,
  } satisfies Record<GridTemplateType, (name: string, rows: Value, columns: Value) => string>,
  deletedGridTemplate: {
    Grid: (name: string) => `Deleted Grid template ${name}`,
    SubGrid: (name: string) => `Deleted SubGrid template ${name}`,
  } satisfies Record<GridTemplateType, (name: string) => string>,
  createdGridFromTemplate: (grid: string, columns: Value, rows: Value, template: string) => `Created grid ${grid} (${columns} × ${rows}) from template ${template}`,
  createdSubGridboxesFromTemplate: (count: Value, template: string) => `Created ${count} sub-gridboxes from template ${template}`,
  createdGrid: (grid: string, columns: Value, rows: Value) => `Created grid ${grid} (${columns} × ${rows})`,
  deletedGrid: (grid: string) => `Deleted grid ${grid}`,
  culledPlant: 'Culled plant',
  unculledPlant: 'Un-culled plant',
  renamedPlant: (name: string) => `Renamed plant to ${name}`,
  clearedPlantName: 'Cleared plant name',
  createdSubGridboxes: (count: Value) => `Created ${count} sub-gridboxes`,
  /** `name`: the sub-gridbox's own name, else its place ("Sub-2-1"). */
  updatedSubGridbox: (name: string) => `Updated sub-gridbox ${name}`,
  deletedSubGridbox: (name: string) => `Deleted sub-gridbox ${name}`,
  movedPlant: (plantId: Value, column: Value, row: Value) => `Moved plant ${plantId} to position ${column}-${row}`,

  // AI models.
  uploadedModel: (name: string, version: Value) => `Uploaded AI model ${name} (version ${version})`,
  deletedModel: (name: string) => `Deleted AI model ${name}`,
  setAiModelAfterDeletion: (modelKey: string, deletedName: string) => `Set AI model to ${modelKey} (${deletedName} was deleted)`,

  // Payments: the subscription's plan and Stripe status.
  subscription: { monthly: subscription('monthly'), yearly: subscription('yearly') } satisfies Record<Plan, ReturnType<typeof subscription>>,

  // Plant problems (a box named by its name, else its column and row as "3,4").
  recordedProblem: {
    onBox: (problemType: string, severity: Value, box: string) => `Recorded ${problemType} (severity ${severity}) on box ${box}`,
    onPlantOfBox: (problemType: string, severity: Value, box: string) => `Recorded ${problemType} (severity ${severity}) on a plant of box ${box}`,
  },
  recordedProblemFromForm: {
    onBox: (problemType: string, severity: Value, box: string, form: string) => `Recorded ${problemType} (severity ${severity}) on box ${box} from form ${form}`,
    onPlantOfBox: (problemType: string, severity: Value, box: string, form: string) => `Recorded ${problemType} (severity ${severity}) on a plant of box ${box} from form ${form}`,
  },
  actedOnProblems: {
    resolve: problemAction('Resolved'),
    dismiss: problemAction('Dismissed as a false alarm'),
    treat: problemAction('Marked treated'),
    reopen: problemAction('Reopened'),
  } satisfies Record<ProblemAction, ReturnType<typeof problemAction>>,
  addedSolution: (problem: string) => `Added a custom solution to ${problem}`,
  setColour: (problem: string, colour: string, abbreviation: string) => `Set the colour of ${problem} to ${colour} (${abbreviation})`,
  setColourWithoutAbbreviation: (problem: string, colour: string) => `Set the colour of ${problem} to ${colour} (no abbreviation)`,
  setDefaultColour: (problem: string, abbreviation: string) => `Set the colour of ${problem} to the default (${abbreviation})`,
  setDefaultColourWithoutAbbreviation: (problem: string) => `Set the colour of ${problem} to the default (no abbreviation)`,
  deletedColour: (problem: string) => `Deleted the colour of ${problem}`,

  // Reports.
  savedReport: (name: string) => `Saved report ${name}`,
  updatedReport: (name: string) => `Updated report ${name}`,
  renamedReport: (from: string, to: string) => `Renamed report ${from} to ${to}`,
  deletedReport: (name: string) => `Deleted report ${name}`,
  setDashboardReports: 'Set dashboard reports',
  sharedReport: (name: string) => `Shared report ${name} by link`,
  revokedReportLink: (name: string) => `Revoked a link to report ${name}`,

  // Rooms.
  createdRoom: (room: string) => `Created room ${room}`,
  deletedRoom: (room: string) => `Deleted room ${room}`,
  setRoomScroll: (value: Value) => `Set room scroll to ${value}`,
  setEveryRoomScroll: (value: Value) => `Set every room's scroll to ${value}`,

  // Scans, by type; the places marked scanned and their pictures.
  scans: { disease: scan('disease'), sticky_trap: scan('sticky-trap'), camera: scan('camera') } satisfies Record<ScanType, ReturnType<typeof scan>>,
  markedRoomScanned: (room: string) => `Marked room ${room} scanned`,
  markedGridScanned: (grid: string) => `Marked grid ${grid} scanned`,
  resetScanned: 'Reset scanned status',
  deletedScan: (scanId: Value) => `Deleted scan ${scanId}`,
  uploadedWhiteboard: (room: string) => `Uploaded whiteboard image of room ${room}`,
  uploadedGridBackground: (grid: string) => `Uploaded background image of grid ${grid}`,

  // The company's settings.
  setGridOrder: {
    row: 'Set grid order to row',
    column: 'Set grid order to column',
    snake_row: 'Set grid order to snake_row',
    snake_column: 'Set grid order to snake_column',
  } satisfies Record<GridOrder, string>,
  setGridOpacity: (opacity: Value) => `Set grid opacity to ${opacity}`,
  setAiModel: (modelKey: string) => `Set AI model to ${modelKey}`,
  turnedAutoRefreshOn: 'Turned auto refresh on',
  turnedAutoRefreshOff: 'Turned auto refresh off',
  setStickyTrapRender: (value: Value) => `Set sticky-trap render to ${value}`,
  setLanguage: (language: string) => `Set language to ${language}`,

  // Comments and tasks.
  commentedOn: (responseId: Value) => `Commented on form response ${responseId}`,
  editedComment: (responseId: Value) => `Edited a comment on form response ${responseId}`,
  deletedComment: (responseId: Value) => `Deleted a comment on form response ${responseId}`,
  madeTask: (title: string, responseId: Value) => `Made task ${title} from form response ${responseId}`,
  madeTaskByKeyword: (title: string, responseId: Value, keyword: string) => `Made task ${title} from form response ${responseId} (keyword “${keyword}”)`,
  updatedTask: (title: string) => `Updated task ${title}`,
  renamedTask: (from: string, to: string) => `Renamed task ${from} to ${to}`,
  deletedTask: (title: string) => `Deleted task ${title}`,
  createdTaskAutomation: (form: string, keyword: string, field: string) => `Created a task automation on ${form}: “${keyword}” in ${field}`,

  // Trays and tray templates.
  createdTrayTemplate: (name: string, plants: Value) => `Created tray template ${name} (${plants} plants)`,
  deletedTrayTemplate: (name: string) => `Deleted tray template ${name}`,
  createdTrayFromTemplate: (tray: string, template: string, plants: Value) => `Created tray ${tray} from template ${template} (${plants} plants)`,
  createdTray: (tray: string, plants: Value) => `Created tray ${tray} (${plants} plants)`,
  updatedTray: (tray: string) => `Updated tray ${tray}`,
  deletedTray: (tray: string) => `Deleted tray ${tray}`,

  // Spray products, treatments and sprayings.
  addedSprayProduct: (product: string) => `Added spray product ${product}`,
  updatedSprayProduct: (product: string) => `Updated spray product ${product}`,
  deletedSprayProduct: (product: string) => `Deleted spray product ${product}`,
  treatments: {
    biological: treatment('biological'),
    chemical: treatment('chemical'),
    cultural: treatment('cultural'),
    mechanical: treatment('mechanical'),
  } satisfies Record<TreatmentType, ReturnType<typeof treatment>>,
  sprayed: (product: string, quantity: Value, unit: string) => `Sprayed ${product} (${quantity} ${unit})`,
  sprayedWithoutUnit: (product: string, quantity: Value) => `Sprayed ${product} (${quantity})`,

  // Videos (a box named by its name, else its column and row as "3,4").
  recordedBoxVideo: (box: string, grid: string) => `Recorded a video of box ${box} (${grid})`,
  recordedRowVideo: (row: Value, grid: string) => `Recorded a video of row ${row} of ${grid}`,
  deletedBoxVideo: 'Deleted a video of a box',
  deletedRowVideo: (row: Value) => `Deleted a video of row ${row}`,
} as const;
