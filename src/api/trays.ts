/**
 * Domain functions of trays and tray templates (spec part 2 §3, §5, §7, §8). Both are `operations`
 * documents of kind `tray` and `tray_template`, keyed by their client ids. Mutations send JSON bodies.
 */
import type { z } from 'zod';
import { changeLabels, labelNaming } from '../../common/messages/changes';
import { trayMessages } from '../../common/messages/trays';
import {
  createTrayBody,
  createTrayTemplateBody,
  deleteTrayBody,
  deleteTrayTemplateBody,
  trayCompanyQuery,
  type TrayRecord,
  type traysAnswer,
  type TrayTemplateRecord,
  type trayTemplatesAnswer,
  updateTrayBody,
  useTrayTemplateBody,
} from '../../common/schemas/trays';
import { newClientId } from '../../common/client-ids';
import { type ApiContext, check, json, now, online, record } from './context';
import type { RecordId } from './records';

type Id = RecordId;

/** A tray as the tablet holds it: its plant count is unknown (null) only for a tray made from a template the tablet has not pulled yet. */
export type Tray = Omit<TrayRecord, 'number_of_plants'> & { number_of_plants: number | null };

const trayDocument = (trayId: Id) => String(trayId);
const templateDocument = (templateId: Id) => String(templateId);

/** A new tray under its client id (sent as the request's `client_id`): its entry's `creates` and optimistic document. */
function newTray(fields: Omit<Tray, 'tray_id' | 'created_at' | 'updated_at'>) {
  const trayId = newClientId();
  const at = now();
  const tray: Tray = { tray_id: trayId, ...fields, created_at: at, updated_at: at };
  return {
    tray,
    trayId,
    creates: [trayId],
    effects: [{ op: 'upsert' as const, collection: 'operations', id: trayId, data: { ...tray, kind: 'tray' } }],
  };
}

const nameOf = (document: Record<string, unknown> | null, field: string) => (typeof document?.[field] === 'string' ? (document[field] as string) : '');

/**
 * get_tray_templates (spec §7): the company's templates, `{status, templates}`. Needs the company
 * ('companyID is required.'). Online; fails with the server's message or 'Failed to fetch tray templates.'.
 */
export async function getTrayTemplates(context: ApiContext, input: { companyId: number }) {
  const { company_id } = check(trayCompanyQuery, { company_id: input.companyId });
  return online<z.infer<typeof trayTemplatesAnswer>>(context, { path: '/get_tray_templates', query: { company_id } }, trayMessages.fetchTemplatesFailed);
}

/**
 * create_tray_template (spec §5): 'templateName, companyID and userID are required.' (the name
 * trimmed) and 'numberOfPlants must be a positive number.'. Queued: the template is in the local list
 * at once under its client id. Admin-only on the server: another role's entry shows in the sync
 * status's failed list.
 */
export async function createTrayTemplate(
  context: ApiContext,
  input: { templateName: string; companyId: number; userId: number; numberOfPlants: number; description?: string; defaultBatchId?: Id | null },
) {
  const values = check(createTrayTemplateBody, {
    template_name: input.templateName,
    company_id: input.companyId,
    user_id: input.userId,
    number_of_plants: input.numberOfPlants,
    description: input.description,
    default_batch_id: input.defaultBatchId,
  });
  const defaultBatchId = (values.default_batch_id as Id | undefined) ?? null;
  const templateId = newClientId();
  const template: TrayTemplateRecord = {
    template_id: templateId,
    template_name: values.template_name,
    number_of_plants: values.number_of_plants,
    description: values.description ?? null,
    default_batch_id: defaultBatchId,
    company_id: values.company_id,
    user_id: values.user_id,
    created_at: now(),
  };
  await record(context, {
    method: 'POST',
    path: '/create_tray_template',
    body: json({
      template_name: values.template_name,
      company_id: values.company_id,
      user_id: values.user_id,
      number_of_plants: values.number_of_plants,
      ...(values.description !== undefined ? { description: values.description } : {}),
      ...(defaultBatchId !== null ? { default_batch_id: defaultBatchId } : {}),
      client_id: templateId,
    }),
    creates: [templateId],
    effects: [{ op: 'upsert', collection: 'operations', id: templateId, data: { ...template, kind: 'tray_template' } }],
    label: changeLabels.createTrayTemplate(values.template_name),
  });
  return { template_id: templateId, template };
}

