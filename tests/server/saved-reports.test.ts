/**
 * Saved reports, the dashboard's reports and read-only links to a report (issue 15), over HTTP on a
 * real database: every rule's message, who may change what, the four dashboard slots, and links that
 * read one report, without a session, until revoked.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { REPORT_DATA_MAX_CHARS, reportMessages, savedReportMessages as m } from '../../common/messages/reports';
import type { ReportShareRecord, SavedReportRecord } from '../../common/schemas/saved-reports';
import type { PushAnswer } from '../../common/schemas/sync';
import { clientIdOf, createRoom, createSuperAdmin, createTenant, createUser, type SignedInUser, type Tenant } from '../support/factories';
import { type RequestOptions, startServer, type TestServer } from '../support/server';
import { pullUntil } from '../support/sync';

let server: TestServer;
let farm: Tenant;
let other: Tenant;
/** A second grower of the farm: not the author of the first's reports. */
let grower: SignedInUser;
let roomA: number;
let roomB: number;
let otherRoom: number;

beforeAll(async () => {
  server = await startServer();
  farm = await createTenant(server);
  other = await createTenant(server);
  grower = await createUser(server, farm.companyId, 'Regular');
  roomA = await createRoom(server, farm.companyId);
  roomB = await createRoom(server, farm.companyId);
  otherRoom = await createRoom(server, other.companyId);
});
afterAll(() => server.close());

type Fields = Record<string, unknown>;
/** Reports as these calls answer them: named by the server's integer ids. */
type Report = Omit<SavedReportRecord, 'report_id' | 'room_ids'> & { report_id: number; room_ids: number[] };
type Share = Omit<ReportShareRecord, 'report_id'> & { report_id: number };
/** A saved report as tablets pull it: named by client ids. */
type PulledReport = SavedReportRecord & { id: string; _deleted: boolean };

const error = (message: string) => ({ status: 'error', message });
const forbidden = error(httpMessages.otherCompany);
const notFoundReport = (ref: number | string) => error(httpMessages.recordNotFound(`saved_report ${ref}`));

const call = (method: string, path: string, token: string | undefined, options: Omit<RequestOptions, 'token'> = {}) => server.request(method, path, { ...(token ? { token } : {}), ...options });
const post = (path: string, token: string, json: Fields) => call('POST', path, token, { json });
const get = (path: string, token: string | undefined, query: Record<string, string | number>) => call('GET', path, token, { query });

/** A trend's data as the trend calls answer it: weeks, rooms and counts. */
const trendData = (rooms: number[]) => rooms.flatMap((room) => [
  { week: '2026-01-05', room_id: room, problem_type: 'Powdery mildew', count: 3 },
  { week: '2026-01-12', room_id: room, problem_type: 'Powdery mildew', count: 5 },
]);

const reportFields = (tenant: Tenant, fields: Fields = {}): Fields => ({
  company_id: tenant.companyId,
  report_name: `Mildew ${randomUUID().slice(0, 8)}`,
  chart_type: 'line',
  report_type: 'trends_report_graph',
  report_data: trendData([roomA]),
  filters: { date_type: 'date_range', date_range: { start_date: '2026-01-05', end_date: '2026-03-01' } },
  room_ids: tenant === farm ? [roomA] : tenant === other ? [otherRoom] : [],
  ...fields,
});

async function saveReport(user: SignedInUser, tenant: Tenant, fields: Fields = {}) {
  const response = await post('/save_report', user.token, reportFields(tenant, fields));
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.report as Report;
}

const auditEvents = (companyId: number, title: string) =>
  server.database.db.selectFrom('audit_events').selectAll().where('company_id', '=', companyId).where('event_title', '=', title).orderBy('id').execute();

