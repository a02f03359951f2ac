/**
 * The trend and report calls (spec part 2 §5, §7; issue 15): read-only, for every role (a grower reads
 * the company's data, README "Roles"). Each reads the company its company_id names, checked against the
 * token by the tenancy guard like every record it names (room_ids, room_id, batch_id, batchid, FieldID,
 * specificForm): another company's answers 403. Periods resolve as the tablet resolves them
 * (common/schemas/report-dates.ts); the queries live beside this file.
 */
import { httpMessages } from '../../../common/messages/http';
import {
  cumulativeReportGraphAnswer,
  cumulativeReportGraphQuery,
  fieldResponsesReportAnswer,
  fieldResponsesReportQuery,
  gutterTrendsAnswer,
  gutterTrendsQuery,
  problemTrendsAnswer,
  problemTrendsQuery,
  reportInfoAnswer,
  reportInfoQuery,
  singleProblemTrendAnswer,
  singleProblemTrendQuery,
  specificTrendsAnswer,
  specificTrendsQuery,
  treatmentEffectivenessAnswer,
  treatmentEffectivenessQuery,
  trendsReportGraphAnswer,
  trendsReportGraphQuery,
  trendsWithSeverityAnswer,
  trendsWithSeverityQuery,
} from '../../../common/schemas/reports';
import { notFound } from '../../http/errors';
import { actingCompany } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { treatmentEffectiveness } from './effectiveness';
import { fieldResponsesReport, specificTrends } from './form-trends';
import { reportInfo } from './info';
import { cumulativeReportGraph, gutterTrends, problemTrends, singleProblemTrend, trendsReportGraph, trendsWithSeverity } from './trends';

const problemTrendsSchema = { querystring: problemTrendsQuery, response: { 200: problemTrendsAnswer } };
const reportGraphSchema = { querystring: trendsReportGraphQuery, response: { 200: trendsReportGraphAnswer } };
const cumulativeSchema = { querystring: cumulativeReportGraphQuery, response: { 200: cumulativeReportGraphAnswer } };
const severitySchema = { querystring: trendsWithSeverityQuery, response: { 200: trendsWithSeverityAnswer } };
const singleProblemSchema = { querystring: singleProblemTrendQuery, response: { 200: singleProblemTrendAnswer } };
const specificSchema = { querystring: specificTrendsQuery, response: { 200: specificTrendsAnswer } };
const gutterSchema = { querystring: gutterTrendsQuery, response: { 200: gutterTrendsAnswer } };
const fieldReportSchema = { querystring: fieldResponsesReportQuery, response: { 200: fieldResponsesReportAnswer } };
const effectivenessSchema = { querystring: treatmentEffectivenessQuery, response: { 200: treatmentEffectivenessAnswer } };
const infoSchema = { querystring: reportInfoQuery, response: { 200: reportInfoAnswer } };

async function getProblemTrends(request: RequestOf<typeof problemTrendsSchema>) {
  return success(await problemTrends(request.db, actingCompany(request, request.query.company_id), request.query));
}

async function getTrendsReportGraph(request: RequestOf<typeof reportGraphSchema>) {
  return success(await trendsReportGraph(request.db, actingCompany(request, request.query.company_id), request.query));
}

/** The spec sends the room alone: the room names the company (company_id, when sent, must be the room's). */
async function getTrendsCumulativeReportGraph(request: RequestOf<typeof cumulativeSchema>) {
  const { room_id, company_id } = request.query;
  const room = await request.db.selectFrom('rooms').select(['id', 'name', 'company_id']).where('id', '=', room_id).where('deleted_at', 'is', null).executeTakeFirst();
  if (!room || room.company_id !== actingCompany(request, company_id ?? room.company_id)) throw notFound(httpMessages.recordNotFound(`room ${room_id}`));
  return success(await cumulativeReportGraph(request.db, room, request.query));
}

async function getTrendsWithSeverity(request: RequestOf<typeof severitySchema>) {
  return success(await trendsWithSeverity(request.db, actingCompany(request, request.query.company_id), request.query));
}

async function getSingleProblemTrend(request: RequestOf<typeof singleProblemSchema>) {
  return success(await singleProblemTrend(request.db, actingCompany(request, request.query.company_id), request.query));
}

async function getSpecificTrends(request: RequestOf<typeof specificSchema>) {
  return success(await specificTrends(request.db, actingCompany(request, request.query.company_id), request.query));
}

async function getGutterTrends(request: RequestOf<typeof gutterSchema>) {
  return success(await gutterTrends(request.db, actingCompany(request, request.query.company_id), request.query));
}

async function getFieldResponsesReport(request: RequestOf<typeof fieldReportSchema>) {
  return success(await fieldResponsesReport(request.db, actingCompany(request, request.query.company_id), request.query));
}

async function getTreatmentEffectivenessReport(request: RequestOf<typeof effectivenessSchema>) {
  return success(await treatmentEffectiveness(request.db, actingCompany(request, request.query.company_id), request.query));
}

async function getReportInfo(request: RequestOf<typeof infoSchema>) {
  return success(await reportInfo(request.db, actingCompany(request, request.query.company_id)));
}

export async function reportRoutes(app: App) {
  app.get('/get_problem_trends', { schema: problemTrendsSchema }, getProblemTrends);
  app.get('/get_trends_report_graph', { schema: reportGraphSchema }, getTrendsReportGraph);
  app.get('/get_trends_cumulative_report_graph', { schema: cumulativeSchema }, getTrendsCumulativeReportGraph);
  app.get('/get_trends_with_severity', { schema: severitySchema }, getTrendsWithSeverity);
  app.get('/get_single_problem_trend', { schema: singleProblemSchema }, getSingleProblemTrend);
  app.get('/get_specific_trends', { schema: specificSchema, config: { owns: { specificForm: 'form_template' } } }, getSpecificTrends);
  app.get('/get_gutter_trends', { schema: gutterSchema }, getGutterTrends);
  app.get('/get_field_responses_report', { schema: fieldReportSchema }, getFieldResponsesReport);
  app.get('/get_treatment_effectiveness_report', { schema: effectivenessSchema }, getTreatmentEffectivenessReport);
  app.get('/get_report_info', { schema: infoSchema }, getReportInfo);
}
