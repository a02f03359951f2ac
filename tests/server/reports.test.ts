/**
 * The trend and report calls (issue 15) over real data recorded through the API: problems seen at
 * chosen times (X-Acted-At) in two rooms, rows and severities, a sticky-trap form filled in past weeks
 * (submittedAt), a batch on some boxes and a spray. Every number asserted follows from that data.
 *
 * The weeks used (UTC, Monday to Sunday): w1, w2 and w3 are three, two and one week(s) before this
 * week (w0). Problems are seen on Thursday noon of their week, one on w0 a minute ago.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { reportMessages as m } from '../../common/messages/reports';
import { CATALOGUE, catalogueProblemNamed } from '../../common/plant-problems';
import { lastWeeks, todayUtc } from '../../common/schemas/report-dates';
import { DEFAULT_REPORT_WEEKS } from '../../common/schemas/reports';
import type {
  CumulativeReportGraphAnswer,
  FieldResponsesReportAnswer,
  GutterTrendsAnswer,
  ProblemTrendsAnswer,
  ReportInfoAnswer,
  SingleProblemTrendAnswer,
  SpecificTrendsAnswer,
  TreatmentEffectivenessAnswer,
  TrendsReportGraphAnswer,
  TrendsWithSeverityAnswer,
} from '../../common/schemas/reports';
import { createFormTemplate, createGrid, createRoom, createTenant, type SignedInUser, type Tenant } from '../support/factories';
import { startServer, type TestServer } from '../support/server';

let server: TestServer;
let farm: Tenant;
let other: Tenant;

const DAY_MS = 86_400_000;
const today = todayUtc();
/** The Monday `weeksAgo` weeks before this week's. */
const monday = (weeksAgo: number) => lastWeeks(weeksAgo + 1, today).start;
const sunday = (weeksAgo: number) => new Date(Date.parse(`${monday(weeksAgo)}T00:00:00Z`) + 6 * DAY_MS).toISOString().slice(0, 10);
const thursdayNoon = (weeksAgo: number) => new Date(Date.parse(`${monday(weeksAgo)}T12:00:00Z`) + 3 * DAY_MS);
const [w0, w1, w2, w3] = [monday(0), monday(3), monday(2), monday(1)];

/** Custom problem types (not the catalogue's) and one catalogue problem written in two cases. */
const WEEVIL = 'Night weevil';
const BLOTCH = 'Orange blotch';
const catalogued = CATALOGUE[0]!;

let roomA: { id: number; name: string };
let roomB: { id: number; name: string };
let gridA: number;
/** Room A's grid is 3 × 2: a[0..2] on row 1, a[3..5] on row 2. */
let a: number[];
let b: number[];
let otherRoom: number;
let batchId: number;
let trap: { id: number; count: number; replaced: number; pests: number };
let otherField: number;
let responseWithPhoto: number;