describe('save_report', () => {
  it('saves what the screen showed, for any member, as sent; audited', async () => {
    const fields = reportFields(farm, { room_ids: [roomA, roomB, roomA], report_data: trendData([roomA, roomB]) });
    const response = await post('/save_report', farm.regular.token, fields);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'success',
      message: m.reportSaved,
      report: {
        report_name: fields.report_name,
        chart_type: 'line',
        report_type: 'trends_report_graph',
        report_data: trendData([roomA, roomB]),
        filters: { date_type: 'date_range', date_range: { start_date: '2026-01-05', end_date: '2026-03-01' }, weeks_ago: null },
        room_ids: [roomA, roomB],
        company_id: farm.companyId,
        user_id: farm.regular.id,
      },
    });
    const report = response.body.report as Report;
    expect(response.body.report_id).toBe(report.report_id);
    expect(response.body.client_id).toEqual(expect.any(String));
    expect(Date.parse(report.updated_at)).toBeGreaterThan(Date.now() - 60_000);
    // Its data was computed when it was saved (the act's time); it is on no dashboard yet.
    expect(Date.parse(report.computed_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(report.dashboard_slot).toBeNull();
    const events = await auditEvents(farm.companyId, `Saved report ${fields.report_name as string}`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ user_id: farm.regular.id });
  });

  it('takes the chart type in any case or spelling of the five, the date option as weeks, and keeps the screen’s other filters', async () => {
    const stacked = await saveReport(farm.regular, farm, { chart_type: 'Stacked bar', filters: { date_type: 'weeks_ago', weeks_ago: '8', plant_problems: ['Powdery mildew'] } });
    expect(stacked).toMatchObject({ chart_type: 'stacked_bar', filters: { date_type: 'weeks_ago', weeks_ago: 8, date_range: null, plant_problems: ['Powdery mildew'] } });
    const heat = await saveReport(farm.regular, farm, { chart_type: 'heat map', filters: undefined, room_ids: undefined, report_type: undefined });
    expect(heat).toMatchObject({ chart_type: 'heatmap', filters: null, room_ids: [], report_type: null });
    for (const chart_type of ['bar', 'AREA', 'line']) expect((await saveReport(farm.regular, farm, { chart_type })).chart_type).toBe(chart_type.toLowerCase());
    // No date_type: the screens' default, date_range, with its dates.
    const byDefault = await saveReport(farm.regular, farm, { filters: { date_range: { start_date: '2026-02-02', end_date: '2026-02-08' } } });
    expect(byDefault.filters).toEqual({ date_type: 'date_range', date_range: { start_date: '2026-02-02', end_date: '2026-02-08' }, weeks_ago: null });
  });

  it('stores the data as given: ids inside it are a picture of an answer, not records the call names', async () => {
    const data = [{ room_id: otherRoom, grid_box_id: 2_000_000_000, nested: { batch_id: 'B-12', values: [1, null, 'x'] } }, 7, 'text', null];
    const report = await saveReport(farm.regular, farm, { report_data: data });
    expect(report.report_data).toEqual(data);
  });

  it.each([
    [{ company_id: undefined }, m.companyIdRequired],
    [{ company_id: 'farm' }, m.companyIdRequired],
    [{ report_name: undefined }, m.reportNameRequired],
    [{ report_name: '   ' }, m.reportNameRequired],
    [{ report_name: 'x'.repeat(201) }, m.reportNameRequired],
    [{ chart_type: undefined }, m.chartTypeRequired],
    [{ chart_type: '' }, m.chartTypeRequired],
    [{ chart_type: 'pie' }, m.chartTypeInvalid],
    [{ report_data: undefined }, m.reportDataArray],
    [{ report_data: { weeks: [] } }, m.reportDataArray],
    [{ report_data: '[1,2]' }, m.reportDataArray],
    [{ report_data: ['x'.repeat(REPORT_DATA_MAX_CHARS)] }, m.reportDataTooLarge],
    [{ room_ids: `1,2` }, reportMessages.roomIdsArray],
    [{ room_ids: 5 }, reportMessages.roomIdsArray],
    [{ room_ids: [0] }, reportMessages.roomIdsArray],
    [{ room_ids: ['Veg'] }, reportMessages.roomIdsArray],
    [{ filters: { date_type: 'yesterday' } }, reportMessages.invalidDateOption],
    [{ filters: { date_type: 'date_range', date_range: { end_date: '2026-01-31' } } }, reportMessages.startDateInvalid],
    [{ filters: { date_type: 'date_range', date_range: { start_date: '2026-01-01' } } }, reportMessages.endDateInvalid],
    [{ filters: { date_type: 'date_range' } }, reportMessages.startDateInvalid],
    [{ filters: { date_type: 'date_range', date_range: { start_date: '2026-02-30', end_date: '2026-03-01' } } }, reportMessages.startDateInvalid],
    [{ filters: { date_type: 'date_range', date_range: { start_date: '2026-03-01', end_date: '2026-01-01' } } }, reportMessages.endBeforeStart],
    [{ filters: { date_type: 'batch_related_date', date_range: { start_date: '2026-03-01' } } }, reportMessages.endDateInvalid],
    [{ filters: { date_type: 'weeks_ago' } }, reportMessages.weeksAgoInvalid],
    [{ filters: { date_type: 'weeks_ago', weeks_ago: 'many' } }, reportMessages.weeksAgoInvalid],
    [{ filters: 'last month' }, m.filtersInvalid],
    [{ filters: [] }, m.filtersInvalid],
    [{ filters: { date_type: 'weeks_ago', weeks_ago: 4, notes: 'x'.repeat(20_000) } }, m.filtersInvalid],
    [{ report_type: 'x'.repeat(101) }, m.reportTypeInvalid],
    [{ report_id: 'abc' }, m.reportIdInvalid],
    [{ client_id: 'not-a-uuid' }, httpMessages.clientIdInvalid],
  ])('answers %o with "%s"', async (fields, message) => {
    const response = await post('/save_report', farm.regular.token, reportFields(farm, fields));
    expect(response.status).toBe(400);
    expect(response.body).toEqual(error(message));
  });

  it('answers a body-less call with the first rule’s message', async () => {
    const response = await call('POST', '/save_report', farm.regular.token);
    expect(response).toMatchObject({ status: 400, body: error(m.companyIdRequired) });
  });

  it('refuses another company’s company_id or rooms (403) and a room that does not exist (404)', async () => {
    expect(await post('/save_report', farm.regular.token, reportFields(other))).toMatchObject({ status: 403, body: forbidden });
    expect(await post('/save_report', farm.regular.token, reportFields(farm, { room_ids: [roomA, otherRoom] }))).toMatchObject({ status: 403, body: forbidden });
    const missing = await post('/save_report', farm.regular.token, reportFields(farm, { room_ids: [2_000_000_000] }));
    expect(missing).toMatchObject({ status: 404, body: error(httpMessages.recordNotFound('room 2000000000')) });
  });
});

