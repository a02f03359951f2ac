/**
 * What the sync engine needs of the local store, so it runs on any RxDB storage (Dexie in the
 * browser, memory in tests) and knows nothing of React. src/db implements it over RxDB.
 */
import type { Effect } from './types';

export type LocalDocument = Record<string, unknown> & { id: string };

export interface LocalStore {
  get(collection: string, id: string): Promise<LocalDocument | null>;
  upsert(collection: string, document: LocalDocument): Promise<void>;
  remove(collection: string, id: string): Promise<void>;
}

/** One effect applied to one document (or to nothing): the pure part, shared by the store and the pull overlay. */
export function applyEffect(document: LocalDocument | null, effect: Effect): LocalDocument | null {
  switch (effect.op) {
    case 'upsert':
      return { ...(document ?? {}), ...effect.data, id: effect.id };
    case 'patch':
      return document ? { ...document, ...effect.data } : null;
    case 'remove':
      return null;
  }
}

/** Applies an entry's effects to the local store (the optimistic write, or its replay after a crash). */
export async function applyEffects(store: LocalStore, effects: readonly Effect[]): Promise<void> {
  for (const effect of effects) {
    const current = effect.op === 'remove' ? null : await store.get(effect.collection, effect.id);
    const next = applyEffect(current, effect);
    if (next) await store.upsert(effect.collection, next);
    else if (effect.op === 'remove') await store.remove(effect.collection, effect.id);
  }
}
