/** The `form_templates` collection: one document per template, with its fields and hide-until-link rules inside. */
import type { Selectable } from 'kysely';
import type { FormTemplatesTable } from '../../db/schema';
import type { SyncCollection } from '../replication/collections';
import { formQueries } from './queries';

export const formTemplatesCollection: SyncCollection = {
  name: 'form_templates',
  tables: ['form_templates', 'form_fields', 'form_field_hide_rules'],
  sources: [
    {
      table: 'form_templates',
      companyColumn: 'company_id',
      async toDocuments(db, rows) {
        const templates = rows as unknown as Array<Selectable<FormTemplatesTable>>;
        const documents = await formQueries.withChildren(db, templates);
        return documents.map((document, index) => ({ id: String(document.TemplateID), _deleted: templates[index]!.deleted_at !== null, ...document }));
      },
    },
  ],
};