describe('save_report with a report_id: rename and change', () => {
  let report: Report;
  beforeAll(async () => {
    report = await saveReport(farm.regular, farm);
  });

  it('the author saves it again under a new name and chart, by id or by client id; audited', async () => {
    const renamed = await post('/save_report', farm.regular.token, reportFields(farm, { report_id: report.report_id, report_name: 'Mildew, rooms A and B', chart_type: 'bar', room_ids: [roomA, roomB] }));
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ message: m.reportUpdated, report_id: report.report_id, report: { report_id: report.report_id, report_name: 'Mildew, rooms A and B', chart_type: 'bar', room_ids: [roomA, roomB], user_id: farm.regular.id } });
    expect(await auditEvents(farm.companyId, `Renamed report ${report.report_name} to Mildew, rooms A and B`)).toHaveLength(1);
    const clientId = renamed.body.client_id as string;
    const byClientId = await post('/save_report', farm.regular.token, reportFields(farm, { report_id: clientId, report_name: 'Mildew, rooms A and B', chart_type: 'area' }));
    expect(byClientId.body).toMatchObject({ report_id: report.report_id, client_id: clientId, report: { chart_type: 'area' } });
    expect(await auditEvents(farm.companyId, 'Updated report Mildew, rooms A and B')).toHaveLength(1);
    const listed = await get('/get_saved_reports', farm.regular.token, { company_id: farm.companyId, report_id: report.report_id });
    expect((listed.body.reports as Report[]).map((one) => one.chart_type)).toEqual(['area']);
  });

  it('another grower may not change it (403); an Admin may', async () => {
    const byGrower = await post('/save_report', grower.token, reportFields(farm, { report_id: report.report_id, report_name: 'Mine now' }));
    expect(byGrower).toMatchObject({ status: 403, body: error(m.notAuthor) });
    const byAdmin = await post('/save_report', farm.admin.token, reportFields(farm, { report_id: report.report_id, report_name: 'Tidied by the Admin' }));
    expect(byAdmin.body).toMatchObject({ status: 'success', report: { report_name: 'Tidied by the Admin', user_id: farm.regular.id } });
  });

  it('another company’s report answers 403, one that does not exist 404', async () => {
    const theirs = await saveReport(other.regular, other);
    expect(await post('/save_report', farm.admin.token, reportFields(farm, { report_id: theirs.report_id }))).toMatchObject({ status: 403, body: forbidden });
    expect(await post('/save_report', farm.admin.token, reportFields(farm, { report_id: 2_000_000_000 }))).toMatchObject({ status: 404, body: notFoundReport(2_000_000_000) });
    const unknown = randomUUID();
    expect(await post('/save_report', farm.admin.token, reportFields(farm, { report_id: unknown }))).toMatchObject({ status: 404, body: notFoundReport(unknown) });
    expect((await get('/get_saved_reports', other.admin.token, { company_id: other.companyId, report_id: theirs.report_id })).body).toMatchObject({ reports: [{ report_name: theirs.report_name }] });
  });
});

describe('get_saved_reports', () => {
  it('lists the company’s reports by name with their data, to every member, and no other company’s', async () => {
    const tenant = await createTenant(server);
    const room = await createRoom(server, tenant.companyId);
    await saveReport(tenant.admin, tenant, { report_name: 'b thrips', room_ids: [room] });
    await saveReport(tenant.regular, tenant, { report_name: 'A mildew', room_ids: [room], report_data: [{ week: '2026-01-05', count: 1 }] });
    const listed = await get('/get_saved_reports', tenant.regular.token, { company_id: tenant.companyId });
    expect(listed.status).toBe(200);
    expect(listed.body.reports).toEqual([
      expect.objectContaining({ report_name: 'A mildew', report_data: [{ week: '2026-01-05', count: 1 }], company_id: tenant.companyId }),
      expect.objectContaining({ report_name: 'b thrips', company_id: tenant.companyId }),
    ]);
  });

  it('needs the company; another company’s answers 403', async () => {
    expect(await get('/get_saved_reports', farm.regular.token, {})).toMatchObject({ status: 400, body: error(m.companyIdRequired) });
    expect(await get('/get_saved_reports', farm.regular.token, { company_id: other.companyId })).toMatchObject({ status: 403, body: forbidden });
    expect(await get('/get_saved_reports', farm.regular.token, { company_id: farm.companyId, report_id: 'x' })).toMatchObject({ status: 400, body: error(m.reportIdInvalid) });
  });
});

