/**
 * Every report type of the builder (issue 15), end to end: known data recorded through the API, each
 * trend read as the tablet reads it (read-report.ts over the real API client, rooms, batch, form and
 * field named by their client ids as the local store names them), drawn by its model function
 * (common/charts/trend-models.ts), and checked number by number; then saved with the filters the
 * builder saves, and read again from what the server kept (queryOfSaved), giving the same chart.
 *
 * The weeks (UTC, Monday to Sunday): w1, w2 and w3 are three, two and one week(s) before this week.
 * Room A's grid is 2 × 2 (a0, a1 on row 1; a2, a3 on row 2), room B's 2 × 1. Problems, each seen on
 * Thursday noon of its week:
 *   w1: a1 Night weevil (severity 1), a2 Orange blotch (4)
 *   w2: a0 Night weevil (2)   ← the problem recorded in week 2 in room A
 *   w3: b0 Night weevil (3)
 * A batch on a0 and a1, from w1 to w3's Sunday. A sticky-trap form (Thrips count, Trap replaced):
 * b0 in w1 (9, Yes), a0 in w2 (6, Yes, with a photo), a1 in w3 (4, No). A spray of Neem test on a0
 * and a1 at w2's start.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChartModel, reportDataOf } from '../../common/charts/chart-model';
import { addDaysTo, lastWeeks, todayUtc } from '../../common/schemas/report-dates';
import type { SavedReportRecord } from '../../common/schemas/saved-reports';
import { createApiClient, type Session } from '../../src/api/client';
import { savedModel } from '../../src/features/reports/model';
import { queryOfSaved, readReport, readReportAnswer, type ReportQuery, ROOM_NEEDED, savedFiltersOf } from '../../src/features/reports/read-report';
import { clientIdsOf, createFormTemplate, createGrid, createRoom, createTenant, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
/** What the tablet's screens name the records by: their client ids. */
const local = { roomA: '', roomB: '', batch: '', trap: '', thrips: '', replaced: '' };
let roomA: string;
let roomB: string;
let gridName: string;

const today = todayUtc();
/** The Monday `weeksAgo` weeks before this week's. */
const monday = (weeksAgo: number) => lastWeeks(weeksAgo + 1, today).start;
const thursdayNoon = (weeksAgo: number) => new Date(`${addDaysTo(monday(weeksAgo), 3)}T12:00:00Z`);
const [w1, w2, w3] = [monday(3), monday(2), monday(1)];
const weeks = [w1, w2, w3];
const w1ToW3 = { start: w1, end: addDaysTo(w3, 6) };

const WEEVIL = 'Night weevil';
const BLOTCH = 'Orange blotch';

const tablet = () => {
  let session: Session | null = { access_token: farm.regular.token, refresh_token: farm.regular.refreshToken, user_id: farm.regular.id, user_role: farm.regular.role, company_id: farm.companyId };
  const store = {
    get: async () => session,
    set: async (next: Session) => {
      session = next;
    },
    clear: async () => {
      session = null;
    },
  };
  return { client: createApiClient({ baseURL: `${server.url}/api`, session: store }) };
};

