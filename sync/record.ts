/**
 * One write, end to end, step 2 (ARCHITECTURE.md): the page's domain functions call `recordChanges`
 * (through `record` in src/api/context.ts) to store outbox entries and make their optimistic changes
 * in the local store. The entries are written first (with each touched document's prior state, to undo
 * it if the grower discards the entry); the engine re-applies the effects of stored entries when it
 * starts, so a crash between the two steps leaves both, never one.
 */
import type { EntryDraft, Outbox } from './outbox';
import { applyEffect, applyEffects, type LocalDocument, type LocalStore } from './store';
import type { OutboxEntry } from './types';

/**
 * Several changes that stand or fall together (a form and its photos): all their entries are stored
 * in one transaction, so a failure leaves none of them and the grower can simply try again. Each
 * effect's prior state is the document as the changes before it in the list leave it.
 */
export async function recordChanges(outbox: Outbox, store: LocalStore, drafts: readonly EntryDraft[]): Promise<OutboxEntry[]> {
  const states = new Map<string, LocalDocument | null>();
  const prepared = [];
  for (const draft of drafts) {
    const effects = [];
    for (const effect of draft.effects ?? []) {
      const key = `${effect.collection}:${effect.id}`;
      const before = states.has(key) ? states.get(key)! : await store.get(effect.collection, effect.id);
      effects.push({ ...effect, before });
      states.set(key, applyEffect(before, effect));
    }
    prepared.push({ ...draft, effects });
  }
  const entries = await outbox.enqueueAll(prepared);
  for (const entry of entries) await applyEffects(store, entry.effects);
  return entries;
}