const get = <T = Record<string, unknown>>(path: string, token: string, query: Record<string, string | number | undefined> = {}) => server.request<T>('GET', path, { token, query });
const error = (message: string) => ({ status: 'error', message });
const post = async (path: string, user: SignedInUser, json: Record<string, unknown>, actedAt?: Date) => {
  const response = await server.request('POST', path, { token: user.token, json, ...(actedAt ? { headers: { 'X-Acted-At': actedAt.toISOString() } } : {}) });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

async function seen(box: number, problemType: string, severity: number, at: Date) {
  const body = await post('/create_gridbox_problem', farm.regular, { GridBoxID: box, problem_type: problemType, severity, user_id: farm.regular.id }, at);
  return (body.problem as { problem_id: number }).problem_id;
}

async function filled(box: number, at: Date, answers: Record<'count' | 'replaced' | 'pests', string | undefined>) {
  const fieldResponses = (['count', 'replaced', 'pests'] as const).filter((name) => answers[name] !== undefined).map((name) => ({ fieldID: trap[name], inputData: answers[name] }));
  const body = await post('/submit_form', farm.regular, { GridBoxID: box, submittedBy: farm.regular.id, submittedAt: at.toISOString(), fieldResponses });
  return body.response_id as number;
}

async function newRoom(tenant: Tenant, name: string, nx: number, ny: number) {
  const id = await createRoom(server, tenant.companyId, name);
  const grid = await createGrid(server, tenant.companyId, id, nx, ny);
  return { room: { id, name }, grid };
}

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  const suffix = randomUUID().slice(0, 8);
  const first = await newRoom(farm, `Room A ${suffix}`, 3, 2);
  const second = await newRoom(farm, `Room B ${suffix}`, 2, 2);
  ({ room: roomA, grid: { id: gridA, boxIds: a } } = first);
  ({ room: roomB, grid: { boxIds: b } } = second);
  const theirs = await newRoom(other, `Their room ${suffix}`, 1, 1);
  otherRoom = theirs.room.id;

  // Problems. Room A: w1 weevil 2 (row 1) and 4 (row 2), blotch 3 (row 1); w2 weevil 5 (row 1) and 1
  // ('night weevil', row 2), and one dismissed; w3 blotch 1.5 (row 1); w0 weevil 3 (row 2).
  // Room B: w2 weevil 2; w3 the catalogue problem 2 and 4 (its name in capitals).
  await seen(a[0]!, WEEVIL, 2, thursdayNoon(3));
  await seen(a[3]!, WEEVIL, 4, thursdayNoon(3));
  await seen(a[1]!, BLOTCH, 3, thursdayNoon(3));
  await seen(a[0]!, WEEVIL, 5, thursdayNoon(2));
  await seen(a[4]!, WEEVIL.toLowerCase(), 1, thursdayNoon(2));
  const falseAlarm = await seen(a[5]!, WEEVIL, 5, thursdayNoon(2));
  await post('/manage_problem', farm.regular, { problemID: falseAlarm, action: 'dismiss', userID: farm.regular.id });
  await seen(a[2]!, BLOTCH, 1.5, thursdayNoon(1));
  await seen(a[4]!, WEEVIL, 3, new Date(Date.now() - 60_000));
  await seen(b[0]!, WEEVIL, 2, thursdayNoon(2));
  await seen(b[1]!, catalogued.name, 2, thursdayNoon(1));
  await seen(b[2]!, catalogued.name.toUpperCase(), 4, thursdayNoon(1));
  await server.request('POST', '/create_gridbox_problem', {
    token: other.regular.token,
    json: { GridBoxID: theirs.grid.boxIds[0], problem_type: WEEVIL, severity: 5, user_id: other.regular.id },
    headers: { 'X-Acted-At': thursdayNoon(2).toISOString() },
  });

  // A batch on a0 and a1 from before w1, running from w1 to w3.
  const batch = await server.request('POST', '/create_batch', {
    token: farm.regular.token,
    form: { BatchNumber: `B-${suffix}`, NumberOfPlants: 10, company_id: farm.companyId, StartDate: w1, EndDate: sunday(1) },
  });
  batchId = (batch.body as { batch: { BatchID: number } }).batch.BatchID;
  await post('/link_gridbox_batch', farm.regular, { batch_id: batchId, grid_box_ids: [a[0], a[1]] }, new Date(Date.now() - 29 * DAY_MS));

  // A sticky-trap form, filled on a0, a1 (the batch's), a2 and b0.
  const trapForm = await createFormTemplate(server, farm.admin, farm.companyId, {
    name: `Trap ${suffix}`,
    category: 'Sticky Trap',
    fields: [
      { name: 'Thrips count', type: 'Number' },
      { name: 'Trap replaced', type: 'Radio', options: ['Yes', 'No'] },
      { name: 'Pests seen', type: 'Checkbox', options: ['Aphids', 'Mites'] },
    ],
  });
  const [count, replaced, pests] = trapForm.fieldIds;
  trap = { id: trapForm.templateId, count: count!, replaced: replaced!, pests: pests! };
  await filled(a[0]!, thursdayNoon(3), { count: '5', replaced: 'Yes', pests: 'Aphids, Mites' });
  await filled(a[1]!, thursdayNoon(3), { count: '7', replaced: 'No', pests: 'Aphids' });
  responseWithPhoto = await filled(a[0]!, thursdayNoon(2), { count: '3', replaced: 'Yes', pests: undefined });
  await filled(a[1]!, thursdayNoon(2), { count: 'lots', replaced: undefined, pests: undefined });
  await filled(a[2]!, thursdayNoon(1), { count: '10', replaced: 'No', pests: undefined });
  await filled(b[0]!, thursdayNoon(1), { count: '4', replaced: 'No', pests: undefined });
  const png = new Blob([Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4])], { type: 'image/png' });
  expect((await server.request('POST', '/submit_form_image', { token: farm.regular.token, form: { response_id: responseWithPhoto, image: png } })).status).toBe(200);
  const theirForm = await server.request('POST', '/save_form_template', {
    token: other.admin.token,
    json: { templateName: `Their trap ${suffix}`, companyID: other.companyId, formCategory: 'Sticky Trap', fields: [{ fieldName: 'Count', fieldType: 'Number', fieldOptions: [], isRequired: 0 }] },
  });
  otherField = (theirForm.body as { template: { fields: Array<{ FieldID: number }> } }).template.fields[0]!.FieldID;

  // A spray on a0 and a1 at the start of w2.
  await post('/link_treatment_products_gridboxes', farm.regular, { company_id: farm.companyId, ProductName: 'Neem test', QuantityUsed: 1, Grid_boxIDs: [a[0], a[1]], ApplicationDate: `${w2}T00:00:00Z` });
});
afterAll(() => server.close());

const w1ToW3 = () => ({ date_option: 'date_range', start_date: w1, end_date: sunday(1) });

describe('the data the tests rely on', () => {
  it('names two custom problem types the catalogue does not hold', () => {
    expect(catalogueProblemNamed(WEEVIL)).toBeUndefined();
    expect(catalogueProblemNamed(BLOTCH)).toBeUndefined();
  });
});