const post = async (path: string, json: Record<string, unknown>, actedAt?: Date) => {
  const response = await server.request('POST', path, { token: farm.regular.token, json, ...(actedAt ? { headers: { 'X-Acted-At': actedAt.toISOString() } } : {}) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

const model = (categories: string[], series: Array<[string, number[]]>, labels: { unit: string; categoryLabel?: string }): ChartModel => ({
  categoryLabel: labels.categoryLabel ?? 'Week',
  unit: labels.unit,
  categories,
  series: series.map(([name, values]) => ({ name, values })),
});

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  const suffix = randomUUID().slice(0, 8);
  roomA = `Room A ${suffix}`;
  roomB = `Room B ${suffix}`;
  const roomAId = await createRoom(server, farm.companyId, roomA);
  const roomBId = await createRoom(server, farm.companyId, roomB);
  const gridA = await createGrid(server, farm.companyId, roomAId, 2, 2);
  const gridB = await createGrid(server, farm.companyId, roomBId, 2, 1);
  const [a0, a1, a2] = gridA.boxIds as [number, number, number, number];
  const [b0] = gridB.boxIds as [number, number];
  gridName = (await server.database.db.selectFrom('grids').select('name').where('id', '=', gridA.id).executeTakeFirstOrThrow()).name;
  [local.roomA, local.roomB] = (await clientIdsOf(server, 'rooms', [roomAId, roomBId])) as [string, string];

  const seen = (box: number, problemType: string, severity: number, at: Date) => post('/create_gridbox_problem', { GridBoxID: box, problem_type: problemType, severity, user_id: farm.regular.id }, at);
  await seen(a1, WEEVIL, 1, thursdayNoon(3));
  await seen(a2, BLOTCH, 4, thursdayNoon(3));
  await seen(a0, WEEVIL, 2, thursdayNoon(2));
  await seen(b0, WEEVIL, 3, thursdayNoon(1));

  const batch = await server.request('POST', '/create_batch', { token: farm.regular.token, form: { BatchNumber: `B-${suffix}`, NumberOfPlants: 10, company_id: farm.companyId, StartDate: w1, EndDate: addDaysTo(w3, 6) } });
  const batchId = (batch.body as { batch: { BatchID: number } }).batch.BatchID;
  [local.batch] = (await clientIdsOf(server, 'batches', [batchId])) as [string];
  await post('/link_gridbox_batch', { batch_id: batchId, grid_box_ids: [a0, a1] }, new Date(Date.parse(`${w1}T00:00:00Z`) - 2 * 86_400_000));

  const trapForm = await createFormTemplate(server, farm.admin, farm.companyId, {
    name: `Trap ${suffix}`,
    category: 'Sticky Trap',
    fields: [
      { name: 'Thrips count', type: 'Number' },
      { name: 'Trap replaced', type: 'Radio', options: ['Yes', 'No'] },
    ],
  });
  const [thrips, replaced] = trapForm.fieldIds as [number, number];
  [local.trap] = (await clientIdsOf(server, 'form_templates', [trapForm.templateId])) as [string];
  [local.thrips, local.replaced] = (await clientIdsOf(server, 'form_fields', [thrips, replaced])) as [string, string];
  const filled = async (box: number, at: Date, count: string, trapReplaced: string) => {
    const body = await post('/submit_form', { GridBoxID: box, submittedBy: farm.regular.id, submittedAt: at.toISOString(), fieldResponses: [{ fieldID: thrips, inputData: count }, { fieldID: replaced, inputData: trapReplaced }] });
    return body.response_id as number;
  };
  await filled(b0, thursdayNoon(3), '9', 'Yes');
  const withPhoto = await filled(a0, thursdayNoon(2), '6', 'Yes');
  await filled(a1, thursdayNoon(1), '4', 'No');
  const png = new Blob([Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])], { type: 'image/png' });
  expect((await server.request('POST', '/submit_form_image', { token: farm.regular.token, form: { response_id: withPhoto, image: png } })).status).toBe(200);

  await post('/link_treatment_products_gridboxes', { company_id: farm.companyId, ProductName: 'Neem test', QuantityUsed: 1, Grid_boxIDs: [a0, a1], ApplicationDate: `${w2}T00:00:00Z` });
});
afterAll(() => server.close());

const read = (query: ReportQuery) => readReport(tablet(), farm.companyId, query);

