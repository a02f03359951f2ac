/**
 * Whose data the tablet's local store holds, for an outside consultant's tablet (issue 18). The store has
 * no company in its keys and the screens read it whole, so it holds one company's data at a time: a
 * consultant's session of another company than the one held (a switch, or a sign-in to another), or
 * anyone's session after a consultant's of another company, starts from an empty store, filled by the
 * pull of the session's company (the sync worker's checkpoints are per company, and go with the store).
 * The store is emptied when the page opens it (database.ts), before anything reads it; changes still
 * waiting stay in the outbox, another database. Apart from database.ts so that asking for it does not
 * load RxDB with the first page.
 */

/** Set when the store must be emptied at its next opening in a page; database.ts removes it once done. */
export const EMPTY_AT_OPEN_KEY = 'growroom.empty-local-database';
/** The company whose data a consultant's session keeps in the store. */
const HELD_KEY = 'growroom.local-store-company';

type Notes = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * Before the page opens the store for `current`: asks for it to be emptied when it may hold another
 * company's data (see the header), and notes whose it is from then on. Members of one company who never
 * shared the tablet with a consultant are not concerned: nothing is noted for them.
 */
export function holdStoreFor(current: { user_role: string; company_id: number }, notes: Notes = localStorage): void {
  const held = notes.getItem(HELD_KEY);
  const consultant = current.user_role === 'Consultant';
  if (held === String(current.company_id) && consultant) return;
  if (!consultant) notes.removeItem(HELD_KEY);
  if (!consultant && held === null) return;
  if (consultant) notes.setItem(HELD_KEY, String(current.company_id));
  notes.setItem(EMPTY_AT_OPEN_KEY, '1');
}

/** After a consultant's switch: the store is emptied at the page load that follows, and kept for `companyId`. */
export function holdNext(companyId: number, notes: Pick<Storage, 'setItem'> = localStorage): void {
  notes.setItem(HELD_KEY, String(companyId));
  notes.setItem(EMPTY_AT_OPEN_KEY, '1');
}

/**
 * Whether an emptying is still asked for after the page opened the store: it was opened before the
 * session changed (a sign-in within the page), so only a page load empties it now.
 */
export const emptyingPending = (notes: Pick<Storage, 'getItem'> = localStorage): boolean => notes.getItem(EMPTY_AT_OPEN_KEY) === '1';