describe('delete_report', () => {
  it('needs a report id (spec: "Delete report needs a report id")', async () => {
    expect(await call('DELETE', '/delete_report', farm.regular.token)).toMatchObject({ status: 400, body: error(m.reportIdRequired) });
    expect(await call('DELETE', '/delete_report', farm.regular.token, { query: { report_id: '' } })).toMatchObject({ status: 400, body: error(m.reportIdRequired) });
  });

  it('the author deletes their report (by query or body); another grower may not; an Admin may; audited', async () => {
    const mine = await saveReport(farm.regular, farm);
    expect(await call('DELETE', '/delete_report', grower.token, { query: { report_id: mine.report_id } })).toMatchObject({ status: 403, body: error(m.notAuthor) });
    const deleted = await call('DELETE', '/delete_report', farm.regular.token, { query: { report_id: mine.report_id } });
    expect(deleted).toMatchObject({ status: 200, body: { status: 'success', message: m.reportDeleted, report_id: mine.report_id } });
    expect(await auditEvents(farm.companyId, `Deleted report ${mine.report_name}`)).toHaveLength(1);
    const listed = await get('/get_saved_reports', farm.regular.token, { company_id: farm.companyId });
    expect((listed.body.reports as Report[]).map((report) => report.report_id)).not.toContain(mine.report_id);
    expect(await get('/get_saved_reports', farm.regular.token, { company_id: farm.companyId, report_id: mine.report_id })).toMatchObject({ status: 404, body: notFoundReport(mine.report_id) });
    expect(await call('DELETE', '/delete_report', farm.regular.token, { query: { report_id: mine.report_id } })).toMatchObject({ status: 404 });
    const growers = await saveReport(grower, farm);
    expect((await call('DELETE', '/delete_report', farm.admin.token, { json: { report_id: growers.report_id } })).status).toBe(200);
  });

  it('another company’s report answers 403 and stays', async () => {
    const theirs = await saveReport(other.regular, other);
    expect(await call('DELETE', '/delete_report', farm.admin.token, { query: { report_id: theirs.report_id } })).toMatchObject({ status: 403, body: forbidden });
    expect((await get('/get_saved_reports', other.regular.token, { company_id: other.companyId, report_id: theirs.report_id })).status).toBe(200);
  });
});