describe('get_problem_trends', () => {
  it('counts each problem type by the week it was seen, with its mean severity, and all types together', async () => {
    const response = await get<ProblemTrendsAnswer>('/get_problem_trends', farm.regular.token, { company_id: farm.companyId, start_date: w1, end_date: sunday(1) });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.period).toEqual({ start_date: w1, end_date: sunday(1) });
    expect(body.weeks).toEqual([w1, w2, w3]);
    const byName = new Map(body.trends.map((trend) => [trend.problem_type, trend]));
    // The dismissed one is not counted; 'night weevil' counts as the same type; the other company's does not count.
    expect(byName.get(WEEVIL)).toEqual({
      problem_type: WEEVIL,
      problem_slug: null,
      total: 5,
      mean_severity: 2.8,
      points: [
        { week: w1, count: 2, mean_severity: 3 },
        { week: w2, count: 3, mean_severity: 2.67 },
        { week: w3, count: 0, mean_severity: null },
      ],
    });
    expect(byName.get(BLOTCH)).toMatchObject({ total: 2, mean_severity: 2.25, points: [{ count: 1, mean_severity: 3 }, { count: 0 }, { count: 1, mean_severity: 1.5 }] });
    // The catalogue problem, written in two cases, is one series under the catalogue's name.
    expect(byName.get(catalogued.name)).toMatchObject({ problem_slug: catalogued.slug, total: 2, mean_severity: 3, points: [{ count: 0 }, { count: 0 }, { count: 2, mean_severity: 3 }] });
    expect(body.trends.map((trend) => trend.problem_type)).toEqual([WEEVIL, ...[BLOTCH, catalogued.name].sort((x, y) => x.localeCompare(y))]);
    expect(body.totals).toEqual([
      { week: w1, count: 3, mean_severity: 3 },
      { week: w2, count: 3, mean_severity: 2.67 },
      { week: w3, count: 3, mean_severity: 2.5 },
    ]);
  });

  it('answers every week of the period, also with nothing seen', async () => {
    const response = await get<ProblemTrendsAnswer>('/get_problem_trends', farm.regular.token, { company_id: farm.companyId, start_date: '2020-01-01', end_date: '2020-01-31' });
    expect(response.body.weeks).toEqual(['2019-12-30', '2020-01-06', '2020-01-13', '2020-01-20', '2020-01-27']);
    expect(response.body.trends).toEqual([]);
    expect(response.body.totals.every((point) => point.count === 0 && point.mean_severity === null)).toBe(true);
  });

  it('answers the validation messages', async () => {
    expect((await get('/get_problem_trends', farm.regular.token, { start_date: w1, end_date: w3 })).body).toEqual(error(m.companyIdRequired));
    expect((await get('/get_problem_trends', farm.regular.token, { company_id: farm.companyId })).body).toEqual(error(m.startDateInvalid));
    expect((await get('/get_problem_trends', farm.regular.token, { company_id: farm.companyId, start_date: w3, end_date: w1 })).body).toEqual(error(m.endBeforeStart));
    expect((await get('/get_problem_trends', farm.regular.token, { company_id: farm.companyId, date_option: 'months_ago' })).body).toEqual(error(m.invalidDateOption));
    // Dates outside the years a report can mean are refused (a period reaching year 0 or 9999 never ended).
    expect((await get('/get_problem_trends', farm.regular.token, { company_id: farm.companyId, start_date: '0000-01-01', end_date: '0000-01-03' })).body).toEqual(error(m.startDateInvalid));
    expect((await get('/get_problem_trends', farm.regular.token, { company_id: farm.companyId, start_date: '9999-12-20', end_date: '9999-12-31' })).body).toEqual(error(m.startDateInvalid));
    expect((await get('/get_problem_trends', farm.regular.token, { company_id: farm.companyId, start_date: w1, end_date: '9999-12-31' })).body).toEqual(error(m.endDateInvalid));
    const theirs = await get('/get_problem_trends', farm.regular.token, { company_id: other.companyId, start_date: w1, end_date: w3 });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toEqual(error(httpMessages.otherCompany));
  });
});

describe('get_trends_report_graph', () => {
  const expectedRooms = () => [
    {
      RoomID: roomA.id,
      Name: roomA.name,
      total: 6,
      points: [
        { week: w1, count: 3 },
        { week: w2, count: 2 },
        { week: w3, count: 1 },
      ],
      problems: [
        { problem_type: WEEVIL, problem_slug: null, total: 4, points: [{ week: w1, count: 2 }, { week: w2, count: 2 }, { week: w3, count: 0 }] },
        { problem_type: BLOTCH, problem_slug: null, total: 2, points: [{ week: w1, count: 1 }, { week: w2, count: 0 }, { week: w3, count: 1 }] },
      ],
    },
    {
      RoomID: roomB.id,
      Name: roomB.name,
      total: 3,
      points: [
        { week: w1, count: 0 },
        { week: w2, count: 1 },
        { week: w3, count: 2 },
      ],
      problems: [
        { problem_type: catalogued.name, problem_slug: catalogued.slug, total: 2, points: [{ week: w1, count: 0 }, { week: w2, count: 0 }, { week: w3, count: 2 }] },
        { problem_type: WEEVIL, problem_slug: null, total: 1, points: [{ week: w1, count: 0 }, { week: w2, count: 1 }, { week: w3, count: 0 }] },
      ],
    },
  ];

  it('draws a line per room and per problem in each, and per problem over the rooms; room_ids comma-joined or as an array', async () => {
    const joined = await get<TrendsReportGraphAnswer>('/get_trends_report_graph', farm.regular.token, { company_id: farm.companyId, room_ids: `${roomA.id},${roomB.id}`, ...w1ToW3() });
    expect(joined.status).toBe(200);
    expect(joined.body.rooms).toEqual(expectedRooms());
    const weevil = joined.body.problems.find((series) => series.problem_type === WEEVIL);
    expect(weevil?.points.map((point) => point.count)).toEqual([2, 3, 0]);
    const asArray = await get<TrendsReportGraphAnswer>('/get_trends_report_graph', farm.regular.token, { company_id: farm.companyId, room_ids: JSON.stringify([roomA.id, roomB.id]), ...w1ToW3() });
    expect(asArray.body).toEqual(joined.body);
  });

  it('counts a problem only in its own room and week', async () => {
    const onlyB = await get<TrendsReportGraphAnswer>('/get_trends_report_graph', farm.regular.token, { company_id: farm.companyId, room_ids: String(roomB.id), ...w1ToW3() });
    expect(onlyB.body.rooms).toEqual([expectedRooms()[1]]);
    expect(onlyB.body.problems.map((series) => [series.problem_type, series.points.map((point) => point.count)])).toEqual([
      [catalogued.name, [0, 0, 2]],
      [WEEVIL, [0, 1, 0]],
    ]);
  });

  it('takes weeks_ago: this week and the weeks before it', async () => {
    const response = await get<TrendsReportGraphAnswer>('/get_trends_report_graph', farm.regular.token, { company_id: farm.companyId, room_ids: String(roomA.id), date_option: 'weeks_ago', weeks_ago: 2 });
    expect(response.body.weeks).toEqual([w3, w0]);
    expect(response.body.rooms[0]?.points).toEqual([
      { week: w3, count: 1 },
      { week: w0, count: 1 },
    ]);
  });

  it('answers the validation messages, and 403 for another company’s room', async () => {
    const ask = (query: Record<string, string | number | undefined>) => get('/get_trends_report_graph', farm.regular.token, { company_id: farm.companyId, ...w1ToW3(), ...query });
    expect((await ask({ company_id: undefined })).body).toEqual(error(m.companyIdRequired));
    expect((await ask({ room_ids: 'east,west' })).body).toEqual(error(m.roomIdsArray));
    expect((await ask({ room_ids: '{"room": 1}' })).body).toEqual(error(m.roomIdsArray));
    expect((await ask({ date_option: 'last_month' })).body).toEqual(error(m.invalidDateOption));
    // batch_related_date is for the form reports only.
    expect((await ask({ date_option: 'batch_related_date' })).body).toEqual(error(m.invalidDateOption));
    expect((await ask({ date_option: 'weeks_ago', weeks_ago: 'four' })).body).toEqual(error(m.weeksAgoInvalid));
    const theirs = await ask({ room_ids: `${roomA.id},${otherRoom}` });
    expect(theirs.status).toBe(403);
    expect((await ask({ room_ids: JSON.stringify([otherRoom]) })).status).toBe(403);
  });
});