/**
 * delete_tray_template (spec §7): template id and company id ('templateID and companyID are
 * required.'). Queued: the template leaves the local list at once; trays made from it stay.
 * Admin-only on the server: another role's entry shows in the sync status's failed list.
 */
export async function deleteTrayTemplate(context: ApiContext, input: { templateId: Id; companyId: number }) {
  const values = check(deleteTrayTemplateBody, { template_id: input.templateId, company_id: input.companyId });
  const templateId = values.template_id as Id;
  const template = await context.store.get('operations', templateDocument(templateId));
  await record(context, {
    method: 'DELETE',
    path: '/delete_tray_template',
    body: json({ template_id: templateId, company_id: values.company_id }),
    effects: [{ op: 'remove', collection: 'operations', id: templateDocument(templateId) }],
    label: labelNaming(nameOf(template, 'template_name'), changeLabels.deleteTrayTemplate, changeLabels.deleteATrayTemplate),
  });
  return { template_id: templateId };
}

/**
 * use_tray_template (spec §5, §7): a tray from a template; the tray name is required, trimmed
 * ('trayName is required.'), with the template, company and user ('templateID, companyID and userID
 * are required.'). Queued: the tray appears at once under its client id, with the template's plant
 * count and, without `batchId`, its default batch (as the server does) when the template is in the
 * local store.
 */
export async function useTrayTemplate(context: ApiContext, input: { templateId: Id; companyId: number; userId: number; trayName: string; batchId?: Id | null }) {
  const values = check(useTrayTemplateBody, { template_id: input.templateId, company_id: input.companyId, user_id: input.userId, tray_name: input.trayName, batch_id: input.batchId });
  const templateId = values.template_id as Id;
  const batchId = values.batch_id as Id | undefined;
  const template = (await context.store.get('operations', templateDocument(templateId))) as (TrayTemplateRecord & { id: string }) | null;
  const { tray, trayId, creates, effects } = newTray({
    tray_name: values.tray_name,
    number_of_plants: template?.number_of_plants ?? null,
    batch_id: batchId ?? template?.default_batch_id ?? null,
    company_id: values.company_id,
    user_id: values.user_id,
  });
  await record(context, {
    method: 'POST',
    path: '/use_tray_template',
    body: json({ template_id: templateId, company_id: values.company_id, user_id: values.user_id, tray_name: values.tray_name, ...(batchId !== undefined ? { batch_id: batchId } : {}), client_id: trayId }),
    creates,
    effects,
    label: template ? changeLabels.createTrayFromTemplate(values.tray_name, template.template_name) : changeLabels.createTray(values.tray_name),
  });
  return { tray_id: tray.tray_id, tray };
}

/**
 * get_all_trays (spec §7): the company's trays, `{status, trays}`. Needs the company ('companyID is
 * required.'). Online; fails with the server's message or 'Failed to fetch trays.'.
 */
export async function getAllTrays(context: ApiContext, input: { companyId: number }) {
  const { company_id } = check(trayCompanyQuery, { company_id: input.companyId });
  return online<z.infer<typeof traysAnswer>>(context, { path: '/get_all_trays', query: { company_id } }, trayMessages.fetchTraysFailed);
}

/**
 * update_tray (spec §5): tray id and company id ('trayID and companyID are required.'); a plant count
 * sent must be positive ('numberOfPlants must be positive.'), a name sent must not be blank. Only the
 * fields given are sent and changed; `batchId: null` takes the tray out of its batch. Queued: the
 * local tray changes at once; returns it as the tablet now shows it (null if it is not local).
 */
