/**
 * The demo company's reports (issue 15), on a real database over HTTP: on a freshly seeded demo every
 * trend call answers its story of the last 8 weeks, and its dashboard holds four saved reports, made
 * as the tablet makes them: a tablet refreshing one reads the same chart from the trend calls, and a
 * tablet saving the same report stores the same row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportDataOf } from '../../common/charts/chart-model';
import { isClientId } from '../../common/client-ids';
import type { Session } from '../../src/api/client';
import { createApiClient } from '../../src/api/client';
import type { LocalReport } from '../../src/features/reports/model';
import { queryOfSaved, readReport, readReportAnswer, type ReportQuery, savedFiltersOf } from '../../src/features/reports/read-report';
import { DEMO_ADMIN_EMAIL, DEMO_GROWER_EMAIL, seedDemoIfEmpty } from '../../server/demo/index';
import { memorySession } from '../support/client';
import { signIn } from '../support/factories';
import { startServer, type TestServer } from '../support/server';
import { type PulledDocument, serverDocuments } from '../support/sync';

const WEEKS = { date_option: 'weeks_ago', weeks_ago: 8 };
const MITES = 'Two-spotted spider mite';
const THE_FIVE = [MITES, 'Western flower thrips', 'Fungus gnats', 'Powdery mildew', 'Botrytis (grey mould, bud rot)'];

let server: TestServer;
let companyId: number;
let admin: Session;
let grower: Session;
let rooms: Record<'propagation' | 'veg' | 'flower', number>;

const passwordOf = (text: string, email: string) => new RegExp(`${email.replace(/\./g, '\\.')}\\s+password: (\\S+)`).exec(text)?.[1] ?? '';

beforeAll(async () => {
  server = await startServer();
  const printed = (await seedDemoIfEmpty(server.database.db, server.config.dataDir, server.config.publicUrl)) ?? '';
  expect(printed).toContain('4 saved reports on the dashboard');
  admin = await signIn(server, DEMO_ADMIN_EMAIL, passwordOf(printed, DEMO_ADMIN_EMAIL));
  grower = await signIn(server, DEMO_GROWER_EMAIL, passwordOf(printed, DEMO_GROWER_EMAIL));
  companyId = admin.company_id;
  const named = await server.database.db.selectFrom('rooms').select(['id', 'name']).where('company_id', '=', companyId).execute();
  const idOf = (name: string) => named.find((room) => room.name === name)!.id;
  rooms = { propagation: idOf('Propagation / Mother room'), veg: idOf('Veg room'), flower: idOf('Flower room 1') };
});
afterAll(() => server.close());

/** A trend call as the grower (any member reads the reports), answered 200. */
async function trend<T>(path: string, query: Record<string, string | number>): Promise<T> {
  const response = await server.request<T>('GET', path, { token: grower.access_token, query: { company_id: companyId, ...WEEKS, ...query } });
  expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
  return response.body;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
type Point = { week: string; count: number };

/** The sticky-card field the tablet offers for a report: named as its form_templates document names it (by client id). */
async function tabletTrapField(): Promise<{ FieldID: string; FieldName: string }> {
  const templates = await serverDocuments(server, grower.access_token, 'form_templates');
  const form = [...templates.values()].find((template) => template.TemplateName === 'Sticky trap count')!;
  return (form.fields as Array<{ FieldID: string; FieldName: string }>).find((field) => field.FieldName === 'Fungus gnats')!;
}

describe('the demo company’s trends over the last 8 weeks', () => {
  it('counts its problems by type and by room, every room with some and every problem of the story', async () => {
    const byType = await trend<{ weeks: string[]; trends: Array<{ problem_type: string; total: number }>; totals: Point[] }>('/get_problem_trends', {});
    expect(byType.weeks).toHaveLength(8);
    expect(byType.trends.map((series) => series.problem_type).sort()).toEqual([...THE_FIVE].sort());
    for (const series of byType.trends) expect(series.total, series.problem_type).toBeGreaterThan(0);
    const total = sum(byType.totals.map((point) => point.count));
    expect(total).toBe(sum(byType.trends.map((series) => series.total)));

    const byRoom = await trend<{ rooms: Array<{ RoomID: number; total: number; problems: Array<{ problem_type: string }> }> }>('/get_trends_report_graph', {});
    expect(byRoom.rooms.map((room) => room.RoomID).sort()).toEqual(Object.values(rooms).sort());
    for (const room of byRoom.rooms) expect(room.total).toBeGreaterThan(0);
    expect(sum(byRoom.rooms.map((room) => room.total))).toBe(total);
    // Mites only ever in the flower room's door corner (observations.ts, problems.ts).
    const withMites = byRoom.rooms.filter((room) => room.problems.some((problem) => problem.problem_type === MITES));
    expect(withMites.map((room) => room.RoomID)).toEqual([rooms.flower]);

    const flower = byRoom.rooms.find((room) => room.RoomID === rooms.flower)!;
    const cumulative = await trend<{ totals: Array<{ cumulative: number }> }>('/get_trends_cumulative_report_graph', { room_id: rooms.flower });
    const running = cumulative.totals.map((point) => point.cumulative);
    expect(running).toEqual([...running].sort((a, b) => a - b));
    // Its first problem is within the 8 weeks: the running total ends at the room's total.
    expect(running.at(-1)).toBe(flower.total);

    const severity = await trend<{ totals: Array<{ count: number; severities: Record<string, number> }> }>('/get_trends_with_severity', {});
    expect(sum(severity.totals.map((point) => point.count))).toBe(total);
    const levels = new Set(severity.totals.flatMap((point) => Object.entries(point.severities).filter(([, count]) => count > 0).map(([level]) => level)));
    expect(levels.size).toBeGreaterThanOrEqual(3);

    const mites = await trend<{ data: { problem_type: string; total: number; points: Point[]; rooms: Array<{ RoomID: number; total: number }> } }>('/get_single_problem_trend', { problem: MITES });
    expect(mites.data.problem_type).toBe(MITES);
    expect(mites.data.total).toBeGreaterThan(0);
    expect(mites.data.rooms.map((room) => [room.RoomID, room.total])).toEqual([[rooms.flower, mites.data.total]]);
    expect(mites.data.points.filter((point) => point.count > 0).length).toBeGreaterThanOrEqual(3);
  });

  it('shows the mites in the rows of Bench A’s door corner, and nowhere else in the flower room', async () => {
    const rows = await trend<{ data: Array<{ RoomID: number; grids: Array<{ Name: string; rows: Array<{ Y: number; total: number }> }> }> }>('/get_gutter_trends', {
      room_ids: JSON.stringify([rooms.flower]),
      plant_problems: JSON.stringify([MITES]),
      batch_id: 'NULL',
    });
    const grids = rows.data.find((room) => room.RoomID === rooms.flower)!.grids;
    expect(grids.map((grid) => grid.Name)).toEqual(['Bench A', 'Bench B', 'Bench C', 'Bench D']);
    const seen = grids.flatMap((grid) => grid.rows.filter((row) => row.total > 0).map((row) => `${grid.Name} ${row.Y}`));
    expect(seen.length).toBeGreaterThanOrEqual(2);
    // The corner is box (1, 12): mites spread at most three boxes from it.
    for (const row of seen) expect(row).toMatch(/^Bench A (9|10|11|12)$/);
  });

  it('follows a batch’s scouting answers, and a sticky-card count the tablet names by its client id, every week', async () => {
    const batch = await server.database.db.selectFrom('batches').select('id').where('company_id', '=', companyId).where('batch_number', '=', 'NL-035').executeTakeFirstOrThrow();
    const specific = await trend<{ responses: Point[]; fields: Array<{ FieldName: string; points: Array<{ answers: Array<{ answer: string; count: number }> }> }> }>('/get_specific_trends', {
      batch_id: batch.id,
      form_category: 'Scouting',
    });
    expect(specific.responses.every((point) => point.count > 0)).toBe(true);
    const pests = specific.fields.find((field) => field.FieldName === 'Pests seen')!;
    const mites = pests.points.flatMap((point) => point.answers.filter((answer) => answer.answer === 'Spider mites').map((answer) => answer.count));
    expect(sum(mites)).toBeGreaterThan(0);

    const field = await tabletTrapField();
    expect(isClientId(field.FieldID)).toBe(true);
    const traps = await trend<{ field: { FieldName: string; kind: string }; grouped_data: Array<{ sum: number | null; count: number }> }>('/get_field_responses_report', { FieldID: field.FieldID });
    expect([traps.field.FieldName, traps.field.kind]).toEqual(['Fungus gnats', 'number']);
    expect(traps.grouped_data).toHaveLength(8);
    for (const week of traps.grouped_data) expect(week.sum).toBeGreaterThan(0);
  });

  it('compares each spray’s boxes before and after it with the boxes it did not reach', async () => {
    type Group = { boxes: number; problems_before: number; problems_after: number; reduction_pct: number | null };
    const effect = await trend<{ applications: Array<{ ProductName: string; treated: Group; untreated: Group; efficacy_pct: number | null }> }>('/get_treatment_effectiveness_report', {});
    const products = await server.database.db.selectFrom('spray_applications').select('product_name').where('company_id', '=', companyId).execute();
    expect(new Set(effect.applications.map((application) => application.ProductName))).toEqual(new Set(products.map((product) => product.product_name)));
    for (const application of effect.applications) expect(application.treated.problems_before, application.ProductName).toBeGreaterThan(0);
    // Pests found again on sprayed boxes: some sprays did little (the neem on the mites), others took hold.
    const again = effect.applications.filter((application) => application.treated.problems_after > 0);
    expect(again.length).toBeGreaterThanOrEqual(3);
    expect(again.some((application) => application.treated.problems_after >= application.treated.problems_before)).toBe(true);
    expect(again.some((application) => application.treated.problems_after < application.treated.problems_before)).toBe(true);
    expect(effect.applications.filter((application) => application.efficacy_pct !== null).length).toBeGreaterThanOrEqual(2);
  });

  it('offers its rooms, problems, forms, batches and products to choose from', async () => {
    const info = await trend<{ rooms: unknown[]; problem_types: Array<{ problem_type: string }>; templates: unknown[]; batches: unknown[]; product_names: string[] }>('/get_report_info', {});
    expect(info.rooms).toHaveLength(3);
    expect(info.problem_types.map((problem) => problem.problem_type).sort()).toEqual([...THE_FIVE].sort());
    expect(info.templates).toHaveLength(4);
    expect(info.batches).toHaveLength(9);
    expect(info.product_names).toHaveLength(4);
  });
});

/** The reports a tablet pulls (named by client ids), by name. */
async function pulledReports(): Promise<Map<string, PulledDocument & LocalReport>> {
  const documents = await serverDocuments(server, grower.access_token, 'reports');
  return new Map([...documents.values()].map((document) => [document.report_name as string, document as PulledDocument & LocalReport]));
}

const DASHBOARD = [
  { name: 'Pest pressure by room', chart_type: 'stacked_bar', report_type: 'trends_report_graph' },
  { name: 'Problems by type', chart_type: 'line', report_type: 'problem_trends' },
  { name: 'Rows of Flower room 1', chart_type: 'heatmap', report_type: 'gutter_trends' },
  { name: 'Sticky-trap counts: fungus gnats', chart_type: 'bar', report_type: 'field_responses_report' },
];

describe('the demo company’s dashboard', () => {
  it('holds four saved reports of the last 8 weeks, each with its chart’s data', async () => {
    type Saved = { report_id: number; report_name: string; chart_type: string; report_type: string; report_data: Array<{ category: string; series: string; value: number }>; filters: Record<string, unknown>; room_ids: number[] };
    const response = await server.request<{ report_id1: number; report_id2: number; report_id3: number; report_id4: number; reports: Saved[] }>('GET', '/get_dashboard_reports', {
      token: grower.access_token,
      query: { company_id: companyId },
    });
    expect(response.status).toBe(200);
    const { reports } = response.body;
    expect(reports.map((report) => ({ name: report.report_name, chart_type: report.chart_type, report_type: report.report_type }))).toEqual(DASHBOARD);
    expect([response.body.report_id1, response.body.report_id2, response.body.report_id3, response.body.report_id4]).toEqual(reports.map((report) => report.report_id));

    const byType = await trend<{ weeks: string[] }>('/get_problem_trends', {});
    for (const report of reports) {
      expect(report.filters, report.report_name).toMatchObject({ date_type: 'weeks_ago', weeks_ago: 8, date_range: null, category_label: 'Week' });
      expect(new Set(report.report_data.map((point) => point.category))).toEqual(new Set(byType.weeks));
      expect(report.report_data.some((point) => point.value > 0), report.report_name).toBe(true);
    }
    const [byRoom, problems, rows, traps] = reports as [Saved, Saved, Saved, Saved];
    expect(new Set(byRoom.report_data.map((point) => point.series))).toEqual(new Set(['Propagation / Mother room', 'Veg room', 'Flower room 1']));
    expect(new Set(problems.report_data.map((point) => point.series))).toEqual(new Set(THE_FIVE));
    expect(rows.room_ids).toEqual([rooms.flower]);
    expect((rows.filters.plant_problems as string[]).sort()).toEqual([MITES, 'Western flower thrips', 'Powdery mildew', 'Botrytis (grey mould, bud rot)'].sort());
    expect(rows.report_data.filter((point) => point.value > 0).every((point) => point.series.startsWith('Flower room 1 · Bench '))).toBe(true);
    const gnats = await server.database.db.selectFrom('form_fields').select('id').where('company_id', '=', companyId).where('field_name', '=', 'Fungus gnats').executeTakeFirstOrThrow();
    expect(traps.filters.FieldID).toBe(gnats.id);
    expect(traps.filters.unit).toBe('Fungus gnats');
    for (const report of [byRoom, problems, traps]) expect(report.room_ids).toEqual([]);
  });

  it('was saved by its Admin and put on the dashboard, each act audited as the calls audit it', async () => {
    const db = server.database.db;
    const saved = await db.selectFrom('saved_reports').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('id').execute();
    expect(saved.map((report) => report.report_name)).toEqual(DASHBOARD.map((report) => report.name));
    const events = await db.selectFrom('audit_events').selectAll().where('company_id', '=', companyId).orderBy('id').execute();
    const first = events.findIndex((event) => event.event_title.startsWith('Saved report '));
    expect(events.slice(first).map((event) => [event.event_title, event.user_id, event.details])).toEqual([
      ...saved.map((report) => [`Saved report ${report.report_name}`, admin.user_id, { report_id: report.id }]),
      ['Set dashboard reports', admin.user_id, { report_ids: saved.map((report) => report.id) }],
    ]);
    // The last acts of the story: their data is what the trends answered after everything else was recorded.
    const storyEnds = Math.max(...events.slice(0, first).map((event) => new Date(event.created_at).getTime()));
    for (const report of saved) {
      expect(report.created_by).toBe(admin.user_id);
      expect(isClientId(report.client_id)).toBe(true);
      expect(new Date(report.created_at).getTime()).toBeGreaterThanOrEqual(storyEnds);
    }
  });

  it('is read again by a tablet refreshing each report: the same chart from the trend calls', async () => {
    const client = createApiClient({ baseURL: `${server.url}/api`, session: memorySession(grower) });
    const reports = await pulledReports();
    for (const { name } of DASHBOARD) {
      const report = reports.get(name)!;
      const query = queryOfSaved(report);
      expect(query, name).not.toBeNull();
      expect(query!.period).toEqual({ weeks: 8 });
      const model = await readReport({ client }, companyId, query!);
      expect(reportDataOf(model), name).toEqual(report.report_data);
    }
  });

  it('is what a tablet building the same reports shows, and saving them stores', async () => {
    const client = createApiClient({ baseURL: `${server.url}/api`, session: memorySession(admin) });
    const tabletRooms = await serverDocuments(server, admin.access_token, 'rooms');
    const flower = [...tabletRooms.values()].find((room) => room.Name === 'Flower room 1')!;
    const field = await tabletTrapField();
    // The problems a manager types for the rows: those the room report shows in the flower room.
    const byRoom = await trend<{ rooms: Array<{ RoomID: number; problems: Array<{ problem_type: string }> }> }>('/get_trends_report_graph', {});
    const flowerProblems = byRoom.rooms.find((room) => room.RoomID === rooms.flower)!.problems.map((problem) => problem.problem_type);
    const weeks = { weeks: 8 };
    // As the builder asks (ReportBuilder.tsx `show`): records named as the tablet's local documents name them.
    const built: Record<string, ReportQuery> = {
      'Pest pressure by room': { type: 'trends_report_graph', period: weeks, roomIds: [], choices: {} },
      'Problems by type': { type: 'problem_trends', period: weeks, roomIds: [], choices: {} },
      'Rows of Flower room 1': { type: 'gutter_trends', period: weeks, roomIds: [flower.id], choices: { plant_problems: flowerProblems } },
      'Sticky-trap counts: fungus gnats': { type: 'field_responses_report', period: weeks, roomIds: [], choices: { FieldID: field.FieldID } },
    };
    expect(isClientId(flower.id) && isClientId(field.FieldID)).toBe(true);
    const stored = await server.database.db.selectFrom('saved_reports').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).execute();
    for (const { name, chart_type } of DASHBOARD) {
      const demo = stored.find((row) => row.report_name === name)!;
      const query = built[name]!;
      const read = await readReportAnswer({ client }, companyId, query);
      expect(reportDataOf(read.model), name).toEqual(demo.report_data);
      // As the builder saves (ReportBuilder.tsx `save`).
      const saved = await server.request<{ report: { filters: unknown; room_ids: number[] }; report_id: number }>('POST', '/save_report', {
        token: admin.access_token,
        json: {
          company_id: companyId,
          report_name: `${name} (again)`,
          chart_type,
          report_type: query.type,
          report_data: reportDataOf(read.model),
          filters: savedFiltersOf(query, read),
          room_ids: query.roomIds,
        },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect([saved.body.report.filters, saved.body.report.room_ids], name).toEqual([demo.filters, demo.room_ids]);
      const removed = await server.request('DELETE', '/delete_report', { token: admin.access_token, json: { report_id: saved.body.report_id } });
      expect(removed.status).toBe(200);
    }
  });
});
