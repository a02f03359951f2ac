/**
 * The `plant_problems` collection: the problems recorded on grid boxes and plants, open and closed (the
 * pest-pressure map's week slider replays them), each named as tablets name records. The catalogue is
 * not synced: it ships with the app (common/plant-problems). Colour mappings travel in the company document.
 */
import { plantProblemRecord } from '../../../common/schemas/problems';
import type { SyncCollection } from '../replication/sync-collection';
import { type PlantProblem, plantProblemJson } from './queries';

export const plantProblemsCollection: SyncCollection = {
  name: 'plant_problems',
  tables: ['plant_problems'],
  sources: [
    {
      table: 'plant_problems',
      companyColumn: 'company_id',
      named: {
        kind: 'plant_problem',
        references: { problem_id: 'plant_problem', room_id: 'room', grid_id: 'grid', grid_box_id: 'grid_box', sub_gridbox_id: 'sub_gridbox', form_response_id: 'form_response' },
      },
      document: plantProblemRecord,
      async toDocuments(_db, rows) {
        return (rows as unknown as PlantProblem[]).map((problem) => ({ ...plantProblemJson(problem), id: String(problem.id), _deleted: problem.deleted_at !== null }));
      },
    },
  ],
};