describe('the dashboard: set_dashboard_reports and get_dashboard_reports', () => {
  let tenant: Tenant;
  let reports: Report[];
  beforeAll(async () => {
    tenant = await createTenant(server);
    const room = await createRoom(server, tenant.companyId);
    reports = [];
    for (const name of ['One', 'Two', 'Three', 'Four', 'Five']) reports.push(await saveReport(tenant.regular, tenant, { report_name: name, room_ids: [room], report_data: [{ week: '2026-01-05', count: name.length }] }));
  });
  const dashboard = (token: string) => get('/get_dashboard_reports', token, { company_id: tenant.companyId });
  const setDashboard = (fields: Fields, token = tenant.admin.token) => call('POST', '/set_dashboard_reports', token, { query: { company_id: tenant.companyId }, json: fields });

  it('is empty at first', async () => {
    expect((await dashboard(tenant.regular.token)).body).toEqual({ status: 'success', report_id1: null, report_id2: null, report_id3: null, report_id4: null, reports: [] });
  });

  it('an Admin puts four reports on it; every member reads them in slot order with their data; audited', async () => {
    const [one, two, three, four] = reports as [Report, Report, Report, Report];
    const set = await setDashboard({ report_id1: three.report_id, report_id2: one.report_id, report_id3: four.report_id, report_id4: two.report_id });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ message: m.dashboardSaved, report_id1: three.report_id, report_id2: one.report_id, report_id3: four.report_id, report_id4: two.report_id });
    const read = await dashboard(tenant.regular.token);
    expect((read.body.reports as Report[]).map((report) => [report.dashboard_slot, report.report_name, report.report_data])).toEqual([
      [1, 'Three', [{ week: '2026-01-05', count: 5 }]],
      [2, 'One', [{ week: '2026-01-05', count: 3 }]],
      [3, 'Four', [{ week: '2026-01-05', count: 4 }]],
      [4, 'Two', [{ week: '2026-01-05', count: 3 }]],
    ]);
    expect(await auditEvents(tenant.companyId, 'Set dashboard reports')).toHaveLength(1);
  });

  it('takes its fields from the query too; a slot left out or empty is empty; a report by client id', async () => {
    const [one, two] = reports as [Report, Report];
    const clientId = (await server.database.db.selectFrom('saved_reports').select('client_id').where('id', '=', two.report_id).executeTakeFirstOrThrow()).client_id;
    const set = await call('POST', '/set_dashboard_reports', tenant.admin.token, { query: { company_id: tenant.companyId, report_id1: '', report_id2: one.report_id, report_id3: 'null', report_id4: clientId } });
    expect(set.body).toMatchObject({ report_id1: null, report_id2: one.report_id, report_id3: null, report_id4: two.report_id });
    expect((set.body.reports as Report[]).map((report) => report.dashboard_slot)).toEqual([2, 4]);
    expect((await setDashboard({ report_id2: two.report_id })).body).toMatchObject({ report_id1: null, report_id2: two.report_id, report_id3: null, report_id4: null });
  });

  it('refuses a fifth slot, a report twice, a bad id, and a call without the company', async () => {
    const [one, two, three, four, five] = reports as [Report, Report, Report, Report, Report];
    const fifth = await setDashboard({ report_id1: one.report_id, report_id2: two.report_id, report_id3: three.report_id, report_id4: four.report_id, report_id5: five.report_id });
    expect(fifth).toMatchObject({ status: 400, body: error(m.dashboardTooMany) });
    expect(await setDashboard({ report_id1: one.report_id, report_id3: one.report_id })).toMatchObject({ status: 400, body: error(m.dashboardRepeated) });
    const clientId = (await server.database.db.selectFrom('saved_reports').select('client_id').where('id', '=', one.report_id).executeTakeFirstOrThrow()).client_id;
    expect(await setDashboard({ report_id1: one.report_id, report_id2: clientId })).toMatchObject({ status: 400, body: error(m.dashboardRepeated) });
    expect(await setDashboard({ report_id1: 'first' })).toMatchObject({ status: 400, body: error(m.dashboardSlotInvalid) });
    expect(await setDashboard({ report_id1: -3 })).toMatchObject({ status: 400, body: error(m.dashboardSlotInvalid) });
    expect(await call('POST', '/set_dashboard_reports', tenant.admin.token, { json: { report_id1: one.report_id } })).toMatchObject({ status: 400, body: error(m.companyIdRequired) });
    expect(await get('/get_dashboard_reports', tenant.regular.token, {})).toMatchObject({ status: 400, body: error(m.companyIdRequired) });
  });

  it('only an Admin sets it; another company’s report (403) or company (403) and a missing report (404) are refused and change nothing', async () => {
    const before = (await dashboard(tenant.admin.token)).body;
    const [one] = reports as [Report];
    expect(await setDashboard({ report_id1: one.report_id }, tenant.regular.token)).toMatchObject({ status: 403, body: error(httpMessages.roleForbidden) });
    const theirs = await saveReport(other.regular, other);
    expect(await setDashboard({ report_id1: one.report_id, report_id2: theirs.report_id })).toMatchObject({ status: 403, body: forbidden });
    expect(await setDashboard({ report_id1: 2_000_000_000 })).toMatchObject({ status: 404, body: notFoundReport(2_000_000_000) });
    expect(await call('POST', '/set_dashboard_reports', tenant.admin.token, { json: { company_id: other.companyId, report_id1: theirs.report_id } })).toMatchObject({ status: 403, body: forbidden });
    expect(await get('/get_dashboard_reports', tenant.regular.token, { company_id: other.companyId })).toMatchObject({ status: 403, body: forbidden });
    expect((await dashboard(tenant.admin.token)).body).toEqual(before);
  });

  it('a SuperAdmin sets any company’s, but only with that company’s reports (404 for another’s)', async () => {
    const operator = await createSuperAdmin(server);
    const [one] = reports as [Report];
    const theirs = await saveReport(other.regular, other);
    const across = await call('POST', '/set_dashboard_reports', operator.token, { json: { company_id: tenant.companyId, report_id1: theirs.report_id } });
    expect(across).toMatchObject({ status: 404, body: notFoundReport(theirs.report_id) });
    const within = await call('POST', '/set_dashboard_reports', operator.token, { json: { company_id: tenant.companyId, report_id1: one.report_id } });
    expect(within.body).toMatchObject({ status: 'success', report_id1: one.report_id });
  });

  it('a deleted report leaves its slot empty', async () => {
    const [, two, three] = reports as [Report, Report, Report];
    await setDashboard({ report_id1: two.report_id, report_id2: three.report_id });
    expect((await call('DELETE', '/delete_report', tenant.admin.token, { query: { report_id: three.report_id } })).status).toBe(200);
    const read = await dashboard(tenant.regular.token);
    expect(read.body).toMatchObject({ report_id1: two.report_id, report_id2: null, report_id3: null, report_id4: null });
    expect((read.body.reports as Report[]).map((report) => report.report_name)).toEqual(['Two']);
    const row = await server.database.db.selectFrom('companies').select(['dashboard_report_id1', 'dashboard_report_id2']).where('id', '=', tenant.companyId).executeTakeFirstOrThrow();
    expect(row).toEqual({ dashboard_report_id1: two.report_id, dashboard_report_id2: null });
    // And a deleted report cannot be put back on it.
    expect(await setDashboard({ report_id1: three.report_id })).toMatchObject({ status: 404, body: notFoundReport(three.report_id) });
  });

  it('a tablet saves a report offline and puts it on the dashboard by its client id, in one push', async () => {
    const clientId = randomUUID();
    const entries = [
      { id: randomUUID(), method: 'POST', path: '/save_report', body: { kind: 'json', data: reportFields(tenant, { report_name: 'Made offline', client_id: clientId, room_ids: [] }) } },
      { id: randomUUID(), method: 'POST', path: '/set_dashboard_reports', query: { company_id: tenant.companyId }, body: { kind: 'json', data: { report_id1: clientId } } },
    ];
    const pushed = await server.request<PushAnswer>('POST', '/sync/push', { token: tenant.admin.token, json: { entries } });
    expect(pushed.status).toBe(200);
    expect(pushed.body.results.map((result) => result.status)).toEqual([200, 200]);
    const read = await dashboard(tenant.regular.token);
    expect((read.body.reports as Report[]).map((report) => report.report_name)).toEqual(['Made offline']);
  });
});

