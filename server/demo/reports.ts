/**
 * The demo's dashboard (issue 15): four saved reports of the last 8 weeks, on the dashboard's four
 * slots, so overview and quick view open on charts of the story rather than on empty slots. Each is
 * made as the tablet's report builder makes one (src/features/reports/ReportBuilder.tsx `save`): the
 * trend is asked with the parameters the tablet sends (read-report.ts `readReport`), parsed by the
 * route's own query schema and answered by the function the route calls; the answer is drawn by the
 * tablet's chart functions (common/charts/trend-models.ts) and kept as `reportDataOf` keeps it; the
 * save is checked by save_report's own body schema and written and audited as that call writes it
 * (reports/saved-routes.ts `saveReport`, `setDashboardReports`), by the Admin.
 *
 * Where the spec is silent, the demo decides:
 * - The Admin saves them at the first start itself, after every other act of the story: their data is
 *   what the trends answer then. Their period is `weeks_ago: 8`, not the dates of that day, so a
 *   tablet refreshing one reads the last 8 weeks of whenever it refreshes.
 * - Filters are the builder's (read-report.ts `savedFiltersOf`): the period, the choices the report
 *   type takes (`plant_problems` of the rows, `FieldID` of the field) and the chart's labels
 *   (`category_label`, `unit`).
 * - Rooms and the field are stored as save_report stores what a tablet sends: the tablet names them by
 *   client id (the rooms' documents, the `FieldID` of its form_templates document), resolved to the
 *   integer ids on the way in, at any depth of the body (server/http/client-ids.ts), so `room_ids` and
 *   `filters.FieldID` hold integers. No room chosen is every room.
 * - The rows report is of the whole flower room: gutter trends draw every bench of the rooms asked
 *   (and a tablet's refresh asks for every box, batch NULL), with the problems seen in that room over
 *   the 8 weeks, as the room report answers them.
 */
import type { Kysely } from 'kysely';
import { type ChartModel, reportDataOf } from '../../common/charts/chart-model';
import { fieldModel, gutterModel, problemTrendsModel, type ReportType, roomTrendsModel } from '../../common/charts/trend-models';
import { newClientId } from '../../common/client-ids';
import { auditTitles } from '../../common/messages/audit-titles';
import type { ChartType } from '../../common/messages/reports';
import { fieldResponsesReportQuery, gutterTrendsQuery, problemTrendsQuery, trendsReportGraphQuery } from '../../common/schemas/reports';
import { saveReportBody } from '../../common/schemas/saved-reports';
import type { DB } from '../db/schema';
import { type Actor, writer } from '../db/writes';
import { recordAudit } from '../domains/audit/record';
import { formQueries } from '../domains/forms/queries';
import { fieldResponsesReport } from '../domains/reports/form-trends';
import { DASHBOARD_COLUMNS } from '../domains/reports/saved-queries';
import { gutterTrends, problemTrends, trendsReportGraph } from '../domains/reports/trends';
import type { Operation } from './operation';

const WEEKS = 8;

/** The sticky-card count the dashboard follows: the gnats of the clone table and the drenches against them (observations.ts). */
const TRAP_FORM = 'Sticky trap count';
const TRAP_FIELD = 'Fungus gnats';

/** A report as the builder holds it when its Save is pressed. */
interface Built {
  name: string;
  type: ReportType;
  chart: ChartType;
  roomIds: number[];
  /** The report type's own choices, under the calls' parameter names. */
  choices: { plant_problems?: string[]; FieldID?: number };
  model: ChartModel;
}

/** Saves the four reports and puts them on the dashboard, in this order; answers how many. */
export async function seedReports(db: Kysely<DB>, op: Operation, now: Date): Promise<number> {
  const { companyId } = op;
  const actor: Actor = { userId: op.adminId, companyId, actedAt: now };
  const built = await buildReports(db, op);
  const ids: number[] = [];
  for (const report of built) ids.push(await saveReport(db, actor, report));
  await writer(db, actor).update('companies', companyId, Object.fromEntries(DASHBOARD_COLUMNS.map((column, index) => [column, ids[index] ?? null])));
  // As set_dashboard_reports: the reports whose slot changed are touched, so tablets pull them with it.
  await writer(db, actor).touch('saved_reports', ids);
  await recordAudit(db, actor, { title: auditTitles.setDashboardReports, details: { report_ids: DASHBOARD_COLUMNS.map((_column, index) => ids[index] ?? null) } });
  return ids.length;
}