/** Each report type as the builder asks it, and the chart the data above must give. */
const cases: Array<{ title: string; query: () => ReportQuery; expected: () => ChartModel }> = [
  {
    title: 'problems by type: a series per type',
    query: () => ({ type: 'problem_trends', period: w1ToW3, roomIds: [], choices: {} }),
    expected: () => model(weeks, [[WEEVIL, [1, 1, 1]], [BLOTCH, [1, 0, 0]]], { unit: 'problems' }),
  },
  {
    title: 'problems by room: week 2’s problem of room A is in week 2 of room A’s series only',
    query: () => ({ type: 'trends_report_graph', period: w1ToW3, roomIds: [local.roomA, local.roomB], choices: {} }),
    expected: () => model(weeks, [[roomA, [2, 1, 0]], [roomB, [0, 0, 1]]], { unit: 'problems' }),
  },
  {
    title: 'running total by room: one call per room, each room’s total running on',
    query: () => ({ type: 'trends_cumulative_report_graph', period: w1ToW3, roomIds: [local.roomA, local.roomB], choices: {} }),
    expected: () => model(weeks, [[roomA, [2, 3, 3]], [roomB, [0, 0, 1]]], { unit: 'problems (running total)' }),
  },
  {
    title: 'problems by severity: five series',
    query: () => ({ type: 'trends_with_severity', period: w1ToW3, roomIds: [], choices: {} }),
    expected: () =>
      model(
        weeks,
        [
          ['Severity 1', [1, 0, 0]],
          ['Severity 2', [0, 1, 0]],
          ['Severity 3', [0, 0, 1]],
          ['Severity 4', [1, 0, 0]],
          ['Severity 5', [0, 0, 0]],
        ],
        { unit: 'problems' },
      ),
  },
  {
    title: 'one problem (named in another case): its total, and each room where it was seen',
    query: () => ({ type: 'single_problem_trend', period: w1ToW3, roomIds: [], choices: { problem: 'night WEEVIL' } }),
    expected: () => model(weeks, [['Total', [1, 1, 1]], [roomA, [1, 1, 0]], [roomB, [0, 0, 1]]], { unit: `problems (${WEEVIL})` }),
  },
  {
    title: 'one problem in a room where it was not seen: a total of zeros, no room',
    query: () => ({ type: 'single_problem_trend', period: w1ToW3, roomIds: [local.roomB], choices: { problem: BLOTCH } }),
    expected: () => model(weeks, [['Total', [0, 0, 0]]], { unit: `problems (${BLOTCH})` }),
  },
  {
    title: 'rows of a room: a row per grid row, the named problems counted',
    query: () => ({ type: 'gutter_trends', period: w1ToW3, roomIds: [local.roomA], choices: { plant_problems: [WEEVIL, BLOTCH] } }),
    expected: () => model(weeks, [[`${roomA} · ${gridName} · row 1`, [1, 1, 0]], [`${roomA} · ${gridName} · row 2`, [1, 0, 0]]], { unit: 'problems' }),
  },
  {
    title: 'treatment effectiveness: per box, before and after, treated and untreated',
    query: () => ({ type: 'treatment_effectiveness_report', period: w1ToW3, roomIds: [], choices: { product_name: 'NEEM TEST' } }),
    // Treated a0, a1: a1's weevil before, a0's after; untreated a2, a3: a2's blotch before, nothing after.
    expected: () =>
      model(
        [`Neem test · ${w2}`],
        [
          ['Treated boxes, before', [0.5]],
          ['Treated boxes, after', [0.5]],
          ['Untreated boxes, before', [0.5]],
          ['Untreated boxes, after', [0]],
        ],
        { unit: 'problems per box', categoryLabel: 'Treatment' },
      ),
  },
  {
    title: 'treatment effectiveness of a product never sprayed: no treatment',
    query: () => ({ type: 'treatment_effectiveness_report', period: w1ToW3, roomIds: [], choices: { product_name: 'Pyrethrin' } }),
    expected: () => model([], [['Treated boxes, before', []], ['Treated boxes, after', []], ['Untreated boxes, before', []], ['Untreated boxes, after', []]], { unit: 'problems per box', categoryLabel: 'Treatment' }),
  },
  {
    title: 'a Number field: its weekly sum',
    query: () => ({ type: 'field_responses_report', period: w1ToW3, roomIds: [], choices: { FieldID: local.thrips } }),
    expected: () => model(weeks, [['Thrips count (sum)', [9, 6, 4]]], { unit: 'Thrips count' }),
  },
  {
    title: 'a choice field: each answer’s count',
    query: () => ({ type: 'field_responses_report', period: w1ToW3, roomIds: [], choices: { FieldID: local.replaced } }),
    expected: () => model(weeks, [['Yes', [1, 1, 0]], ['No', [0, 0, 1]]], { unit: 'answers' }),
  },
  {
    title: 'specific trends over the batch’s dates: the batch’s responses of a category, and its fields',
    query: () => ({
      type: 'specific_trends',
      period: { weeks: 1 },
      roomIds: [],
      choices: { batch_id: local.batch, form_category: 'Sticky Trap', include_images_only: false, batch_dates: true },
    }),
    // b0's response (w1) is not the batch's; the period is the batch's, not the one week asked.
    expected: () =>
      model(
        weeks,
        [
          ['Responses', [0, 1, 1]],
          ['Thrips count (sum)', [0, 6, 4]],
          ['Trap replaced: Yes', [0, 1, 0]],
          ['Trap replaced: No', [0, 0, 1]],
        ],
        { unit: 'responses and answers' },
      ),
  },
  {
    title: 'specific trends of a form, responses with photos only',
    query: () => ({ type: 'specific_trends', period: w1ToW3, roomIds: [], choices: { batch_id: local.batch, specificForm: local.trap, include_images_only: true } }),
    expected: () =>
      model(
        weeks,
        [
          ['Responses', [0, 1, 0]],
          ['Thrips count (sum)', [0, 6, 0]],
          ['Trap replaced: Yes', [0, 1, 0]],
          ['Trap replaced: No', [0, 0, 0]],
        ],
        { unit: 'responses and answers' },
      ),
  },
  {
    title: 'specific trends in a room the batch is not in: nothing',
    query: () => ({ type: 'specific_trends', period: w1ToW3, roomIds: [local.roomB], choices: { batch_id: local.batch } }),
    expected: () => model(weeks, [['Responses', [0, 0, 0]]], { unit: 'responses and answers' }),
  },
];