describe('the reports collection: saved reports on the tablets, for offline viewing', () => {
  it('pulls the company’s reports with their data, named by client ids (the report and its rooms); a deletion as a tombstone; no other company’s', async () => {
    const clientId = randomUUID();
    const saved = await saveReport(farm.regular, farm, { client_id: clientId, room_ids: [roomA, roomB], report_name: 'Pulled to tablets' });
    await saveReport(other.regular, other, { report_name: 'Another farm’s' });
    const pulled = await pullUntil<PulledReport>(server, grower.token, 'reports', (documents) => documents.has(clientId), 'client');
    expect(pulled.get(clientId)).toMatchObject({
      id: clientId,
      _deleted: false,
      report_id: clientId,
      report_name: 'Pulled to tablets',
      report_data: saved.report_data,
      room_ids: [await clientIdOf(server, 'rooms', roomA), await clientIdOf(server, 'rooms', roomB)],
      user_id: farm.regular.id,
    });
    expect([...pulled.values()].map((document) => document.report_name)).not.toContain('Another farm’s');
    expect(pulled.get(clientId)).toMatchObject({ dashboard_slot: null, computed_at: saved.computed_at });

    // The dashboard travels in the reports: a report put on it, moved, or taken off reaches the tablets with its place.
    const second = await saveReport(farm.regular, farm, { report_name: 'Also pulled' });
    const secondClientId = await clientIdOf(server, 'saved_reports', second.report_id);
    expect((await call('POST', '/set_dashboard_reports', farm.admin.token, { json: { company_id: farm.companyId, report_id1: saved.report_id, report_id3: second.report_id } })).status).toBe(200);
    const placed = await pullUntil<PulledReport>(server, grower.token, 'reports', (documents) => documents.get(clientId)?.dashboard_slot === 1 && documents.get(secondClientId)?.dashboard_slot === 3, 'client');
    // A place on the dashboard is not a new computation of the data.
    expect(placed.get(clientId)).toMatchObject({ computed_at: saved.computed_at, report_data: saved.report_data });
    expect((await call('POST', '/set_dashboard_reports', farm.admin.token, { json: { company_id: farm.companyId, report_id2: saved.report_id } })).status).toBe(200);
    await pullUntil<PulledReport>(server, grower.token, 'reports', (documents) => documents.get(clientId)?.dashboard_slot === 2 && documents.get(secondClientId)?.dashboard_slot === null, 'client');
    const answered = await get('/get_saved_reports', farm.regular.token, { company_id: farm.companyId });
    expect((answered.body.reports as Report[]).filter((report) => report.dashboard_slot !== null).map((report) => [report.report_name, report.dashboard_slot])).toEqual([['Pulled to tablets', 2]]);

    expect((await call('DELETE', '/delete_report', farm.regular.token, { query: { report_id: saved.report_id } })).status).toBe(200);
    const after = await pullUntil<PulledReport>(server, grower.token, 'reports', (documents) => documents.get(clientId)?._deleted === true, 'client');
    expect(after.get(clientId)?._deleted).toBe(true);
  });
});

describe('a report named by its client id is checked as one named by its id (the tenancy guard)', () => {
  let theirs: Report;
  let theirClientId: string;
  let mine: Report;
  let myClientId: string;
  const clientIdOf = async (reportId: number) => (await server.database.db.selectFrom('saved_reports').select('client_id').where('id', '=', reportId).executeTakeFirstOrThrow()).client_id;
  beforeAll(async () => {
    theirs = await saveReport(other.regular, other, { report_name: 'Theirs by client id' });
    theirClientId = await clientIdOf(theirs.report_id);
    mine = await saveReport(farm.regular, farm, { report_name: 'Mine by client id' });
    myClientId = await clientIdOf(mine.report_id);
  });

  it('another company’s answers 403 in every call that names a report, and changes nothing', async () => {
    const calls = [
      () => post('/save_report', farm.admin.token, reportFields(farm, { report_id: theirClientId, report_name: 'Taken over' })),
      () => get('/get_saved_reports', farm.regular.token, { company_id: farm.companyId, report_id: theirClientId }),
      () => call('DELETE', '/delete_report', farm.admin.token, { query: { report_id: theirClientId } }),
      () => post('/set_dashboard_reports', farm.admin.token, { company_id: farm.companyId, report_id3: theirClientId }),
      () => post('/share_report', farm.admin.token, { report_id: theirClientId }),
      () => get('/get_report_shares', farm.admin.token, { report_id: theirClientId }),
    ];
    for (const send of calls) expect(await send()).toMatchObject({ status: 403, body: forbidden });
    expect((await get('/get_saved_reports', other.regular.token, { company_id: other.companyId, report_id: theirClientId })).body).toMatchObject({ reports: [{ report_name: 'Theirs by client id' }] });
    expect(await server.database.db.selectFrom('report_shares').select('id').where('report_id', '=', theirs.report_id).execute()).toEqual([]);
  });

  it('the caller’s own is found by it in every call, and a deleted one is not', async () => {
    expect((await get('/get_saved_reports', farm.regular.token, { company_id: farm.companyId, report_id: myClientId })).body).toMatchObject({ reports: [{ report_id: mine.report_id }] });
    const shared = await post('/share_report', farm.admin.token, { report_id: myClientId });
    expect(shared.body).toMatchObject({ share: { report_id: mine.report_id } });
    expect((await get('/get_report_shares', farm.admin.token, { report_id: myClientId })).body).toMatchObject({ shares: [{ report_id: mine.report_id }] });
    expect(await call('DELETE', '/delete_report', farm.regular.token, { json: { report_id: myClientId } })).toMatchObject({ status: 200, body: { report_id: mine.report_id } });
    expect(await get('/get_saved_reports', farm.regular.token, { company_id: farm.companyId, report_id: myClientId })).toMatchObject({ status: 404, body: notFoundReport(mine.report_id) });
  });

  it('a SuperAdmin acting for a company finds another company’s report there by neither name (404)', async () => {
    const operator = await createSuperAdmin(server);
    for (const report_id of [theirs.report_id, theirClientId]) {
      expect(await get('/get_saved_reports', operator.token, { company_id: farm.companyId, report_id })).toMatchObject({ status: 404, body: notFoundReport(theirs.report_id) });
      expect(await post('/save_report', operator.token, reportFields(farm, { report_id, report_name: 'Moved across' }))).toMatchObject({ status: 404, body: notFoundReport(theirs.report_id) });
    }
    expect((await get('/get_saved_reports', operator.token, { company_id: other.companyId, report_id: theirClientId })).body).toMatchObject({ reports: [{ report_id: theirs.report_id }] });
  });

  it('a link is named by its id only: only the server makes links', async () => {
    expect(await post('/revoke_report_share', farm.admin.token, { share_id: randomUUID() })).toMatchObject({ status: 400, body: error(m.shareIdRequired) });
  });
});

