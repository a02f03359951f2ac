/**
 * The local store: one RxDB database of the collections in schemas.ts. The page opens it once
 * (`localDatabase()`, a module-level promise: StrictMode renders twice and must not open two); the
 * sync worker opens its own instance of the same database, and RxDB's multi-instance channel keeps
 * them in step. Tests open one on the memory storage.
 */
import { createRxDatabase, removeRxDatabase, type RxCollection, type RxDatabase, type RxStorage } from 'rxdb';
import { getGrowroomDexieStorage } from './dexie-storage';
import { EMPTY_AT_OPEN_KEY } from './store-company';
import { COLLECTION_NAMES, type CollectionName, type LocalDocument, SCHEMAS } from './schemas';

export type GrowCollections = Record<CollectionName, RxCollection<LocalDocument>>;
export type GrowDatabase = RxDatabase<GrowCollections>;

/**
 * `growroom-2`: documents keyed by client id (the server's `naming=client`). The database of the
 * previous version (keyed by the server's ids and `tmp-…`) is removed when this one first opens: the
 * pull fills the new one, and the outbox keeps what was waiting (sync/outbox-upgrade.ts).
 */
export const DATABASE_NAME = 'growroom-2';
const PREVIOUS_DATABASE_NAMES = ['growroom'];
/** Noted in local storage once the previous databases are gone: removing costs a few hundred ms per page open. */
const PREVIOUS_REMOVED_KEY = 'growroom.previous-databases-removed';

/**
 * Opens the database with every collection; `collections` opens only some, for tests that run several
 * tablets in one process (RxDB allows 13 collections per process; the app opens 9 today).
 */
export async function openGrowDatabase(options: { storage: RxStorage<unknown, unknown>; name?: string; multiInstance?: boolean; collections?: readonly CollectionName[] }): Promise<GrowDatabase> {
  const database = await createRxDatabase<GrowCollections>({
    name: options.name ?? DATABASE_NAME,
    storage: options.storage,
    multiInstance: options.multiInstance ?? true,
    eventReduce: true,
    closeDuplicates: true,
  });
  const names = options.collections ?? COLLECTION_NAMES;
  await database.addCollections(Object.fromEntries(names.map((name) => [name, { schema: SCHEMAS[name] }])));
  return database;
}

let opened: Promise<GrowDatabase> | undefined;

/** The browser's local database (IndexedDB through Dexie), opened once per page or worker. */
export function localDatabase(): Promise<GrowDatabase> {
  opened ??= (async () => {
    const storage = getGrowroomDexieStorage();
    // Local storage is absent in the sync worker: the page does the removal.
    const notes = typeof localStorage === 'undefined' ? null : localStorage;
    if (notes && notes.getItem(PREVIOUS_REMOVED_KEY) !== '1') {
      for (const name of PREVIOUS_DATABASE_NAMES) await removeRxDatabase(name, storage).catch(() => undefined);
      notes.setItem(PREVIOUS_REMOVED_KEY, '1');
    }
    // A consultant's tablet holds one company's data at a time (store-company.ts).
    if (notes?.getItem(EMPTY_AT_OPEN_KEY) === '1') {
      await removeRxDatabase(DATABASE_NAME, storage).catch(() => undefined);
      // Its first pulls are gone with it (src/sync/sync-store.ts): the screens say they load again.
      for (const key of Object.keys(notes)) if (key.startsWith('growroom.pulled.')) notes.removeItem(key);
      notes.removeItem(EMPTY_AT_OPEN_KEY);
    }
    return openGrowDatabase({ storage });
  })();
  return opened;
}
