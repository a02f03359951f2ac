/**
 * Domain functions of grid templates (spec part 2 §3, §5, §7, §8, §9). Templates are `operations`
 * documents of kind `grid_template`, keyed by their client id.
 */
import type { z } from 'zod';
import { changeLabels, labelNaming } from '../../common/messages/changes';
import { type GridTemplateType, gridTemplateClientMessages, gridTemplateMessages } from '../../common/messages/grid-templates';
import {
  createGridTemplateBody,
  deleteGridTemplateQuery,
  type GridTemplateRecord,
  type gridTemplatesAnswer,
  gridTemplatesQuery,
  submitGridTemplateBody,
} from '../../common/schemas/grid-templates';
import { type ClientId, newClientId } from '../../common/client-ids';
import { gridCreation } from './grids';
import { type ApiContext, ValidationError, check, json, now, online, record } from './context';
import type { RecordId } from './records';
import { type SubGridbox, gridPositions, subGridboxCreation } from './subgrids';

type Id = RecordId;

/** A grid template as the server shows it; also the `grid_template` documents of `operations`. */
export type GridTemplate = GridTemplateRecord;

const documentIdOf = (templateId: Id) => String(templateId);

/**
 * create_grid_templates (spec §5): 'Template Name is required', 'Template Type is required ("Grid" or
 * "SubGrid")', 'Rows is required', 'Columns is required', 'Company ID is required', 'User ID is
 * required', 'template_type must be "Grid" or "SubGrid"'. Queued: the template is in the local list at
 * once under its client id, which is returned. Creating templates is Admin-only and a name is unique
 * per company and type on the server: such a refusal shows in the sync status's failed list.
 */
export async function createGridTemplates(
  context: ApiContext,
  input: { templateName: string; templateType: GridTemplateType; rows: number; columns: number; description?: string; companyId: number; userId: number },
) {
  const values = check(createGridTemplateBody, {
    template_name: input.templateName,
    template_type: input.templateType,
    rows: input.rows,
    columns: input.columns,
    description: input.description,
    company_id: input.companyId,
    user_id: input.userId,
  });
  const templateId = newClientId();
  const documentId = documentIdOf(templateId);
  const at = now();
  const template: GridTemplate = {
    template_id: templateId,
    template_name: values.template_name,
    template_type: values.template_type,
    rows: values.rows,
    columns: values.columns,
    description: values.description ?? null,
    company_id: values.company_id,
    user_id: values.user_id,
    created_at: at,
  };
  await record(context, {
    method: 'POST',
    path: '/create_grid_templates',
    body: json({
      template_name: values.template_name,
      template_type: values.template_type,
      rows: values.rows,
      columns: values.columns,
      ...(values.description !== undefined ? { description: values.description } : {}),
      company_id: values.company_id,
      user_id: values.user_id,
      client_id: templateId,
    }),
    creates: [templateId],
    effects: [{ op: 'upsert', collection: 'operations', id: documentId, data: { ...template, kind: 'grid_template' } }],
    label: changeLabels.createGridTemplate[values.template_type](values.template_name),
  });
  return { template_id: templateId, template };
}

/**
 * get_grid_templates (spec §5, §9): 'company_id is required', 'type must be "Grid" or "SubGrid"'; the
 * type defaults to SubGrid. Online; fails with the server's message or 'Failed to fetch templates'.
 * (Screens that must work offline read the `operations` documents of kind `grid_template`.)
 */
export async function getGridTemplates(context: ApiContext, input: { companyId: number; type?: GridTemplateType }) {
  const query = check(gridTemplatesQuery, { company_id: input.companyId, type: input.type });
  return online<z.infer<typeof gridTemplatesAnswer>>(
    context,
    { path: '/get_grid_templates', query: { company_id: query.company_id, type: query.type } },
    gridTemplateClientMessages.fetchFailed,
  );
}

/**
 * delete_grid_templates (spec §5): 'template_id is required', 'company_id is required'. Queued: the
 * template leaves the local list at once. Deleting is Admin-only on the server: another role's entry
 * shows in the sync status's failed list (discarding it puts the template back).
 */
