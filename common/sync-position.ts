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

/** Whether position `a` is later than `b` (a state without a position is older than any with one). */
export function isNewerPosition(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a) return false;
  if (!b) return true;
  return a > b;
}
