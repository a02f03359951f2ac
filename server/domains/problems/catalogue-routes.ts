/**
 * The plant problem catalogue (spec part 2 §7 "Plant problems"; issue 14) and what a company adds to it:
 * its own solutions and its problem colours. The catalogue is global content shipped with the server and
 * the app (common/plant-problems), not tables; custom solutions and colour mappings are the company's
 * records. Any member reads the catalogue and adds solutions (floor knowledge); colours are company
 * settings: Admins map and delete them (README "Roles"). A colour change and a new solution touch the
 * company, whose synced document carries the mappings and the solutions (companies/collection.ts), so
 * the tablet has both offline.
 */
import { auditTitles } from '../../../common/messages/audit-titles';
import { CATALOGUE, COLOR_SYMPTOMS, SYMPTOM_GROUPS, SYMPTOMS, catalogueProblem, filterCatalogue } from '../../../common/plant-problems';
import { problemMessages as m } from '../../../common/messages/problems';
import {
  addCustomSolutionAnswer,
  addCustomSolutionBody,
  colorSymptomsAnswer,
  companyQuery,
  deleteProblemColorAnswer,
  deleteProblemColorBody,
  extrasOf,
  filterPlantProblemsQuery,
  loadPlantProblemsAnswer,
  loadPlantProblemsQuery,
  mapProblemColorAnswer,
  mapProblemColorBody,
  plantProblemsAnswer,
  problemColorMappingsAnswer,
  symptomGroupsAnswer,
} from '../../../common/schemas/problems';
import { writer } from '../../db/writes';
import { conflictOnUnique, notFound } from '../../http/errors';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { colorMappingJson, customSolutionJson, problemQueries } from './queries';

const loadSchema = { querystring: loadPlantProblemsQuery, response: { 200: loadPlantProblemsAnswer } };
const symptomGroupsSchema = { response: { 200: symptomGroupsAnswer } };
const colorSymptomsSchema = { response: { 200: colorSymptomsAnswer } };
const filterSchema = { querystring: filterPlantProblemsQuery, response: { 200: plantProblemsAnswer } };
const addSolutionSchema = { body: addCustomSolutionBody, response: { 200: addCustomSolutionAnswer } };
const mappingsSchema = { querystring: companyQuery, response: { 200: problemColorMappingsAnswer } };
const mapColorSchema = { body: mapProblemColorBody, response: { 200: mapProblemColorAnswer } };
const deleteMappingSchema = { body: deleteProblemColorBody, response: { 200: deleteProblemColorAnswer } };

/** The catalogue entry a slug or id names; 404 for one the catalogue does not hold. */
function catalogued(slugOrId: string) {
  const problem = catalogueProblem(slugOrId);
  if (!problem) throw notFound(m.unknownSlug(slugOrId));
  return problem;
}

async function loadPlantProblems(request: RequestOf<typeof loadSchema>) {
  const { company_id, slug } = request.query;
  if (slug === undefined) return success({ problems: CATALOGUE });
  const problem = catalogued(slug);
  const solutions = await problemQueries.customSolutions(request.db, company_id, problem.slug);
  return success({ problem: { ...problem, custom_solutions: solutions.map(customSolutionJson) } });
}

async function getSymptomGroups() {
  return success({ symptom_groups: SYMPTOM_GROUPS.map((group) => ({ ...group, symptoms: SYMPTOMS.filter((symptom) => symptom.group === group.slug) })) });
}

async function getColorSymptoms() {
  return success({ color_symptoms: COLOR_SYMPTOMS });
}

/** Ids the catalogue does not know narrow the list to nothing (filterCatalogue), as a search would. */
async function filterPlantProblems(request: RequestOf<typeof filterSchema>) {
  const { symptom_group_id, symptom_id, color_symptom_id } = request.query;
  return success({ problems: filterCatalogue({ symptomGroupId: symptom_group_id, symptomId: symptom_id, colorSymptomId: color_symptom_id }) });
}

async function addCustomSolution(request: RequestOf<typeof addSolutionSchema>) {
  const { company_id, problem_id, custom_solution, client_id } = request.body;
  const problem = catalogued(problem_id);
  const actor = actorOfRequest(request, company_id);
  const write = writer(request.db, actor);
  const { id, client_id: solutionClientId } = await write.insert('custom_solutions', {
    client_id,
    company_id,
    problem_slug: problem.slug,
    solution: custom_solution,
    user_id: actor.userId,
  });
  // The solutions travel inside the company's synced document, as the colours do.
  await write.touch('companies', company_id);
  await recordAudit(request.db, actor, { title: auditTitles.addedSolution(problem.name), details: { custom_solution_id: id, problem_slug: problem.slug } });
  return success({ custom_solution: customSolutionJson(await problemQueries.customSolutionById(request.db, id)), client_id: solutionClientId }, m.solutionAdded);
}

