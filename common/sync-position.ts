/**
 * Where a synced document's state stands in the server's change order: its row's transaction id and
 * change sequence (the pull's checkpoint order), as one string that sorts in that order. Every server
 * document carries it as `syncPosition`, so a tablet that receives one document by several paths (pull
 * pages, read-backs, push answers) keeps the newest state whatever order they arrive in.
 */
const DIGITS = 20;

export function syncPosition(xid: string | number | bigint, seq: string | number | bigint): string {
  return `${String(xid).padStart(DIGITS, '0')}:${String(seq).padStart(DIGITS, '0')}`;
}

/** The change sequence of a position: the part after `<xid>:`. */
const sequenceOf = (position: string) => position.slice(position.indexOf(':') + 1).padStart(DIGITS, '0');

/**
 * Whether position `a` is a later state of the same document than `b` (a state without a position is
 * older than any with one).
 *
 * WARNING: two states of one document are ordered by their change sequence alone, not by the whole
 * position. Transaction ids are handed out when a transaction first writes, not when it commits: a
 * transaction that began first can write a row after a later one did (it waits for the row's lock),
 * and its newer state then carries the lower transaction id. The sequence is drawn under the row's
 * lock, so it always grows from one state of a row to the next. (The pull still pages by the whole
 * position: across rows, only that order never skips a late commit.)
 */
export function isNewerPosition(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a) return false;
  if (!b) return true;
  return sequenceOf(a) > sequenceOf(b);
}
