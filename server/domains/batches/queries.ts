/** Batches of plants (spec part 1 §3 "Batch"). */
import type { Kysely } from 'kysely';
import type { Batch, DB } from '../../db/schema';

export const batchJson = (batch: Batch) => ({
  BatchID: batch.id,
  CompanyID: batch.company_id,
  BatchNumber: batch.batch_number,
  NumberOfPlants: batch.number_of_plants,
  StrainName: batch.strain_name,
  BatchStatus: batch.batch_status,
  Color: batch.color,
  StartDate: batch.start_date,
  EndDate: batch.end_date,
  HarvestedAt: batch.harvested_at,
  HarvestedBy: batch.harvested_by,
  CreatedDateTime: batch.created_at,
  UpdatedDateTime: batch.updated_at,
});

export const batchQueries = {
  byCompany: (db: Kysely<DB>, companyId: number) =>
    db.selectFrom('batches').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null).orderBy('id').execute(),
};
