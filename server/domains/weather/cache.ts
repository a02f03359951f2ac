/**
 * The weather cache's queries (migration 0020), defined once: geocoded places by the name asked, and
 * days at a point. Public weather: no company, no sync columns, no audit.
 */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, WeatherDaysTable, WeatherPlacesTable } from '../../db/schema';

export type CachedPlace = Selectable<WeatherPlacesTable>;
export type CachedDay = Selectable<WeatherDaysTable>;
export type NewCachedDay = Insertable<WeatherDaysTable>;

export const weatherQueries = {
  placeByQuery: (db: Kysely<DB>, query: string) => db.selectFrom('weather_places').selectAll().where('query', '=', query).executeTakeFirst(),

  /** Keeps what a name resolved to; two requests resolving it at once keep the later answer. */
  savePlace: async (db: Kysely<DB>, place: Insertable<WeatherPlacesTable>) => {
    await db
      .insertInto('weather_places')
      .values(place)
      .onConflict((conflict) =>
        conflict.column('query').doUpdateSet((row) => ({
          name: row.ref('excluded.name'),
          country: row.ref('excluded.country'),
          latitude: row.ref('excluded.latitude'),
          longitude: row.ref('excluded.longitude'),
          timezone: row.ref('excluded.timezone'),
          fetched_at: row.ref('excluded.fetched_at'),
        })),
      )
      .execute();
  },

  /** The cached days from `start` to `end` at a point, whatever their age. */
  daysAt: (db: Kysely<DB>, point: { latitude: number; longitude: number }, start: string, end: string) =>
    db
      .selectFrom('weather_days')
      .selectAll()
      .where('latitude', '=', point.latitude)
      .where('longitude', '=', point.longitude)
      .where('day', '>=', start)
      .where('day', '<=', end)
      .orderBy('day')
      .execute(),

  /** Writes fetched days in one statement (PGlite has one connection), replacing older copies. */
  saveDays: async (db: Kysely<DB>, days: NewCachedDay[]) => {
    if (days.length === 0) return;
    await db
      .insertInto('weather_days')
      .values(days)
      .onConflict((conflict) =>
        conflict.columns(['latitude', 'longitude', 'day']).doUpdateSet((row) => ({
          timezone: row.ref('excluded.timezone'),
          temperature_max: row.ref('excluded.temperature_max'),
          temperature_min: row.ref('excluded.temperature_min'),
          temperature_mean: row.ref('excluded.temperature_mean'),
          humidity_mean: row.ref('excluded.humidity_mean'),
          precipitation: row.ref('excluded.precipitation'),
          weather_code: row.ref('excluded.weather_code'),
          source: row.ref('excluded.source'),
          final: row.ref('excluded.final'),
          fetched_at: row.ref('excluded.fetched_at'),
        })),
      )
      .execute();
  },
};
