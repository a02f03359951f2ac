/** The `company` collection: one document per company with its settings, users, custom batch statuses, problem colours and custom solutions inside. */
import { companyDocument } from '../../../common/schemas/companies';
import type { Company } from '../../db/schema';
import { colorMappingJson, customSolutionJson, problemQueries } from '../problems/queries';
import type { SyncCollection } from '../replication/sync-collection';
import { userJson, userQueries } from '../users/queries';
import { companyJson } from './queries';

export const companyCollection: SyncCollection = {
  name: 'company',
  tables: ['companies', 'users', 'custom_batch_statuses', 'problem_color_mappings', 'custom_solutions'],
  sources: [
    {
      table: 'companies',
      companyColumn: 'id',
      document: companyDocument,
      async toDocuments(db, rows) {
        const companies = rows as unknown as Company[];
        const ids = companies.map((company) => company.id).concat(-1);
        const users = await userQueries.byCompany(db, ids);
        const statuses = await db.selectFrom('custom_batch_statuses').select(['id', 'company_id', 'name']).where('company_id', 'in', ids).where('deleted_at', 'is', null).orderBy('name').execute();
        // A mapping's change and a new solution touch their company (problems/catalogue-routes.ts), so the document is pulled again.
        const mappings = await problemQueries.colorMappings(db, ids);
        const solutions = await problemQueries.customSolutionsOf(db, ids);
        return companies.map((company) => ({
          id: String(company.id),
          _deleted: company.deleted_at !== null,
          ...companyJson(company),
          users: users.filter((user) => user.company_id === company.id).map(userJson),
          custom_batch_statuses: statuses.filter((status) => status.company_id === company.id).map((status) => ({ id: status.id, status_name: status.name })),
          problem_color_mappings: mappings.filter((mapping) => mapping.company_id === company.id).map(colorMappingJson),
          custom_solutions: solutions.filter((solution) => solution.company_id === company.id).map(customSolutionJson),
        }));
      },
    },
  ],
};
