/**
 * The names of queued changes (issue 18): the `label` of every outbox entry the domain functions in
 * src/api write (sync/outbox.ts). The sync panel shows a change by this name when the server refuses
 * it (src/features/shell/SyncIndicator.tsx), through translateMessage (src/i18n/messages.ts): the
 * English text is the key in common/i18n/messages/{es,nl}.json, a name built around values by its pattern
 * with the values as {{0}}, {{1}}….
 *
 * WARNING: a function takes only the values it shows as they are (names, numbers); the English around
 * them is fixed per entry, so a name that reads differently (one box or several, a batch the tablet
 * knows or not, each treatment type) is an entry of its own, chosen at the call site. Never pass in a
 * value built in English ("box 12"): it would show in English in every language. Where two patterns
 * fit one name ("Delete grid {{0}}" fits "Delete grid template …"), translateMessage takes the one with
 * the more fixed text.
 */
import type { ProblemAction } from '../problem-statuses';
import type { FormCategory } from './forms';
import type { GridTemplateType } from './grid-templates';
import type { SCAN_TYPES } from './scans';
import type { TreatmentType } from './treatments';

/** A value a name shows as it is. */
type Value = string | number;
type ScanType = (typeof SCAN_TYPES)[number];

/** The names of one action on problems (common/problem-statuses.ts), each beginning with its title. */
const problemAction = (title: string) => ({
  problem: (problemType: string) => `${title} ${problemType}`,
  aProblem: `${title} problem`,
  typeInRoom: (problemType: string, room: Value) => `${title} ${problemType} in room ${room}`,
  typeInGrid: (problemType: string, grid: Value) => `${title} ${problemType} in grid ${grid}`,
  allInRoom: (room: Value) => `${title} all problems in room ${room}`,
  allInGrid: (grid: Value) => `${title} all problems in grid ${grid}`,
});

/** The names of the changes to a product's treatment of one type, with the product when the tablet knows it. */
const treatment = (type: TreatmentType) => ({
  create: `Create ${type} treatment`,
  createFor: (product: string) => `Create ${type} treatment for ${product}`,
  update: `Update ${type} treatment`,
  updateFor: (product: string) => `Update ${type} treatment for ${product}`,
  remove: `Remove ${type} treatment`,
  removeFor: (product: string) => `Remove ${type} treatment for ${product}`,
  restore: `Restore ${type} treatment`,
  restoreFor: (product: string) => `Restore ${type} treatment for ${product}`,
});