describe('get_trends_cumulative_report_graph', () => {
  it('runs each problem type’s total from the room’s first problem to this week', async () => {
    const response = await get<CumulativeReportGraphAnswer>('/get_trends_cumulative_report_graph', farm.regular.token, { room_id: roomA.id });
    expect(response.status).toBe(200);
    expect(response.body.room).toEqual({ RoomID: roomA.id, Name: roomA.name });
    expect(response.body.weeks).toEqual([w1, w2, w3, w0]);
    expect(response.body.series).toEqual([
      { problem_type: WEEVIL, problem_slug: null, total: 5, points: [{ week: w1, count: 2, cumulative: 2 }, { week: w2, count: 2, cumulative: 4 }, { week: w3, count: 0, cumulative: 4 }, { week: w0, count: 1, cumulative: 5 }] },
      { problem_type: BLOTCH, problem_slug: null, total: 2, points: [{ week: w1, count: 1, cumulative: 1 }, { week: w2, count: 0, cumulative: 1 }, { week: w3, count: 1, cumulative: 2 }, { week: w0, count: 0, cumulative: 2 }] },
    ]);
    expect(response.body.totals.map((point) => point.cumulative)).toEqual([3, 5, 6, 7]);
  });

  it('starts a period’s lines from what was seen before it', async () => {
    const response = await get<CumulativeReportGraphAnswer>('/get_trends_cumulative_report_graph', farm.regular.token, { room_id: roomA.id, company_id: farm.companyId, date_option: 'date_range', start_date: w2, end_date: sunday(1) });
    expect(response.body.weeks).toEqual([w2, w3]);
    expect(response.body.series.map((series) => [series.problem_type, series.total, series.points.map((point) => [point.count, point.cumulative])])).toEqual([
      [WEEVIL, 2, [[2, 4], [0, 4]]],
      [BLOTCH, 1, [[0, 1], [1, 2]]],
    ]);
    expect(response.body.totals).toEqual([
      { week: w2, count: 2, cumulative: 5 },
      { week: w3, count: 1, cumulative: 6 },
    ]);
  });

  it('answers the validation messages, and 403 for another company’s room', async () => {
    expect((await get('/get_trends_cumulative_report_graph', farm.regular.token, {})).body).toEqual(error(m.roomIdRequired));
    expect((await get('/get_trends_cumulative_report_graph', farm.regular.token, { room_id: roomA.id, date_option: 'someday' })).body).toEqual(error(m.invalidDateOption));
    expect((await get('/get_trends_cumulative_report_graph', farm.regular.token, { room_id: otherRoom })).status).toBe(403);
    expect((await get('/get_trends_cumulative_report_graph', farm.regular.token, { room_id: roomA.id, company_id: other.companyId })).status).toBe(403);
  });
});