describe('each report type, read as the tablet reads it', () => {
  for (const { title, query, expected } of cases) {
    it(title, async () => {
      expect(await read(query())).toEqual(expected());
    });
  }

  it('takes the last weeks: this week and the weeks before it', async () => {
    const chart = await read({ type: 'trends_report_graph', period: { weeks: 4 }, roomIds: [local.roomA], choices: {} });
    expect(chart).toEqual(model([w1, w2, w3, monday(0)], [[roomA, [2, 1, 0, 0]]], { unit: 'problems' }));
  });

  it('answers the period the server resolved, the batch’s own for its dates', async () => {
    const answered = await readReportAnswer(tablet(), farm.companyId, { type: 'specific_trends', period: { weeks: 1 }, roomIds: [], choices: { batch_id: local.batch, batch_dates: true } });
    expect(answered.period).toEqual({ start: w1, end: addDaysTo(w3, 6) });
  });

  it('says what is missing: a room for a running total (before any call), the server’s message for the rest', async () => {
    await expect(read({ type: 'trends_cumulative_report_graph', period: w1ToW3, roomIds: [], choices: {} })).rejects.toThrow(ROOM_NEEDED);
    await expect(read({ type: 'gutter_trends', period: w1ToW3, roomIds: [], choices: { plant_problems: [WEEVIL] } })).rejects.toThrow(ROOM_NEEDED);
    await expect(read({ type: 'single_problem_trend', period: w1ToW3, roomIds: [], choices: { problem: ' ' } })).rejects.toThrow('problem is required.');
    await expect(read({ type: 'specific_trends', period: w1ToW3, roomIds: [], choices: {} })).rejects.toThrow('batch_id is required.');
    await expect(read({ type: 'problem_trends', period: { start: w3, end: w1 }, roomIds: [], choices: {} })).rejects.toThrow('end_date must not be before start_date.');
  });
});

describe('a saved report of each type', () => {
  for (const { title, query } of cases) {
    it(`is read again with the choices it was saved with: ${title}`, async () => {
      const asked = query();
      const shown = await readReportAnswer(tablet(), farm.companyId, asked);
      const body = await post('/save_report', {
        company_id: farm.companyId,
        report_name: title.slice(0, 100),
        chart_type: 'line',
        report_type: asked.type,
        report_data: reportDataOf(shown.model),
        filters: savedFiltersOf(asked, shown),
        room_ids: asked.roomIds,
      });
      const reportId = body.report_id as number;
      const list = await server.request<{ reports: SavedReportRecord[] }>('GET', '/get_saved_reports', { token: farm.regular.token, query: { company_id: farm.companyId, report_id: reportId } });
      const record = list.body.reports[0]!;
      // Its stored data draws what the builder showed (offline), and its choices read the same again.
      if (shown.model.categories.length > 0) expect(savedModel(record)).toEqual(shown.model);
      const again = queryOfSaved(record);
      expect(again?.type).toBe(asked.type);
      expect(await read(again!)).toEqual(shown.model);
    });
  }

  it('keeps the batch’s dates as batch_related_date, with the dates answered', async () => {
    const asked: ReportQuery = { type: 'specific_trends', period: { weeks: 1 }, roomIds: [], choices: { batch_id: local.batch, batch_dates: true, include_images_only: false } };
    const shown = await readReportAnswer(tablet(), farm.companyId, asked);
    const filters = savedFiltersOf(asked, shown);
    expect(filters).toMatchObject({ date_type: 'batch_related_date', date_range: { start_date: w1, end_date: addDaysTo(w3, 6) }, batch_id: local.batch, include_images_only: false });
    expect(filters).not.toHaveProperty('batch_dates');
    expect(queryOfSaved({ report_type: 'specific_trends', filters: { ...(filters as { date_type: 'batch_related_date'; date_range: { start_date: string; end_date: string } }), weeks_ago: null }, room_ids: [] })?.choices).toEqual({
      batch_id: local.batch,
      form_category: null,
      specificForm: null,
      include_images_only: false,
      batch_dates: true,
    });
  });
});
