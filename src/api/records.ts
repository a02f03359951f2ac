/**
 * What the records of every domain share on the tablet: how a call names one (its client id, or the
 * spec's integer id), whether the server has it yet, and the server's order of them.
 */
import type { ClientId } from '../../common/client-ids';
import type { LocalDocument } from '../../sync/store';

/**
 * A record as a call names it: its client id (every local document's key, and what entries send), or
 * the spec's integer id, as the answers of the calls that read the server name records.
 */
export type RecordId = ClientId | number;

/**
 * Whether the server has sent this document: its `serverId` comes with the server's copy. A record
 * made on this tablet shows without one until its create has reached the server ("Waiting to sync").
 */
export const reachedServer = (document: object | null | undefined): boolean => !!document && 'serverId' in document && typeof document.serverId === 'number';

export const sameId = (a: unknown, b: unknown) => a !== null && a !== undefined && String(a) === String(b);

/**
 * The server's order of documents (its lists go by id): records the server knows by their integer id
 * (`serverId`), then records whose create still waits, in the order they were made (client ids are v7
 * uuids, which sort by time).
 */
export function byCreation(a: LocalDocument, b: LocalDocument): number {
  const [sa, sb] = [a.serverId, b.serverId];
  if (typeof sa === 'number' && typeof sb === 'number') return sa - sb;
  if (typeof sa === 'number') return -1;
  if (typeof sb === 'number') return 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