describe('get_trends_with_severity', () => {
  it('counts each week’s problems at each severity (a fractional one at its nearest, halves up)', async () => {
    const response = await get<TrendsWithSeverityAnswer>('/get_trends_with_severity', farm.regular.token, { company_id: farm.companyId, ...w1ToW3() });
    expect(response.status).toBe(200);
    const levels = (counts: Partial<Record<'1' | '2' | '3' | '4' | '5', number>>) => ({ '1': 0, '2': 0, '3': 0, '4': 0, '5': 0, ...counts });
    const byName = new Map(response.body.trends.map((trend) => [trend.problem_type, trend]));
    expect(byName.get(WEEVIL)?.points).toEqual([
      { week: w1, count: 2, severities: levels({ '2': 1, '4': 1 }) },
      { week: w2, count: 3, severities: levels({ '1': 1, '2': 1, '5': 1 }) },
      { week: w3, count: 0, severities: levels({}) },
    ]);
    expect(byName.get(BLOTCH)?.points.map((point) => point.severities)).toEqual([levels({ '3': 1 }), levels({}), levels({ '2': 1 })]);
    expect(response.body.totals.map((point) => point.severities)).toEqual([levels({ '2': 1, '3': 1, '4': 1 }), levels({ '1': 1, '2': 1, '5': 1 }), levels({ '2': 2, '4': 1 })]);
  });

  it('covers the last weeks when asked no period', async () => {
    const response = await get<TrendsWithSeverityAnswer>('/get_trends_with_severity', farm.regular.token, { company_id: farm.companyId, room_ids: String(roomA.id) });
    expect(response.body.weeks).toHaveLength(DEFAULT_REPORT_WEEKS);
    expect(response.body.weeks.at(-1)).toBe(w0);
    expect(response.body.totals.slice(-4).map((point) => point.count)).toEqual([3, 2, 1, 1]);
  });

  it('answers the validation messages', async () => {
    expect((await get('/get_trends_with_severity', farm.regular.token, { ...w1ToW3() })).body).toEqual(error(m.companyIdRequired));
    expect((await get('/get_trends_with_severity', farm.regular.token, { company_id: farm.companyId, date_option: 'fortnight' })).body).toEqual(error(m.invalidDateOption));
    expect((await get('/get_trends_with_severity', farm.regular.token, { company_id: farm.companyId, room_ids: 'x' })).body).toEqual(error(m.roomIdsArray));
  });
});

describe('get_single_problem_trend', () => {
  it('follows one problem (any case) by week over the rooms and in each room where it was seen', async () => {
    const response = await get<SingleProblemTrendAnswer>('/get_single_problem_trend', farm.regular.token, { company_id: farm.companyId, problem: 'night WEEVIL', weeks_ago: 4 });
    expect(response.status).toBe(200);
    expect(response.body.weeks).toEqual([w1, w2, w3, w0]);
    expect(response.body.data).toEqual({
      problem_type: WEEVIL,
      problem_slug: null,
      total: 6,
      mean_severity: 2.83,
      points: [
        { week: w1, count: 2, mean_severity: 3 },
        { week: w2, count: 3, mean_severity: 2.67 },
        { week: w3, count: 0, mean_severity: null },
        { week: w0, count: 1, mean_severity: 3 },
      ],
      rooms: [
        { RoomID: roomA.id, Name: roomA.name, total: 5, mean_severity: 3, points: [{ week: w1, count: 2, mean_severity: 3 }, { week: w2, count: 2, mean_severity: 3 }, { week: w3, count: 0, mean_severity: null }, { week: w0, count: 1, mean_severity: 3 }] },
        { RoomID: roomB.id, Name: roomB.name, total: 1, mean_severity: 2, points: [{ week: w1, count: 0, mean_severity: null }, { week: w2, count: 1, mean_severity: 2 }, { week: w3, count: 0, mean_severity: null }, { week: w0, count: 0, mean_severity: null }] },
      ],
    });
  });

  it('names a catalogue problem by its catalogue name, by slug or name', async () => {
    const bySlug = await get<SingleProblemTrendAnswer>('/get_single_problem_trend', farm.regular.token, { company_id: farm.companyId, problem: catalogued.slug, weeks_ago: 4 });
    expect(bySlug.body.data).toMatchObject({ problem_type: catalogued.name, problem_slug: catalogued.slug, total: 2 });
    expect(bySlug.body.data.rooms.map((room) => room.RoomID)).toEqual([roomB.id]);
    const unseen = await get<SingleProblemTrendAnswer>('/get_single_problem_trend', farm.regular.token, { company_id: farm.companyId, problem: ' Purple haze mite ' });
    expect(unseen.body.data).toMatchObject({ problem_type: 'Purple haze mite', problem_slug: null, total: 0, mean_severity: null, rooms: [] });
    expect(unseen.body.weeks).toHaveLength(DEFAULT_REPORT_WEEKS);
  });

  it('answers the validation messages', async () => {
    expect((await get('/get_single_problem_trend', farm.regular.token, { problem: WEEVIL })).body).toEqual(error(m.companyIdRequired));
    expect((await get('/get_single_problem_trend', farm.regular.token, { company_id: farm.companyId })).body).toEqual(error(m.problemRequired));
    expect((await get('/get_single_problem_trend', farm.regular.token, { company_id: farm.companyId, problem: WEEVIL, weeks_ago: 'four' })).body).toEqual(error(m.weeksAgoInvalid));
    expect((await get('/get_single_problem_trend', farm.regular.token, { company_id: farm.companyId, problem: WEEVIL, date_option: 'always' })).body).toEqual(error(m.invalidDateOption));
    expect((await get('/get_single_problem_trend', farm.regular.token, { company_id: other.companyId, problem: WEEVIL })).status).toBe(403);
  });
});