export async function deleteGridTemplates(context: ApiContext, input: { templateId: Id; companyId: number }) {
  const query = check(deleteGridTemplateQuery, { template_id: input.templateId, company_id: input.companyId });
  const templateId = query.template_id as Id;
  const template = await context.store.get('operations', documentIdOf(templateId));
  await record(context, {
    method: 'DELETE',
    path: '/delete_grid_templates',
    query: { template_id: templateId, company_id: query.company_id },
    effects: [{ op: 'remove', collection: 'operations', id: documentIdOf(templateId) }],
    label: labelNaming(template?.template_name, changeLabels.deleteGridTemplate, changeLabels.deleteAGridTemplate),
  });
  return { template_id: templateId };
}

export type SubmittedGridTemplate =
  | { template_type: 'Grid'; GridID: ClientId; boxIds: ClientId[] }
  | { template_type: 'SubGrid'; parent_gridbox_id: Id; sub_gridboxes: SubGridbox[] }
  /** The template is not in the local store (not pulled yet): the server's answer arrives with the pull. */
  | { template_type: null };

/**
 * submit_grid_template (spec §5, §7, §9): needs template_id ('template_id is required') and company_id
 * ('company_id is required'). A Grid template makes a grid of columns × rows boxes in `roomId` (named
 * `gridName`, else after the template); a SubGrid template divides `parentGridboxId` into columns ×
 * rows sub-gridboxes (auto_initialize_plants defaults to true). When the template is in the local
 * store, the grid or the sub-gridboxes appear at once under their client ids and a missing room or box
 * is refused with the server's message; otherwise the entry goes as it is and the pull brings the
 * result. Queued; a refusal (e.g. the box's maximum) shows in the sync status's failed list.
 */
export async function submitGridTemplate(
  context: ApiContext,
  input: { templateId: Id; companyId: number; gridName?: string; roomId?: Id; parentGridboxId?: Id; autoInitializePlants?: boolean; userId?: number },
): Promise<SubmittedGridTemplate> {
  const values = check(submitGridTemplateBody, {
    template_id: input.templateId,
    company_id: input.companyId,
    grid_name: input.gridName,
    room_id: input.roomId,
    parent_gridbox_id: input.parentGridboxId,
    auto_initialize_plants: input.autoInitializePlants,
    user_id: input.userId,
  });
  const templateId = values.template_id as Id;
  const roomId = values.room_id as Id | undefined;
  const parentId = values.parent_gridbox_id as Id | undefined;
  const template = (await context.store.get('operations', documentIdOf(templateId))) as (GridTemplate & { id: string }) | null;
  // The new grid's client id, or the division's: the boxes' or sub-gridboxes' are derived from it.
  const clientId = newClientId();
  const body = json({
    template_id: templateId,
    company_id: values.company_id,
    ...(values.grid_name !== undefined ? { grid_name: values.grid_name } : {}),
    ...(roomId !== undefined ? { room_id: roomId } : {}),
    ...(parentId !== undefined ? { parent_gridbox_id: parentId } : {}),
    // Spec §9: auto_initialize_plants defaults to true.
    auto_initialize_plants: values.auto_initialize_plants ?? 1,
    ...(values.user_id !== undefined ? { user_id: values.user_id } : {}),
    client_id: clientId,
  });
  const entry = { method: 'POST' as const, path: '/submit_grid_template', body };

  if (template?.template_type === 'Grid') {
    if (roomId === undefined) throw new ValidationError(gridTemplateMessages.roomRequired);
    const name = values.grid_name ?? template.template_name;
    const gridId = clientId;
    const { creates, effects, boxIds } = gridCreation({ gridId, name, companyId: values.company_id, roomId, nx: template.columns, ny: template.rows });
    await record(context, { ...entry, creates, effects, label: changeLabels.createGridFromTemplate(name, template.template_name) });
    return { template_type: 'Grid', GridID: gridId, boxIds };
  }
  if (template?.template_type === 'SubGrid') {
    if (parentId === undefined) throw new ValidationError(gridTemplateMessages.parentRequired);
    const { created, creates, effects } = await subGridboxCreation(context, parentId, clientId, gridPositions(template.columns, template.rows));
    await record(context, { ...entry, creates, effects, label: changeLabels.divideBoxWithTemplate(template.template_name) });
    return { template_type: 'SubGrid', parent_gridbox_id: parentId, sub_gridboxes: created };
  }
  await record(context, { ...entry, label: changeLabels.useGridTemplate });
  return { template_type: null };
}

export { gridTemplateClientMessages, gridTemplateMessages };
