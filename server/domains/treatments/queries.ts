/** Spray products, treatments and spray records (spec part 2 §3). */
import { type Kysely, type Selectable, sql } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import type { SprayApplicationRecord, SprayProductRecord, TreatmentRecord } from '../../../common/schemas/treatments';
import type { TreatmentType } from '../../../common/messages/treatments';
import type { DB, SprayApplicationsTable, SprayProductsTable, TreatmentsTable } from '../../db/schema';

type SprayProduct = Selectable<SprayProductsTable>;
type Treatment = Selectable<TreatmentsTable>;
type SprayApplication = Selectable<SprayApplicationsTable>;

/** A jsonb object column as the driver gives it (parsed; as text on a driver that does not parse). */
const objectOf = (value: unknown): Record<string, unknown> => {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
};

/** The column holds only the request schema's types (and the table's CHECK). */
const treatmentTypeOf = (value: string) => value as TreatmentType;

export const sprayProductJson = (product: SprayProduct): SprayProductRecord => ({
  product_id: product.id,
  ProductName: product.name,
  ActiveIngredient: product.active_ingredient,
  Rate: product.rate,
  RateUnit: product.rate_unit,
  ReentryHours: product.reentry_hours,
  PreharvestDays: product.preharvest_days,
  details: objectOf(product.details),
  company_id: product.company_id,
  created_at: isoTime(product.created_at),
  updated_at: isoTime(product.updated_at),
});

export const treatmentJson = (treatment: Treatment): TreatmentRecord => ({
  treatment_id: treatment.id,
  treatment_type: treatmentTypeOf(treatment.treatment_type),
  sub_type: treatment.sub_type,
  product_id: treatment.product_id,
  data: objectOf(treatment.data),
  removed: treatment.removed_at !== null,
  removed_at: isoTime(treatment.removed_at),
  company_id: treatment.company_id,
  user_id: treatment.user_id,
  created_at: isoTime(treatment.created_at),
  updated_at: isoTime(treatment.updated_at),
});

export const sprayApplicationJson = (application: SprayApplication): SprayApplicationRecord => ({
  application_id: application.id,
  ApplicationDate: isoTime(application.application_date),
  product_id: application.product_id,
  ProductName: application.product_name,
  QuantityUsed: application.quantity_used,
  QuantityUnit: application.quantity_unit,
  Notes: application.notes,
  Grid_boxIDs: application.grid_box_ids,
  reentry_until: isoTime(application.reentry_until),
  preharvest_until: isoTime(application.preharvest_until),
  company_id: application.company_id,
  user_id: application.user_id,
  created_at: isoTime(application.created_at),
});

export const treatmentQueries = {
  productsByCompany: (db: Kysely<DB>, companyId: number) =>
    db
      .selectFrom('spray_products')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('deleted_at', 'is', null)
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .execute(),

  /**
   * A live product of the named company. The guard has checked the id against the caller, but a
   * SuperAdmin may name a product and a company that do not go together: that product is not found there.
   */
  productInCompany: (db: Kysely<DB>, id: number, companyId: number) =>
    db.selectFrom('spray_products').selectAll().where('id', '=', id).where('company_id', '=', companyId).where('deleted_at', 'is', null).executeTakeFirst(),

  /** The company's live product of this name, whatever its case (names are unique so, migration 0009). */
  productNamed: (db: Kysely<DB>, companyId: number, name: string) =>
    db
      .selectFrom('spray_products')
      .selectAll()
      .where('company_id', '=', companyId)
      .where(sql<string>`lower(name)`, '=', name.toLowerCase())
      .where('deleted_at', 'is', null)
      .executeTakeFirst(),

  productById: (db: Kysely<DB>, id: number) => db.selectFrom('spray_products').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** The company's live treatments (removed ones too: they can be restored), of one type and product when named. */
  treatments: (db: Kysely<DB>, companyId: number, filter: { type?: TreatmentType; productId?: number } = {}) => {
    let query = db.selectFrom('treatments').selectAll().where('company_id', '=', companyId).where('deleted_at', 'is', null);
    if (filter.type !== undefined) query = query.where('treatment_type', '=', filter.type);
    if (filter.productId !== undefined) query = query.where('product_id', '=', filter.productId);
    return query.orderBy('id').execute();
  },

  /** The company's live treatment of a type for a product (removed or not): the spec's calls name a treatment so. */
  treatmentOf: (db: Kysely<DB>, companyId: number, type: TreatmentType, productId: number) =>
    db
      .selectFrom('treatments')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('treatment_type', '=', type)
      .where('product_id', '=', productId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst(),

  treatmentById: (db: Kysely<DB>, id: number) => db.selectFrom('treatments').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  applicationById: (db: Kysely<DB>, id: number) => db.selectFrom('spray_applications').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),

  /** Of these grid boxes, the live ones of the company, with their room (for the audit trail and each box's history). */
  liveBoxesOf: (db: Kysely<DB>, companyId: number, boxIds: number[]) =>
    db
      .selectFrom('grid_boxes')
      .innerJoin('grids', 'grids.id', 'grid_boxes.grid_id')
      .select(['grid_boxes.id', 'grids.room_id'])
      .where('grid_boxes.id', 'in', boxIds)
      .where('grid_boxes.company_id', '=', companyId)
      .where('grid_boxes.deleted_at', 'is', null)
      .execute(),
};
