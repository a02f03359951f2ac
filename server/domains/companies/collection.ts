/** The `company` collection: one document per company with its settings and its users inside. */
import type { Company } from '../../db/schema';
import type { SyncCollection } from '../replication/collections';
import { userJson, userQueries } from '../users/queries';
import { companyJson } from './queries';

export const companyCollection: SyncCollection = {
  name: 'company',
  tables: ['companies', 'users'],
  sources: [
    {
      table: 'companies',
      companyColumn: 'id',
      async toDocuments(db, rows) {
        const companies = rows as unknown as Company[];
        const users = await userQueries.byCompany(db, companies.map((company) => company.id).concat(-1));
        return companies.map((company) => ({
          id: String(company.id),
          _deleted: company.deleted_at !== null,
          ...companyJson(company),
          users: users.filter((user) => user.company_id === company.id).map(userJson),
        }));
      },
    },
  ],
};