describe('get_gutter_trends', () => {
  it('counts the named problems per row of each grid and week: every box with NULL', async () => {
    const response = await get<GutterTrendsAnswer>('/get_gutter_trends', farm.regular.token, {
      company_id: farm.companyId,
      batch_id: 'NULL',
      room_ids: String(roomA.id),
      plant_problems: JSON.stringify([WEEVIL, BLOTCH]),
      ...w1ToW3(),
    });
    expect(response.status).toBe(200);
    expect(response.body.batch_id).toBeNull();
    expect(response.body.plant_problems).toEqual([
      { problem_type: WEEVIL, problem_slug: null },
      { problem_type: BLOTCH, problem_slug: null },
    ]);
    expect(response.body.data).toEqual([
      {
        RoomID: roomA.id,
        Name: roomA.name,
        grids: [
          {
            GridID: gridA,
            Name: expect.any(String),
            rows: [
              { Y: 1, total: 4, points: [{ week: w1, count: 2 }, { week: w2, count: 1 }, { week: w3, count: 1 }] },
              { Y: 2, total: 2, points: [{ week: w1, count: 1 }, { week: w2, count: 1 }, { week: w3, count: 0 }] },
            ],
          },
        ],
      },
    ]);
  });

  it('counts only the batch’s boxes and rows with a batch; one problem comma-joined', async () => {
    const response = await get<GutterTrendsAnswer>('/get_gutter_trends', farm.regular.token, { company_id: farm.companyId, batch_id: batchId, room_ids: `${roomA.id},${roomB.id}`, plant_problems: WEEVIL, ...w1ToW3() });
    expect(response.body.batch_id).toBe(batchId);
    expect(response.body.data.map((room) => room.grids.map((grid) => grid.rows))).toEqual([[[{ Y: 1, total: 2, points: [{ week: w1, count: 1 }, { week: w2, count: 1 }, { week: w3, count: 0 }] }]], []]);
  });

  it('answers the validation messages (spec §5), and 403 for another company’s room', async () => {
    const ask = (query: Record<string, string | number | undefined>) => get('/get_gutter_trends', farm.regular.token, { company_id: farm.companyId, batch_id: 'NULL', room_ids: String(roomA.id), plant_problems: WEEVIL, ...query });
    expect((await ask({ company_id: undefined })).body).toEqual(error(m.companyIdRequired));
    expect((await ask({ room_ids: undefined })).body).toEqual(error(m.gutterRoomsRequired));
    expect((await ask({ room_ids: '[]' })).body).toEqual(error(m.gutterRoomsRequired));
    expect((await ask({ plant_problems: undefined })).body).toEqual(error(m.gutterProblemsRequired));
    expect((await ask({ plant_problems: '[]' })).body).toEqual(error(m.gutterProblemsRequired));
    expect((await ask({ room_ids: 'a,b' })).body).toEqual(error(m.roomIdsArray));
    expect((await ask({ batch_id: 'all' })).body).toEqual(error(m.gutterBatchInvalid));
    expect((await ask({ date_option: 'batch_related_date' })).body).toEqual(error(m.invalidDateOption));
    expect((await ask({ room_ids: String(otherRoom) })).status).toBe(403);
  });
});

describe('get_field_responses_report', () => {
  it('groups a Number field’s answers by week: count, sum, mean, least and greatest (a non-number is counted only)', async () => {
    const response = await get<FieldResponsesReportAnswer>('/get_field_responses_report', farm.regular.token, { company_id: farm.companyId, FieldID: trap.count, ...w1ToW3() });
    expect(response.status).toBe(200);
    expect(response.body.field).toMatchObject({ FieldID: trap.count, FieldName: 'Thrips count', FieldType: 'Number', TemplateID: trap.id, FormCategory: 'Sticky Trap', kind: 'number' });
    expect(response.body.grouped_data).toEqual([
      { week: w1, count: 2, sum: 12, mean: 6, min: 5, max: 7, answers: [] },
      { week: w2, count: 2, sum: 3, mean: 3, min: 3, max: 3, answers: [] },
      { week: w3, count: 2, sum: 14, mean: 7, min: 4, max: 10, answers: [] },
    ]);
    expect(response.body.total).toEqual({ count: 6, sum: 29, mean: 5.8, min: 3, max: 10, answers: [] });
  });

  it('narrows to a room or a batch, and takes the batch’s dates', async () => {
    const inA = await get<FieldResponsesReportAnswer>('/get_field_responses_report', farm.regular.token, { company_id: farm.companyId, FieldID: trap.count, room_id: roomA.id, ...w1ToW3() });
    expect(inA.body.grouped_data.map((week) => [week.count, week.sum])).toEqual([
      [2, 12],
      [2, 3],
      [1, 10],
    ]);
    const ofBatch = await get<FieldResponsesReportAnswer>('/get_field_responses_report', farm.regular.token, { company_id: farm.companyId, FieldID: trap.count, batchid: batchId, date_option: 'batch_related_date' });
    expect(ofBatch.body.period).toEqual({ start_date: w1, end_date: sunday(1) });
    expect(ofBatch.body.grouped_data).toEqual([
      { week: w1, count: 2, sum: 12, mean: 6, min: 5, max: 7, answers: [] },
      { week: w2, count: 2, sum: 3, mean: 3, min: 3, max: 3, answers: [] },
      { week: w3, count: 0, sum: 0, mean: null, min: null, max: null, answers: [] },
    ]);
  });

  it('counts a choice field’s answers per option, a Checkbox’s once per option chosen', async () => {
    const radio = await get<FieldResponsesReportAnswer>('/get_field_responses_report', farm.regular.token, { company_id: farm.companyId, FieldID: trap.replaced, ...w1ToW3() });
    expect(radio.body.field.kind).toBe('choice');
    expect(radio.body.grouped_data.map((week) => [week.count, week.answers])).toEqual([
      [2, [{ answer: 'Yes', count: 1 }, { answer: 'No', count: 1 }]],
      [1, [{ answer: 'Yes', count: 1 }, { answer: 'No', count: 0 }]],
      [2, [{ answer: 'Yes', count: 0 }, { answer: 'No', count: 2 }]],
    ]);
    const checkbox = await get<FieldResponsesReportAnswer>('/get_field_responses_report', farm.regular.token, { company_id: farm.companyId, FieldID: trap.pests, ...w1ToW3() });
    expect(checkbox.body.grouped_data[0]).toEqual({ week: w1, count: 2, sum: null, mean: null, min: null, max: null, answers: [{ answer: 'Aphids', count: 2 }, { answer: 'Mites', count: 1 }] });
    expect(checkbox.body.total.answers).toEqual([
      { answer: 'Aphids', count: 2 },
      { answer: 'Mites', count: 1 },
    ]);
  });

  it('answers the validation messages, and 403 for another company’s field', async () => {
    const ask = (query: Record<string, string | number | undefined>) => get('/get_field_responses_report', farm.regular.token, { company_id: farm.companyId, FieldID: trap.count, ...w1ToW3(), ...query });
    expect((await ask({ company_id: undefined })).body).toEqual(error(m.companyIdRequired));
    expect((await ask({ FieldID: undefined })).body).toEqual(error(m.fieldIdRequired));
    expect((await ask({ date_option: 'quarter' })).body).toEqual(error(m.invalidDateOption));
    expect((await ask({ date_option: 'batch_related_date', start_date: undefined, end_date: undefined })).body).toEqual(error(m.batchDatesMissing));
    const theirs = await ask({ FieldID: otherField });
    expect(theirs.status).toBe(403);
    expect(theirs.body).toEqual(error(httpMessages.otherCompany));
  });
});

