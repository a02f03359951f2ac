/** The company's uploaded image classifiers (migration 0016), and how a row becomes its record. */
import type { Kysely, Selectable } from 'kysely';
import { isoTime } from '../../../common/schemas/answers';
import type { AiModelRecord } from '../../../common/schemas/models';
import type { AiModelsTable, DB } from '../../db/schema';

export type AiModel = Selectable<AiModelsTable>;

/** A jsonb column as the driver gives it: parsed, or as text on a driver that does not parse. */
const jsonOf = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

export const aiModelJson = (model: AiModel): AiModelRecord => ({
  built_in: false,
  model_id: model.id,
  key: model.key,
  name: model.name,
  description: model.description,
  version: model.version,
  latest: model.superseded_at === null,
  labels: jsonOf(model.labels),
  input: jsonOf(model.input),
  input_name: model.input_name,
  output_name: model.output_name,
  company_id: model.company_id,
  created_by: model.created_by,
  created_at: isoTime(model.created_at),
  updated_at: isoTime(model.updated_at),
});

const live = (db: Kysely<DB>) => db.selectFrom('ai_models').selectAll().where('deleted_at', 'is', null);

export const aiModelQueries = {
  /** A model version by id, live or not (the caller checks its company and whether it is deleted). */
  byId: (db: Kysely<DB>, id: number) => db.selectFrom('ai_models').selectAll().where('id', '=', id).executeTakeFirst(),
  /** The company's live models, the newest version of each, in name order. */
  latestOfCompany: (db: Kysely<DB>, companyId: number) => live(db).where('company_id', '=', companyId).where('superseded_at', 'is', null).orderBy('name').orderBy('key').execute(),
  /** The newest live version of a company's model, by key. */
  latestByKey: (db: Kysely<DB>, companyId: number, key: string) =>
    live(db).where('company_id', '=', companyId).where('key', '=', key).where('superseded_at', 'is', null).orderBy('version', 'desc').executeTakeFirst(),
  /** Every live version of a company's model, by key. */
  versionsByKey: (db: Kysely<DB>, companyId: number, key: string) => live(db).where('company_id', '=', companyId).where('key', '=', key).orderBy('version').execute(),
  /** The highest version a company's model ever had, deleted ones included (0: none). */
  async highestVersion(db: Kysely<DB>, companyId: number, key: string): Promise<number> {
    const row = await db.selectFrom('ai_models').select((eb) => eb.fn.max('version').as('version')).where('company_id', '=', companyId).where('key', '=', key).executeTakeFirst();
    return Number(row?.version ?? 0);
  },
};