export const changeLabels = {
  // Audit events.
  recordAuditEvent: (title: string) => `Record "${title}"`,
  correctAuditEventTitled: (title: string) => `Correct audit event "${title}"`,
  correctAuditEvent: (eventId: Value) => `Correct audit event ${eventId}`,
  deleteAuditEventTitled: (title: string) => `Delete audit event "${title}"`,
  deleteAuditEvent: (eventId: Value) => `Delete audit event ${eventId}`,

  // Batches, their links, statuses and problems.
  createBatch: (batchNumber: Value) => `Create batch ${batchNumber}`,
  updateBatch: (batchNumber: Value) => `Update batch ${batchNumber}`,
  updateABatch: 'Update a batch',
  deleteBatch: (batchNumber: Value) => `Delete batch ${batchNumber}`,
  deleteABatch: 'Delete a batch',
  linkBatchToRoom: (batchNumber: Value) => `Link batch ${batchNumber} to a room`,
  linkABatchToRoom: 'Link a batch to a room',
  linkBatchToGrid: (batchNumber: Value) => `Link batch ${batchNumber} to a grid`,
  linkABatchToGrid: 'Link a batch to a grid',
  linkPlantsToBatch: (batchNumber: Value) => `Link plants to batch ${batchNumber}`,
  linkPlantsToABatch: 'Link plants to a batch',
  harvestBatch: (batchNumber: Value) => `Harvest batch ${batchNumber}`,
  harvestABatch: 'Harvest a batch',
  moveBatch: (batchNumber: Value) => `Move batch ${batchNumber} to another room`,
  moveABatch: 'Move a batch to another room',
  setOneBatchStatus: (status: string) => `Set 1 batch to ${status}`,
  setBatchesStatus: (count: number, status: string) => `Set ${count} batches to ${status}`,
  addBatchStatus: (status: string) => `Add batch status ${status}`,
  removeBatchStatus: (status: string) => `Remove batch status ${status}`,
  reportOnBatch: (problemType: string, batchNumber: Value) => `Report ${problemType} on batch ${batchNumber}`,
  reportOnABatch: (problemType: string) => `Report ${problemType} on a batch`,
  resolveProblemsOfBatch: (batchNumber: Value) => `Resolve problems of batch ${batchNumber}`,
  resolveProblemsOfABatch: 'Resolve problems of a batch',

  // Commands.
  keepCommand: (command: string) => `Keep command “${command}”`,

  // Forms, their responses, photos and corrections.
  saveForm: (form: string) => `Save form ${form}`,
  updateForm: (form: string) => `Update form ${form}`,
  deleteForm: (form: Value) => `Delete form ${form}`,
  makeDefaultForm: {
    Scouting: (form: string) => `Make ${form} the default Scouting form`,
    'Sticky Trap': (form: string) => `Make ${form} the default Sticky Trap form`,
    Treatment: (form: string) => `Make ${form} the default Treatment form`,
    Task: (form: string) => `Make ${form} the default Task form`,
    General: (form: string) => `Make ${form} the default General form`,
  } satisfies Record<FormCategory, (form: string) => string>,
  hideFieldUntilAnswered: (form: string) => `Hide a field of ${form} until another is answered`,
  changeWhenFieldShows: (form: string) => `Change when a field of ${form} shows`,
  showFieldAlways: (form: string) => `Show a field of ${form} always`,
  submitForBox: (form: string) => `Submit ${form} for 1 box`,
  submitForBoxes: (form: string, count: number) => `Submit ${form} for ${count} boxes`,
  submitMultiSelectForBox: (form: string) => `Submit ${form} for 1 box (multi-select)`,
  submitMultiSelectForBoxes: (form: string, count: number) => `Submit ${form} for ${count} boxes (multi-select)`,
  submitForRoom: (form: string, room: Value) => `Submit ${form} for room ${room}`,
  photoForBox: (form: string) => `Photo for ${form} for 1 box`,
  photoForBoxes: (form: string, count: number) => `Photo for ${form} for ${count} boxes`,
  photoMultiSelectForBox: (form: string) => `Photo for ${form} for 1 box (multi-select)`,
  photoMultiSelectForBoxes: (form: string, count: number) => `Photo for ${form} for ${count} boxes (multi-select)`,
  photoForRoom: (form: string, room: Value) => `Photo for ${form} for room ${room}`,
  photoFor: (form: string) => `Photo for ${form}`,
  photoForAForm: 'Photo for a form',
  correctFormResponse: (form: string, fields: string) => `Correct ${form}: ${fields}`,
  correctAFormResponse: 'Correct a form response',

  // Grid templates, grids and their boxes.
  createGridTemplate: {
    Grid: (name: string) => `Create Grid template ${name}`,
    SubGrid: (name: string) => `Create SubGrid template ${name}`,
  } satisfies Record<GridTemplateType, (name: string) => string>,
  deleteGridTemplate: (name: string) => `Delete grid template ${name}`,
  deleteAGridTemplate: 'Delete a grid template',
  createGridFromTemplate: (grid: string, template: string) => `Create grid ${grid} from template ${template}`,
  divideBoxWithTemplate: (template: string) => `Divide a grid box with template ${template}`,
  useGridTemplate: 'Use a grid template',
  createGrid: (grid: string, columns: number, rows: number) => `Create grid ${grid} (${columns} × ${rows})`,
  deleteGrid: (grid: Value) => `Delete grid ${grid}`,
  deleteAGrid: 'Delete a grid',
  uploadGridImage: (grid: Value) => `Upload background image of grid ${grid}`,
  uploadAGridImage: 'Upload a grid background image',
  cullPlant: 'Cull plant',
  uncullPlant: 'Un-cull plant',
  renamePlant: (name: string) => `Rename plant to ${name}`,
  clearPlantName: 'Clear plant name',
  divideBoxIntoOne: 'Divide a grid box into 1 sub-gridbox',
  divideBox: (count: number) => `Divide a grid box into ${count} sub-gridboxes`,
  updateSubGridbox: (name: string) => `Update sub-gridbox ${name}`,
  updateASubGridbox: 'Update a sub-gridbox',
  deleteSubGridbox: (name: string) => `Delete sub-gridbox ${name}`,
  deleteASubGridbox: 'Delete a sub-gridbox',
  movePlant: (plantId: Value) => `Move plant ${plantId}`,

  // Plant problems (a box is named by its name or its column and row, as "3,4").
  recordProblemOnBox: (problemType: string, severity: number, box: string) => `Record ${problemType} (severity ${severity}) on box ${box}`,
  recordProblemOnPlantOfBox: (problemType: string, severity: number, box: string) => `Record ${problemType} (severity ${severity}) on a plant of box ${box}`,
  problemActions: {
    resolve: problemAction('Resolve'),
    dismiss: problemAction('Dismiss (false alarm)'),
    treat: problemAction('Mark treated'),
    reopen: problemAction('Reopen'),
  } satisfies Record<ProblemAction, ReturnType<typeof problemAction>>,
  setProblemColour: (problemType: string) => `Set the colour of ${problemType}`,
  deleteProblemColour: (problemType: string) => `Delete the colour of ${problemType}`,
  addSolution: (problem: string) => `Add a solution to ${problem}`,

  // Reports.
  saveReport: (name: string) => `Save report ${name}`,
  deleteReport: (name: string) => `Delete report ${name}`,
  setDashboardReports: 'Set the dashboard’s reports',

  // Rooms.
  createRoom: (room: string) => `Create room ${room}`,
  deleteRoom: (room: Value) => `Delete room ${room}`,
  deleteARoom: 'Delete a room',
  setRoomScroll: (value: Value) => `Set room scroll to ${value}`,
  setEveryRoomScroll: (value: Value) => `Set every room's scroll to ${value}`,

  // Scans.
  markRoomScanned: (room: Value) => `Mark room ${room} scanned`,
  markARoomScanned: 'Mark a room scanned',
  markGridScanned: (grid: Value) => `Mark grid ${grid} scanned`,
  markAGridScanned: 'Mark a grid scanned',
  resetScanned: 'Reset scanned status',
  uploadWhiteboardImage: (room: Value) => `Upload whiteboard image of room ${room}`,
  uploadAWhiteboardImage: 'Upload a whiteboard image',
  startScan: {
    disease: (grid: string) => `Start a disease scan of ${grid}`,
    sticky_trap: (grid: string) => `Start a sticky-trap scan of ${grid}`,
    camera: (grid: string) => `Start a camera scan of ${grid}`,
  } satisfies Record<ScanType, (grid: string) => string>,
  startScanOfAGrid: {
    disease: 'Start a disease scan of a grid',
    sticky_trap: 'Start a sticky-trap scan of a grid',
    camera: 'Start a camera scan of a grid',
  } satisfies Record<ScanType, string>,
  scanOfBox: (box: string, grid: string) => `Scan of box ${box} (${grid})`,
  scanOfBoxOfAGrid: (box: string) => `Scan of box ${box} (grid)`,
  deleteScan: (grid: string) => `Delete scan of ${grid}`,
  deleteScanOfAGrid: 'Delete scan of a grid',

  // The company's settings.
  setGridOrder: (order: string) => `Set grid order to ${order}`,
  setGridOpacity: (opacity: number) => `Set grid opacity to ${opacity}`,
  setAiModel: (model: string) => `Set AI model to ${model}`,
  autoRefreshOn: 'Turn auto refresh on',
  autoRefreshOff: 'Turn auto refresh off',
  setStickyTrapRender: (value: Value) => `Set sticky-trap render to ${value}`,
  setLanguage: (language: string) => `Set language to ${language}`,

  // Comments and tasks.
  commentOnObservation: 'Comment on an observation',
  editComment: 'Edit a comment',
  deleteComment: 'Delete a comment',
  makeTask: (title: string) => `Make task ${title}`,
  makeATask: 'Make a task',
  updateTask: (title: string) => `Update task ${title}`,
  updateATask: 'Update a task',
  deleteTask: (title: string) => `Delete task ${title}`,
  deleteATask: 'Delete a task',

  // Trays.
  createTrayTemplate: (name: string) => `Create tray template ${name}`,
  deleteTrayTemplate: (name: string) => `Delete tray template ${name}`,
  deleteATrayTemplate: 'Delete a tray template',
  createTrayFromTemplate: (tray: string, template: string) => `Create tray ${tray} from template ${template}`,
  createTray: (tray: string) => `Create tray ${tray}`,
  updateTray: (tray: string) => `Update tray ${tray}`,
  updateATray: 'Update a tray',
  deleteTray: (tray: string) => `Delete tray ${tray}`,
  deleteATray: 'Delete a tray',

  // Spray products, treatments and sprayings.
  addSprayProduct: (product: string) => `Add spray product ${product}`,
  updateSprayProduct: (product: string) => `Update spray product ${product}`,
  updateASprayProduct: 'Update a spray product',
  deleteSprayProduct: (product: string) => `Delete spray product ${product}`,
  deleteASprayProduct: 'Delete a spray product',
  treatments: {
    biological: treatment('biological'),
    chemical: treatment('chemical'),
    cultural: treatment('cultural'),
    mechanical: treatment('mechanical'),
  } satisfies Record<TreatmentType, ReturnType<typeof treatment>>,
  sprayOnBox: (product: string) => `Spray ${product} on 1 box`,
  sprayOnBoxes: (product: string, count: number) => `Spray ${product} on ${count} boxes`,

  // Users.
  setThreshold: (threshold: Value) => `Set threshold to ${threshold}`,
  updateLocation: 'Update location',

  // Videos (a box named by its name, or by its column and row as "3,4").
  videoOfBox: (box: string, grid: string) => `Video of ${box} (${grid})`,
  videoOfBoxOfAGrid: (box: string) => `Video of ${box} (grid)`,
  videoOfBoxAt: (columnAndRow: string, grid: string) => `Video of box ${columnAndRow} (${grid})`,
  videoOfBoxAtOfAGrid: (columnAndRow: string) => `Video of box ${columnAndRow} (grid)`,
  videoOfRow: (row: number, grid: string) => `Video of row ${row} of ${grid}`,
  videoOfRowOfAGrid: (row: number) => `Video of row ${row} of a grid`,
  deleteVideo: 'Delete a video',
} as const;

/**
 * `named(name)` when the tablet knows the name (a text or number, not blank), else `unnamed`: a change
 * names what it changes where it can.
 */
export function labelNaming(name: unknown, named: (name: string) => string, unnamed: string): string {
  const text = typeof name === 'string' || typeof name === 'number' ? String(name).trim() : '';
  return text ? named(text) : unnamed;
}