describe('get_specific_trends', () => {
  it('sums up the batch’s responses of a category by week, with each field answered', async () => {
    const response = await get<SpecificTrendsAnswer>('/get_specific_trends', farm.regular.token, { company_id: farm.companyId, batch_id: batchId, form_category: 'sticky trap', date_option: 'batch_related_date' });
    expect(response.status).toBe(200);
    expect(response.body.batch).toMatchObject({ BatchID: batchId, StartDate: w1, EndDate: sunday(1) });
    expect(response.body.weeks).toEqual([w1, w2, w3]);
    // a2's and b0's responses are not the batch's.
    expect(response.body.responses.map((week) => week.count)).toEqual([2, 2, 0]);
    const fields = new Map(response.body.fields.map((field) => [field.FieldID, field]));
    expect([...fields.keys()]).toEqual([trap.count, trap.replaced, trap.pests]);
    expect(fields.get(trap.count)?.points.map((week) => [week.count, week.sum, week.mean])).toEqual([
      [2, 12, 6],
      [2, 3, 3],
      [0, 0, null],
    ]);
    expect(fields.get(trap.replaced)).toMatchObject({ total: 3, kind: 'choice' });
    expect(fields.get(trap.pests)?.points[0]?.answers).toEqual([
      { answer: 'Aphids', count: 2 },
      { answer: 'Mites', count: 1 },
    ]);
  });

  it('narrows to a form (listing all its fields), to responses with photos, and to a room', async () => {
    const photos = await get<SpecificTrendsAnswer>('/get_specific_trends', farm.regular.token, { company_id: farm.companyId, batch_id: batchId, specificForm: trap.id, include_images_only: 1, ...w1ToW3() });
    expect(photos.body.responses.map((week) => week.count)).toEqual([0, 1, 0]);
    // Every field of the form asked, answered or not.
    expect(photos.body.fields.map((field) => [field.FieldID, field.total])).toEqual([
      [trap.count, 1],
      [trap.replaced, 1],
      [trap.pests, 0],
    ]);
    const inB = await get<SpecificTrendsAnswer>('/get_specific_trends', farm.regular.token, { company_id: farm.companyId, batch_id: batchId, room_id: roomB.id, ...w1ToW3() });
    expect(inB.body.responses.map((week) => week.count)).toEqual([0, 0, 0]);
    expect(inB.body.fields).toEqual([]);
    const scouting = await get<SpecificTrendsAnswer>('/get_specific_trends', farm.regular.token, { company_id: farm.companyId, batch_id: batchId, form_category: 'Scouting', ...w1ToW3() });
    expect(scouting.body.responses.map((week) => week.count)).toEqual([0, 0, 0]);
  });

  it('answers the validation messages, and 403 for another company’s batch or form', async () => {
    const ask = (query: Record<string, string | number | undefined>) => get('/get_specific_trends', farm.regular.token, { company_id: farm.companyId, batch_id: batchId, ...w1ToW3(), ...query });
    expect((await ask({ company_id: undefined })).body).toEqual(error(m.companyIdRequired));
    expect((await ask({ batch_id: undefined })).body).toEqual(error(m.batchIdRequired));
    expect((await ask({ date_option: 'forever' })).body).toEqual(error(m.invalidDateOption));
    expect((await ask({ form_category: 'Weather' })).body).toEqual(error(m.formCategoryInvalid));
    expect((await ask({ include_images_only: 'maybe' })).body).toEqual(error(m.includeImagesOnlyInvalid));
    expect((await ask({ specificForm: 'trap' })).body).toEqual(error(m.specificFormInvalid));
    const theirBatch = await server.request('POST', '/create_batch', { token: other.regular.token, form: { BatchNumber: `T-${randomUUID().slice(0, 6)}`, NumberOfPlants: 1, company_id: other.companyId } });
    expect((await ask({ batch_id: (theirBatch.body as { batch: { BatchID: number } }).batch.BatchID })).status).toBe(403);
    const theirTemplate = (await server.database.db.selectFrom('form_fields').select('template_id').where('id', '=', otherField).executeTakeFirstOrThrow()).template_id;
    expect((await ask({ specificForm: theirTemplate })).status).toBe(403);
  });
});

