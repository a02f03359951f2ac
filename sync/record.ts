/**
 * One write, end to end, step 2 (ARCHITECTURE.md): the page's domain functions call `recordChange`
 * to store an outbox entry and make its optimistic change in the local store. The entry is written
 * first (with each touched document's prior state, to undo it if the grower discards the entry); the
 * engine re-applies the effects of stored entries when it starts, so a crash between the two steps
 * leaves both, never one.
 */
import type { EntryDraft, Outbox } from './outbox';
import { applyEffects, type LocalStore } from './store';
import type { OutboxEntry, TempId } from './types';
import { TEMP_ID_PREFIX } from './types';

export const newTempId = (): TempId => `${TEMP_ID_PREFIX}${crypto.randomUUID()}`;

export async function recordChange(outbox: Outbox, store: LocalStore, draft: EntryDraft): Promise<OutboxEntry> {
  const effects = [];
  for (const effect of draft.effects ?? []) effects.push({ ...effect, before: await store.get(effect.collection, effect.id) });
  const entry = await outbox.enqueue({ ...draft, effects });
  await applyEffects(store, entry.effects);
  return entry;
}