async function buildReports(db: Kysely<DB>, op: Operation): Promise<Built[]> {
  const { companyId } = op;
  // The tablet's parameters (src/api/reports.ts `trend`): the period, then the report type's own.
  const asked = (others: Record<string, unknown>) => ({ company_id: companyId, date_option: 'weeks_ago', weeks_ago: String(WEEKS), ...others });
  const everyRoom = { room_ids: JSON.stringify([]) };

  const byRoom = await trendsReportGraph(db, companyId, trendsReportGraphQuery.parse(asked(everyRoom)));
  const byType = await problemTrends(db, companyId, problemTrendsQuery.parse(asked(everyRoom)));

  const flower = op.rooms.flower;
  const flowerProblems = byRoom.rooms.find((room) => room.RoomID === flower.id)?.problems.map((problem) => problem.problem_type) ?? [];
  const rowsQuery = { room_ids: JSON.stringify([flower.id]), batch_id: 'NULL', plant_problems: JSON.stringify(flowerProblems) };
  const rows = await gutterTrends(db, companyId, gutterTrendsQuery.parse(asked(rowsQuery)));

  const fields = await formQueries.reportableFields(db, companyId);
  const trapField = fields.find((field) => field.template_name === TRAP_FORM && field.field_name === TRAP_FIELD);
  if (!trapField) throw new Error(`The demo's ${TRAP_FORM} form has no ${TRAP_FIELD} field.`);
  const traps = await fieldResponsesReport(db, companyId, fieldResponsesReportQuery.parse(asked({ FieldID: trapField.id })));

  return [
    { name: 'Pest pressure by room', type: 'trends_report_graph', chart: 'stacked_bar', roomIds: [], choices: {}, model: roomTrendsModel(byRoom) },
    { name: 'Problems by type', type: 'problem_trends', chart: 'line', roomIds: [], choices: {}, model: problemTrendsModel(byType) },
    { name: `Rows of ${flower.name}`, type: 'gutter_trends', chart: 'heatmap', roomIds: [flower.id], choices: { plant_problems: flowerProblems }, model: gutterModel(rows) },
    { name: 'Sticky-trap counts: fungus gnats', type: 'field_responses_report', chart: 'bar', roomIds: [], choices: { FieldID: trapField.id }, model: fieldModel(traps) },
  ];
}

/** A report saved as save_report saves a new one (checked by its body schema, its client id given); answers its id. */
async function saveReport(db: Kysely<DB>, actor: Actor, report: Built): Promise<number> {
  const body = saveReportBody.parse({
    company_id: actor.companyId,
    report_name: report.name,
    chart_type: report.chart,
    report_type: report.type,
    report_data: reportDataOf(report.model),
    // As read-report.ts `savedFiltersOf` and src/api/reports.ts `savedFilters` write them.
    filters: { ...report.choices, category_label: report.model.categoryLabel, unit: report.model.unit, date_type: 'weeks_ago', weeks_ago: WEEKS },
    room_ids: report.roomIds,
    client_id: newClientId(),
  });
  const { id } = await writer(db, actor).insert('saved_reports', {
    client_id: body.client_id,
    company_id: actor.companyId,
    report_name: body.report_name,
    chart_type: body.chart_type,
    report_type: body.report_type ?? null,
    report_data: body.report_data,
    filters: body.filters === undefined ? null : JSON.stringify(body.filters),
    room_ids: body.room_ids,
  });
  await recordAudit(db, actor, { title: auditTitles.savedReport(body.report_name), details: { report_id: id } });
  return id;
}