describe('get_treatment_effectiveness_report', () => {
  it('compares the sprayed boxes before and after with the room’s unsprayed boxes over the same days', async () => {
    const response = await get<TreatmentEffectivenessAnswer>('/get_treatment_effectiveness_report', farm.regular.token, { company_id: farm.companyId, ...w1ToW3() });
    expect(response.status).toBe(200);
    expect(response.body.window_days).toBe(14);
    expect(response.body.applications).toEqual([
      {
        application_id: expect.any(Number),
        ApplicationDate: new Date(`${w2}T00:00:00Z`).toISOString(),
        ProductName: 'Neem test',
        product_id: null,
        rooms: [{ RoomID: roomA.id, Name: roomA.name }],
        before_from: new Date(Date.parse(`${w2}T00:00:00Z`) - 14 * DAY_MS).toISOString(),
        after_until: new Date(Date.parse(`${w2}T00:00:00Z`) + 14 * DAY_MS).toISOString(),
        after_complete: true,
        // a0 and a1: w1's weevil and blotch before, w2's weevil after.
        treated: { boxes: 2, problems_before: 2, problems_after: 1, per_box_before: 1, per_box_after: 0.5, reduction_pct: 50 },
        // a2–a5: w1's weevil on a3 before; w2's weevil on a4 and w3's blotch on a2 after (a5's was a false alarm).
        untreated: { boxes: 4, problems_before: 1, problems_after: 2, per_box_before: 0.25, per_box_after: 0.5, reduction_pct: -100 },
        efficacy_pct: 75,
      },
    ]);
  });

  it('narrows to a product (any case) and to rooms', async () => {
    const ask = (query: Record<string, string | number | undefined>) => get<TreatmentEffectivenessAnswer>('/get_treatment_effectiveness_report', farm.regular.token, { company_id: farm.companyId, ...w1ToW3(), ...query });
    expect((await ask({ product_name: 'NEEM TEST' })).body.applications).toHaveLength(1);
    expect((await ask({ product_name: 'Pyrethrin' })).body.applications).toEqual([]);
    expect((await ask({ room_ids: String(roomB.id) })).body.applications).toEqual([]);
    expect((await ask({ start_date: w3 })).body.applications).toEqual([]);
  });

  it('answers the validation messages', async () => {
    expect((await get('/get_treatment_effectiveness_report', farm.regular.token, { ...w1ToW3() })).body).toEqual(error(m.companyIdRequired));
    expect((await get('/get_treatment_effectiveness_report', farm.regular.token, { company_id: farm.companyId, date_option: 'spring' })).body).toEqual(error(m.invalidDateOption));
    expect((await get('/get_treatment_effectiveness_report', farm.regular.token, { company_id: farm.companyId, room_ids: String(otherRoom) })).status).toBe(403);
  });
});

describe('get_report_info', () => {
  it('lists what a report can be made of', async () => {
    const response = await get<ReportInfoAnswer>('/get_report_info', farm.regular.token, { company_id: farm.companyId });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body.rooms).toEqual([
      { RoomID: roomA.id, Name: roomA.name },
      { RoomID: roomB.id, Name: roomB.name },
    ]);
    expect(body.problem_types).toEqual([
      { problem_type: WEEVIL, problem_slug: null, count: 6, first_observed: thursdayNoon(3).toISOString().slice(0, 10), last_observed: today },
      ...[
        { problem_type: BLOTCH, problem_slug: null, count: 2, first_observed: thursdayNoon(3).toISOString().slice(0, 10), last_observed: thursdayNoon(1).toISOString().slice(0, 10) },
        { problem_type: catalogued.name, problem_slug: catalogued.slug, count: 2, first_observed: thursdayNoon(1).toISOString().slice(0, 10), last_observed: thursdayNoon(1).toISOString().slice(0, 10) },
      ].sort((x, y) => x.problem_type.localeCompare(y.problem_type)),
    ]);
    expect(body.form_categories).toContain('Sticky Trap');
    expect(body.templates.find((template) => template.TemplateID === trap.id)?.fields.map((field) => field.FieldName)).toEqual(['Thrips count', 'Trap replaced', 'Pests seen']);
    expect(body.batches).toEqual([expect.objectContaining({ BatchID: batchId, StartDate: w1, EndDate: sunday(1) })]);
    expect(body.product_names).toEqual(['Neem test']);
    expect(body.first_observed).toBe(thursdayNoon(3).toISOString().slice(0, 10));
    expect(body.last_observed).toBe(today);
  });

  it('needs the company, and refuses another', async () => {
    expect((await get('/get_report_info', farm.regular.token)).body).toEqual(error(m.companyIdRequired));
    expect((await get('/get_report_info', farm.regular.token, { company_id: other.companyId })).status).toBe(403);
    expect((await server.request('GET', '/get_report_info', { query: { company_id: farm.companyId } })).status).toBe(401);
  });
});

describe('every trend call', () => {
  it('answers an Admin as a Regular user, and only with the company’s data', async () => {
    const regular = await get('/get_problem_trends', farm.regular.token, { company_id: farm.companyId, start_date: w1, end_date: w0 });
    const admin = await get('/get_problem_trends', farm.admin.token, { company_id: farm.companyId, start_date: w1, end_date: w0 });
    expect(admin.body).toEqual(regular.body);
    const theirs = await get<ProblemTrendsAnswer>('/get_problem_trends', other.regular.token, { company_id: other.companyId, start_date: w1, end_date: sunday(1) });
    expect(theirs.body.totals.map((point) => point.count)).toEqual([0, 1, 0]);
  });
});
