/** The sync engine's view of the local database (sync/store.ts), over RxDB. */
import type { LocalStore } from '../../sync/store';
import type { GrowDatabase } from './database';
import { type CollectionName, type LocalDocument, withLinkKeys } from './schemas';

/**
 * A stored document as the app reads it: without `syncPosition`, the sync engine's bookkeeping (which
 * server state it holds; sync/pull.ts), which is no field of the spec's records.
 */
export function readable(document: LocalDocument): LocalDocument {
  const { syncPosition: _position, ...fields } = document;
  return fields as LocalDocument;
}

/**
 * Documents of a local collection matching a selector, as plain data (`readable`). Here, beside the
 * store, rather than in api/context.ts, so a screen's lazy part (the command bar) reads the store
 * without loading the request schemas.
 */
export async function findLocal(context: { database: GrowDatabase }, collection: CollectionName, selector: Record<string, unknown> = {}): Promise<LocalDocument[]> {
  const documents = await context.database.collections[collection].find({ selector }).exec();
  return documents.map((document) => readable(document.toMutableJSON() as LocalDocument));
}

/** The local store as domain functions read it (ApiContext.store): documents as `readable` gives them. */
export function rxLocalReader(database: GrowDatabase): Pick<LocalStore, 'get'> {
  const store = rxLocalStore(database);
  return { get: async (collection, id) => (await store.get(collection, id).then((document) => (document ? readable(document) : null))) };
}

/**
 * The sync engine's store. WARNING: it reads and writes whole documents, `syncPosition` included: an
 * optimistic change must keep the position of the server state it was made on.
 */
export function rxLocalStore(database: GrowDatabase): LocalStore {
  const collectionOf = (name: string) => {
    const collection = database.collections[name as CollectionName];
    if (!collection) throw new Error(`No local collection ${name}`);
    return collection;
  };

  return {
    async get(collection, id) {
      const document = await collectionOf(collection).findOne(id).exec();
      return document ? (document.toMutableJSON() as LocalDocument) : null;
    },
    async upsert(collection, document) {
      await collectionOf(collection).upsert(withLinkKeys(collection as CollectionName, document));
    },
    async remove(collection, id) {
      await collectionOf(collection).findOne(id).remove();
    },
  };
}