describe('links to a report: share_report, get_report_shares, revoke_report_share and the public /reporting/report', () => {
  let report: Report;
  let second: Report;
  let theirs: Report;
  beforeAll(async () => {
    report = await saveReport(farm.regular, farm, { report_name: 'For the owner', chart_type: 'heatmap', room_ids: [roomA, roomB], filters: { date_type: 'weeks_ago', weeks_ago: 8 } });
    second = await saveReport(farm.regular, farm, { report_name: 'Not shared' });
    theirs = await saveReport(other.regular, other, { report_name: 'Their report' });
  });

  const share = async (reportId: number | string, tenant: Tenant = farm) => {
    const response = await post('/share_report', tenant.admin.token, { report_id: reportId });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body as { share: Share; token: string; path: string; url: string };
  };
  const open = (token: string, headers: Record<string, string> = {}) => call('GET', '/reporting/report', undefined, { query: { token }, headers });

  it('an Admin makes a link: an unguessable token, answered once, its page’s path; audited', async () => {
    const made = await share(report.report_id);
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(made.path).toBe(`/reporting?token=${made.token}`);
    expect(made.url).toBe(`${server.config.publicUrl}/reporting?token=${made.token}`);
    expect(made.share).toMatchObject({ report_id: report.report_id, created_by: farm.admin.id, revoked_at: null, revoked_by: null });
    expect(await auditEvents(farm.companyId, 'Shared report For the owner by link')).toHaveLength(1);
    expect((await share(report.report_id)).token).not.toBe(made.token);
  });

  it('keeps only the token’s hash', async () => {
    const made = await share(second.report_id);
    const rows = await server.database.db.selectFrom('report_shares').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(made.token);
    const row = rows.find((one) => one.id === made.share.share_id);
    expect(row?.token_hash).toBe(createHash('sha256').update(made.token).digest('hex'));
  });

  it('opens without a session, and answers that report’s name, chart, type, filters, data and time: nothing else', async () => {
    const made = await share(report.report_id);
    const opened = await open(made.token);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('cache-control')).toBe('no-store');
    expect(opened.body).toEqual({
      status: 'success',
      report: {
        report_name: 'For the owner',
        chart_type: 'heatmap',
        report_type: 'trends_report_graph',
        filters: { date_type: 'weeks_ago', weeks_ago: 8, date_range: null },
        report_data: trendData([roomA]),
        computed_at: report.computed_at,
      },
    });
    // A later save shows in the link, with its time.
    const saved = await post('/save_report', farm.regular.token, reportFields(farm, { report_id: report.report_id, report_name: 'For the owner', chart_type: 'heatmap', filters: { date_type: 'weeks_ago', weeks_ago: 8 }, report_data: [{ week: '2026-02-02', count: 9 }] }));
    const reopened = await open(made.token);
    expect(reopened.body).toMatchObject({ report: { report_data: [{ week: '2026-02-02', count: 9 }], computed_at: (saved.body.report as Report).computed_at } });
  });

  it('a wrong token, another report’s token and a missing token open nothing of this report', async () => {
    const made = await share(report.report_id);
    for (const token of [`${made.token.slice(0, -1)}${made.token.endsWith('A') ? 'B' : 'A'}`, 'x', randomUUID(), String(report.report_id)]) {
      expect(await open(token)).toMatchObject({ status: 404, body: error(m.shareNotFound) });
    }
    const other = await share(second.report_id);
    expect((await open(other.token)).body).toMatchObject({ report: { report_name: 'Not shared' } });
    expect(await call('GET', '/reporting/report', undefined)).toMatchObject({ status: 400, body: error(m.tokenRequired) });
  });

  it('reads nothing else: the token is no session anywhere, and the signed-in calls stay closed without one', async () => {
    const made = await share(report.report_id);
    expect(await get('/get_saved_reports', made.token, { company_id: farm.companyId })).toMatchObject({ status: 401 });
    expect(await get('/get_saved_reports', undefined, { company_id: farm.companyId, token: made.token })).toMatchObject({ status: 401 });
    expect(await get('/get_dashboard_reports', undefined, { company_id: farm.companyId, token: made.token })).toMatchObject({ status: 401 });
    expect(await get('/get_report_shares', undefined, { report_id: report.report_id, token: made.token })).toMatchObject({ status: 401 });
    // The public read takes the token alone: another report named beside it changes nothing.
    const beside = await call('GET', '/reporting/report', undefined, { query: { token: made.token, report_id: second.report_id, company_id: other.companyId } });
    expect(beside.body).toMatchObject({ report: { report_name: 'For the owner' } });
  });

  it('lists a report’s links for its Admins, newest first, without tokens', async () => {
    const fresh = await saveReport(farm.regular, farm);
    const first = await share(fresh.report_id);
    const latest = await share(fresh.report_id);
    const listed = await get('/get_report_shares', farm.admin.token, { report_id: fresh.report_id });
    expect(listed.status).toBe(200);
    expect((listed.body.shares as Share[]).map((one) => one.share_id)).toEqual([latest.share.share_id, first.share.share_id]);
    expect(JSON.stringify(listed.body)).not.toContain(first.token);
    expect(JSON.stringify(listed.body)).not.toContain('token');
    expect(await get('/get_report_shares', farm.admin.token, {})).toMatchObject({ status: 400, body: error(m.reportIdRequired) });
  });

  it('a revoked link opens nothing; revoking again changes nothing; audited', async () => {
    const made = await share(report.report_id);
    const kept = await share(report.report_id);
    const revoked = await post('/revoke_report_share', farm.admin.token, { share_id: made.share.share_id });
    expect(revoked).toMatchObject({ status: 200, body: { message: m.shareRevoked, share: { share_id: made.share.share_id, revoked_by: farm.admin.id } } });
    expect((revoked.body.share as Share).revoked_at).toEqual(expect.any(String));
    expect(await open(made.token)).toMatchObject({ status: 404, body: error(m.shareNotFound) });
    expect((await open(kept.token)).status).toBe(200);
    const again = await post('/revoke_report_share', farm.admin.token, { share_id: made.share.share_id });
    expect(again.body).toMatchObject({ message: m.shareAlreadyRevoked, share: { revoked_at: (revoked.body.share as Share).revoked_at } });
    expect(await auditEvents(farm.companyId, 'Revoked a link to report For the owner')).toHaveLength(1);
    const listed = await get('/get_report_shares', farm.admin.token, { report_id: report.report_id });
    expect((listed.body.shares as Share[]).find((one) => one.share_id === made.share.share_id)?.revoked_at).toEqual((revoked.body.share as Share).revoked_at);
  });

  it('a deleted report’s links open nothing', async () => {
    const doomed = await saveReport(farm.regular, farm, { report_name: 'Doomed' });
    const made = await share(doomed.report_id);
    expect((await open(made.token)).status).toBe(200);
    expect((await call('DELETE', '/delete_report', farm.regular.token, { query: { report_id: doomed.report_id } })).status).toBe(200);
    expect(await open(made.token)).toMatchObject({ status: 404, body: error(m.shareNotFound) });
    const row = await server.database.db.selectFrom('report_shares').select('revoked_at').where('id', '=', made.share.share_id).executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
  });

  it('only Admins share, list and revoke; another company’s report or link answers 403; missing ones 404', async () => {
    const made = await share(report.report_id);
    expect(await post('/share_report', farm.regular.token, { report_id: report.report_id })).toMatchObject({ status: 403, body: error(httpMessages.roleForbidden) });
    expect(await get('/get_report_shares', farm.regular.token, { report_id: report.report_id })).toMatchObject({ status: 403, body: error(httpMessages.roleForbidden) });
    expect(await post('/revoke_report_share', farm.regular.token, { share_id: made.share.share_id })).toMatchObject({ status: 403, body: error(httpMessages.roleForbidden) });
    expect(await post('/share_report', farm.admin.token, { report_id: theirs.report_id })).toMatchObject({ status: 403, body: forbidden });
    expect(await get('/get_report_shares', farm.admin.token, { report_id: theirs.report_id })).toMatchObject({ status: 403, body: forbidden });
    const theirShare = await share(theirs.report_id, other);
    expect(await post('/revoke_report_share', farm.admin.token, { share_id: theirShare.share.share_id })).toMatchObject({ status: 403, body: forbidden });
    expect((await open(theirShare.token)).status).toBe(200);
    expect(await post('/share_report', farm.admin.token, { report_id: 2_000_000_000 })).toMatchObject({ status: 404, body: notFoundReport(2_000_000_000) });
    expect(await post('/revoke_report_share', farm.admin.token, { share_id: 2_000_000_000 })).toMatchObject({ status: 404, body: error(httpMessages.recordNotFound('report_share 2000000000')) });
    expect(await post('/share_report', farm.admin.token, {})).toMatchObject({ status: 400, body: error(m.reportIdRequired) });
    expect(await post('/revoke_report_share', farm.admin.token, {})).toMatchObject({ status: 400, body: error(m.shareIdRequired) });
  });
});

describe('the public read is rate limited per address, as sign-in is', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ loginRateLimitPerMinute: 3 });
  });
  afterAll(() => limited?.close());

  it('answers 429 past the limit', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await limited.request('GET', '/reporting/report', { query: { token: `guess-${attempt}` } })).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    const refused = await limited.request('GET', '/reporting/report', { query: { token: 'guess' } });
    expect(refused.body).toEqual(error(httpMessages.rateLimited));
  });
});