export async function updateTray(context: ApiContext, input: { trayId: Id; companyId: number; trayName?: string; numberOfPlants?: number; batchId?: Id | null }) {
  const values = check(updateTrayBody, { tray_id: input.trayId, company_id: input.companyId, tray_name: input.trayName, number_of_plants: input.numberOfPlants, batch_id: input.batchId });
  const trayId = values.tray_id as Id;
  const changes: Partial<Pick<Tray, 'tray_name' | 'number_of_plants' | 'batch_id'>> = {};
  if (values.tray_name !== undefined) changes.tray_name = values.tray_name;
  if (values.number_of_plants !== undefined) changes.number_of_plants = values.number_of_plants;
  if (values.batch_id !== undefined) changes.batch_id = values.batch_id as Id | null;
  const current = await context.store.get('operations', trayDocument(trayId));
  const updatedAt = now();
  await record(context, {
    method: 'POST',
    path: '/update_tray',
    body: json({ tray_id: trayId, company_id: values.company_id, ...changes }),
    // Nothing given: the server changes nothing either, so the tray stays as it is.
    effects: Object.keys(changes).length > 0 ? [{ op: 'patch', collection: 'operations', id: trayDocument(trayId), data: { ...changes, updated_at: updatedAt } }] : [],
    label: labelNaming(changes.tray_name ?? nameOf(current, 'tray_name'), changeLabels.updateTray, changeLabels.updateATray),
  });
  if (!current) return null;
  const { id: _id, kind: _kind, ...shown } = current;
  return { ...(shown as unknown as Tray), ...changes, ...(Object.keys(changes).length > 0 ? { updated_at: updatedAt } : {}) };
}

/**
 * create_tray (spec §5, §7): the tray name is required, trimmed ('trayName is required.'); the plant
 * count must be positive ('numberOfPlants must be a positive number.'); company and user ('companyID
 * and userID are required.'). Queued: the tray appears at once under its client id, which is returned.
 */
export async function createTray(context: ApiContext, input: { trayName: string; companyId: number; userId: number; numberOfPlants: number; batchId?: Id | null }) {
  const values = check(createTrayBody, { tray_name: input.trayName, company_id: input.companyId, user_id: input.userId, number_of_plants: input.numberOfPlants, batch_id: input.batchId });
  const batchId = (values.batch_id as Id | undefined) ?? null;
  const { tray, trayId, creates, effects } = newTray({ tray_name: values.tray_name, number_of_plants: values.number_of_plants, batch_id: batchId, company_id: values.company_id, user_id: values.user_id });
  await record(context, {
    method: 'POST',
    path: '/create_tray',
    body: json({
      tray_name: values.tray_name,
      company_id: values.company_id,
      user_id: values.user_id,
      number_of_plants: values.number_of_plants,
      ...(batchId !== null ? { batch_id: batchId } : {}),
      client_id: trayId,
    }),
    creates,
    effects,
    label: changeLabels.createTray(values.tray_name),
  });
  return { tray_id: tray.tray_id, tray };
}

/**
 * delete_tray (spec §5): tray id and company id ('trayID and companyID are required.'). Queued: the
 * tray leaves the local list at once. Admin-only on the server: another role's entry shows in the
 * sync status's failed list (discarding it puts the tray back).
 */
export async function deleteTray(context: ApiContext, input: { trayId: Id; companyId: number }) {
  const values = check(deleteTrayBody, { tray_id: input.trayId, company_id: input.companyId });
  const trayId = values.tray_id as Id;
  const tray = await context.store.get('operations', trayDocument(trayId));
  await record(context, {
    method: 'POST',
    path: '/delete_tray',
    body: json({ tray_id: trayId, company_id: values.company_id }),
    effects: [{ op: 'remove', collection: 'operations', id: trayDocument(trayId) }],
    label: labelNaming(nameOf(tray, 'tray_name'), changeLabels.deleteTray, changeLabels.deleteATray),
  });
  return { tray_id: trayId };
}

export { trayMessages };
