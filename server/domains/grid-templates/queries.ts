/** Grid templates: named row × column layouts of a grid or of the sub-gridboxes of a box (spec part 2 §3). */
import type { Selectable } from 'kysely';
import type { GridTemplatesTable } from '../../db/schema';

export const gridTemplateJson = (template: Selectable<GridTemplatesTable>) => ({
  template_id: template.id,
  template_name: template.template_name,
  template_type: template.template_type,
  rows: template.rows,
  columns: template.columns,
  description: template.description,
  company_id: template.company_id,
  user_id: template.user_id,
  created_at: template.created_at,
});
