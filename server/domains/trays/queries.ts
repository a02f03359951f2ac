/** Trays and tray templates (spec part 2 §3). */
import type { Selectable } from 'kysely';
import type { TrayTemplatesTable, TraysTable } from '../../db/schema';

export const trayJson = (tray: Selectable<TraysTable>) => ({
  tray_id: tray.id,
  tray_name: tray.tray_name,
  number_of_plants: tray.number_of_plants,
  batch_id: tray.batch_id,
  company_id: tray.company_id,
  user_id: tray.user_id,
  created_at: tray.created_at,
  updated_at: tray.updated_at,
});

export const trayTemplateJson = (template: Selectable<TrayTemplatesTable>) => ({
  template_id: template.id,
  template_name: template.template_name,
  number_of_plants: template.number_of_plants,
  description: template.description,
  default_batch_id: template.default_batch_id,
  company_id: template.company_id,
  user_id: template.user_id,
  created_at: template.created_at,
});