async function getProblemColorMappings(request: RequestOf<typeof mappingsSchema>) {
  const mappings = await problemQueries.colorMappings(request.db, [request.query.company_id]);
  return success({ mappings: mappings.map(colorMappingJson) });
}

/** The audit title of a colour mapping as saved: its colour or the default, its abbreviation or none. */
function colourTitle(problem: string, colour: string | null, abbreviation: string | null) {
  if (colour === null) return abbreviation === null ? auditTitles.setDefaultColourWithoutAbbreviation(problem) : auditTitles.setDefaultColour(problem, abbreviation);
  return abbreviation === null ? auditTitles.setColourWithoutAbbreviation(problem, colour) : auditTitles.setColour(problem, colour, abbreviation);
}

/**
 * Upserts the company's mapping of a problem (compared without case): the fields sent replace the
 * mapping's, those not sent are kept, extras are merged; the problem takes the spelling sent last.
 */
async function mapProblemColor(request: RequestOf<typeof mapColorSchema>) {
  const fields = request.body;
  const { company_id, problem, Color, Abbreviation, client_id } = fields;
  const extras = extrasOf(fields);
  const actor = actorOfRequest(request, company_id);
  const write = writer(request.db, actor);
  const existing = await problemQueries.colorMappingOf(request.db, company_id, problem);
  let id: number;
  if (existing) {
    id = existing.id;
    await write.update('problem_color_mappings', id, {
      problem,
      color: Color ?? existing.color,
      abbreviation: Abbreviation ?? existing.abbreviation,
      extras: JSON.stringify({ ...existing.extras, ...extras }),
    });
  } else {
    ({ id } = await write
      .insert('problem_color_mappings', { client_id, company_id, problem, color: Color ?? null, abbreviation: Abbreviation ?? null, extras: JSON.stringify(extras) })
      // Another request mapped the same problem between the read and this insert.
      .catch(conflictOnUnique('problem_color_mappings_problem', m.mappingRaced(problem))));
  }
  // The mappings travel inside the company's synced document.
  await write.touch('companies', company_id);
  const mapping = await problemQueries.colorMappingById(request.db, id);
  await recordAudit(request.db, actor, { title: colourTitle(problem, mapping.color, mapping.abbreviation), details: { mapping_id: id } });
  return success({ mapping: colorMappingJson(mapping) }, m.colorMapped);
}

async function deleteProblemColorMapping(request: RequestOf<typeof deleteMappingSchema>) {
  const { company_id, problem } = request.body;
  const mapping = await problemQueries.colorMappingOf(request.db, company_id, problem);
  if (!mapping) throw notFound(m.mappingNotFound(problem));
  const actor = actorOfRequest(request, company_id);
  const write = writer(request.db, actor);
  await write.softDelete('problem_color_mappings', mapping.id);
  await write.touch('companies', company_id);
  await recordAudit(request.db, actor, { title: auditTitles.deletedColour(mapping.problem), details: { mapping_id: mapping.id } });
  return success({ Problem: mapping.problem }, m.colorMappingDeleted);
}

/** `problem_id` of add_custom_solution names a catalogue entry (global content), not a company's record: the guard leaves it. */
export async function catalogueRoutes(app: App) {
  const fields = { preValidation: fieldsFromQueryAndBody };
  app.get('/plant_problems/load_plant_problems', { schema: loadSchema }, loadPlantProblems);
  app.get('/plant_problems/get_symptom_groups', { schema: symptomGroupsSchema }, getSymptomGroups);
  app.get('/plant_problems/get_color_symptoms', { schema: colorSymptomsSchema }, getColorSymptoms);
  app.get('/plant_problems/filter_plant_problems', { schema: filterSchema }, filterPlantProblems);
  app.post('/plant_problems/add_custom_solution', { schema: addSolutionSchema, ...fields }, addCustomSolution);
  app.get('/get_problem_color_mappings', { schema: mappingsSchema }, getProblemColorMappings);
  app.post('/map_problem_color', { schema: mapColorSchema, config: { access: 'admin' }, ...fields }, mapProblemColor);
  app.delete('/delete_problem_color_mapping', { schema: deleteMappingSchema, config: { access: 'admin' }, ...fields }, deleteProblemColorMapping);
}
