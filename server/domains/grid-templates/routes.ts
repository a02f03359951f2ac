/**
 * Routes of grid templates (spec part 2 §3, §5, §7, §8, §9). Templates are company configuration:
 * Admins create and delete them; any member lists and uses one (floor work: laying out a grid or
 * dividing a box). Every write is audited.
 */
import { auditTitles } from '../../../common/messages/audit-titles';
import { gridTemplateMessages as m } from '../../../common/messages/grid-templates';
import {
  createGridTemplateAnswer,
  createGridTemplateBody,
  deleteGridTemplateAnswer,
  deleteGridTemplateQuery,
  gridTemplatesAnswer,
  gridTemplatesQuery,
  submitGridTemplateAnswer,
  submitGridTemplateBody,
} from '../../../common/schemas/grid-templates';
import { writer } from '../../db/writes';
import { badRequest, conflictOnUnique, notFound } from '../../http/errors';
import { assertCaller } from '../../http/guards';
import { type App, type RequestOf, success } from '../../http/route';
import { actorOfRequest, recordAudit } from '../audit/record';
import { gridBoxJson, gridJson, gridQueries } from '../grids/queries';
import { roomQueries } from '../rooms/queries';
import { subGridboxJson, subGridboxQueries } from '../subgrids/queries';
import { gridTemplateJson, gridTemplateQueries } from './queries';

const createSchema = { body: createGridTemplateBody, response: { 200: createGridTemplateAnswer } };
const listSchema = { querystring: gridTemplatesQuery, response: { 200: gridTemplatesAnswer } };
const deleteSchema = { querystring: deleteGridTemplateQuery, response: { 200: deleteGridTemplateAnswer } };
const submitSchema = { body: submitGridTemplateBody, response: { 200: submitGridTemplateAnswer } };

/** The live template of the named company; a SuperAdmin naming another company's id gets 404, not a template of a third. */
async function templateOf(request: RequestOf<typeof deleteSchema> | RequestOf<typeof submitSchema>, companyId: number, templateId: number) {
  const template = await gridTemplateQueries.ofCompanyById(request.db, companyId, templateId);
  if (!template) throw notFound(m.templateNotFound);
  return template;
}

async function createGridTemplate(request: RequestOf<typeof createSchema>) {
  const { template_name, template_type, rows, columns, description, company_id, user_id, client_id } = request.body;
  const auth = assertCaller(request, user_id);
  const actor = actorOfRequest(request, company_id);
  const { id, client_id: templateClientId } = await writer(request.db, actor)
    .insert('grid_templates', {
    client_id,
    company_id,
    template_name,
    template_type,
    rows,
    columns,
    description: description ?? null,
    user_id: auth.user_id,
  })
    // Two templates of one type with one name could not be told apart in a picker (migration 0003).
    .catch(conflictOnUnique('grid_templates_name', m.nameTaken(template_name, template_type)));
  await recordAudit(request.db, actor, { title: auditTitles.createdGridTemplate[template_type](template_name, rows, columns), details: { template_id: id } });
  return success({ template: gridTemplateJson(await gridTemplateQueries.byId(request.db, id)), template_id: id, client_id: templateClientId }, m.created);
}

async function getGridTemplates(request: RequestOf<typeof listSchema>) {
  const templates = await gridTemplateQueries.ofCompany(request.db, request.query.company_id, request.query.type);
  return success({ templates: templates.map(gridTemplateJson) });
}

async function deleteGridTemplate(request: RequestOf<typeof deleteSchema>) {
  const { template_id, company_id } = request.query;
  const template = await templateOf(request, company_id, template_id);
  const actor = actorOfRequest(request, company_id);
  await writer(request.db, actor).softDelete('grid_templates', template.id);
  await recordAudit(request.db, actor, { title: auditTitles.deletedGridTemplate[template.template_type](template.template_name), details: { template_id: template.id } });
  return success({ template_id: template.id }, m.deleted);
}

/**
 * A Grid template makes a grid of `columns` × `rows` boxes in a room (named `grid_name`, else after
 * the template); a SubGrid template divides a box into `columns` × `rows` sub-gridboxes, with the
 * same limits and answers as create_sub_gridboxes.
 */
async function submitGridTemplate(request: RequestOf<typeof submitSchema>) {
  const { template_id, company_id, grid_name, room_id, parent_gridbox_id, auto_initialize_plants, user_id, client_id } = request.body;
  assertCaller(request, user_id);
  const template = await templateOf(request, company_id, template_id);
  const actor = actorOfRequest(request, company_id);

  if (template.template_type === 'Grid') {
    if (room_id === undefined) throw badRequest(m.roomRequired);
    const room = await roomQueries.byId(request.db, room_id);
    if (room.company_id !== company_id) throw notFound();
    const name = grid_name ?? template.template_name;
    const gridId = await gridQueries.createWithBoxes(request.db, actor, { roomId: room.id, name, nx: template.columns, ny: template.rows, clientId: client_id });
    await recordAudit(request.db, actor, {
      title: auditTitles.createdGridFromTemplate(name, template.columns, template.rows, template.template_name),
      roomId: room.id,
      details: { grid_id: gridId, template_id: template.id },
    });
    const grid = await gridQueries.byId(request.db, gridId);
    const boxes = await gridQueries.boxesOfGrids(request.db, [gridId]);
    return success({ template_type: template.template_type, GridID: gridId, grid: { ...gridJson(grid), boxes: boxes.map(gridBoxJson) }, client_id: grid.client_id }, m.gridSubmitted);
  }

  if (parent_gridbox_id === undefined) throw badRequest(m.parentRequired);
  const parent = await subGridboxQueries.lockBox(request.db, parent_gridbox_id);
  if (parent.company_id !== company_id) throw notFound();
  // Spec §9: auto_initialize_plants defaults to true.
  const result = await subGridboxQueries.createInBox(request.db, actor, parent, { nx: template.columns, ny: template.rows }, auto_initialize_plants !== 0, client_id);
  await recordAudit(request.db, actor, {
    title: auditTitles.createdSubGridboxesFromTemplate(result.created.length, template.template_name),
    roomId: await subGridboxQueries.roomIdOfBox(request.db, parent.id),
    gridBoxId: parent.id,
    details: { template_id: template.id, sub_gridbox_ids: result.created.map((sub) => sub.id) },
  });
  return success(
    {
      template_type: template.template_type,
      parent_gridbox_id: parent.id,
      sub_gridboxes: result.created.map(subGridboxJson),
      client_ids: result.created.map((sub) => sub.client_id),
      total_count: result.total_count,
      max_allowed: result.max_allowed,
    },
    m.subGridSubmitted,
  );
}

const ownsTemplate = { template_id: 'grid_template' } as const;

export async function gridTemplateRoutes(app: App) {
  app.post('/create_grid_templates', { schema: createSchema, config: { access: 'admin' } }, createGridTemplate);
  app.get('/get_grid_templates', { schema: listSchema }, getGridTemplates);
  app.delete('/delete_grid_templates', { schema: deleteSchema, config: { access: 'admin', owns: ownsTemplate } }, deleteGridTemplate);
  app.post('/submit_grid_template', { schema: submitSchema, config: { owns: ownsTemplate } }, submitGridTemplate);
}
