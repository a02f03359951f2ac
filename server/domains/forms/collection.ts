/** The `form_templates` collection: one document per template, with its fields and hide-until-link rules inside. */
import type { Selectable } from 'kysely';
import { FORM_RESPONSES_WINDOW_DAYS } from '../../../common/messages/forms';
import { formResponseRecord } from '../../../common/schemas/form-responses';
import { formTemplateRecord } from '../../../common/schemas/forms';
import type { FormResponsesTable, FormTemplatesTable } from '../../db/schema';
import type { SyncCollection } from '../replication/sync-collection';
import { withOpenTask } from '../tasks/queries';
import { formQueries } from './queries';
import { responseQueries } from './responses-queries';

export const formTemplatesCollection: SyncCollection = {
  name: 'form_templates',
  tables: ['form_templates', 'form_fields', 'form_field_hide_rules'],
  sources: [
    {
      table: 'form_templates',
      companyColumn: 'company_id',
      // Inside: fields (their `id` and FieldID) and hide rules (the template, the hidden and the linked field).
      named: {
        kind: 'form_template',
        references: { TemplateID: 'form_template', id: 'form_field', FieldID: 'form_field', form_field_hidden_UID: 'form_template', form_field_hidden_FieldID: 'form_field', form_field_linked_FieldID: 'form_field' },
      },
      document: formTemplateRecord,
      async toDocuments(db, rows) {
        const templates = rows as unknown as Array<Selectable<FormTemplatesTable>>;
        const documents = await formQueries.withChildren(db, templates);
        return documents.map((document, index) => ({ id: String(document.TemplateID), _deleted: templates[index]!.deleted_at !== null, ...document }));
      },
    },
  ],
};

/**
 * The `form_responses` collection: one document per response, with its answers, photos, task,
 * comments and corrections inside (a write of any of them touches the response). Responses are pulled
 * for a recent window; decision (issue 16): a response whose task is not done is pulled however old, so
 * the open work reaches every tablet (and a task set done on an old response reaches them too, since
 * the write touched it). The tasks screen reads older done tasks online.
 */
export const formResponsesCollection: SyncCollection = {
  name: 'form_responses',
  tables: ['form_responses', 'form_field_responses', 'form_response_images', 'tasks', 'response_comments', 'form_corrections', 'form_correction_values'],
  sources: [
    {
      table: 'form_responses',
      companyColumn: 'company_id',
      // Inside: answers and photos name their response and field (their own ids stay integers: no tablet
      // names them); the task (`task_id`, its `response_id`, its forms) and comments (`CommentID`) are
      // named as tablets name them: a tablet makes both.
      named: {
        kind: 'form_response',
        references: {
          ResponseID: 'form_response',
          TemplateID: 'form_template',
          GridBoxID: 'grid_box',
          RoomID: 'room',
          BatchID: 'batch',
          FieldID: 'form_field',
          task_id: 'task',
          response_id: 'form_response',
          template_id: 'form_template',
          task_template_id: 'form_template',
          CommentID: 'response_comment',
        },
      },
      windowDays: FORM_RESPONSES_WINDOW_DAYS,
      keepBeyondWindow: withOpenTask,
      document: formResponseRecord,
      async toDocuments(db, rows) {
        const responses = rows as unknown as Array<Selectable<FormResponsesTable>>;
        const live = await responseQueries.responsesWithAnswers(db, { ids: responses.filter((row) => row.deleted_at === null).map((row) => row.id) });
        const byId = new Map(live.map((document) => [document.ResponseID, document]));
        return responses.map((row) => {
          const document = byId.get(row.id);
          return document ? { id: String(row.id), _deleted: false, ...document } : { id: String(row.id), _deleted: true };
        });
      },
    },
  ],
};
