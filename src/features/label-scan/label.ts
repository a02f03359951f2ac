/**
 * What a printed batch label holds and how the scanner reads it. The server prints
 * `${publicUrl}/dashboard/batch-info/${batchId}` (server/domains/batches/routes.ts `batchInfoUrl`).
 *
 * Decision: the host is not checked. A label printed while the company's public address was another
 * (a move to a new domain, a label from the staging server, an address with a path prefix) still opens
 * its batch. This is safe because the scanner opens a batch only when it is in this tablet's store and
 * belongs to the signed-in company: a label never makes the tablet fetch or open anything else, and the
 * address itself is never followed.
 */

/** The path of a batch's label, after any prefix of the public address: `/dashboard/batch-info/<id>`. */
const LABEL_PATH = /\/dashboard\/batch-info\/([^/?#]+)\/?$/;
/** A batch's address: its integer server id (what labels carry) or its client id (a UUID). */
const BATCH_ID = /^(?:\d{1,15}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * The batch id a scanned code names, or null when the code is not a batch label (any other text, URL
 * or scheme). Accepts an http(s) address on any host, or the bare path.
 */
export function batchIdOfLabel(text: string): string | null {
  const trimmed = text.trim();
  let url: URL;
  try {
    // The base only lets a bare path parse; an absolute address keeps its own host.
    url = new URL(trimmed, 'https://label.invalid');
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const match = LABEL_PATH.exec(url.pathname);
  if (!match?.[1]) return null;
  let id: string;
  try {
    id = decodeURIComponent(match[1]);
  } catch {
    return null;
  }
  return BATCH_ID.test(id) ? id : null;
}

/** A batch the scanner found on this tablet from its label. */
export interface ScannedBatch {
  /** Its client id: the key of its local document. */
  id: string;
  BatchNumber: string;
  /** The id the label carries (the integer server id on printed labels), as in `/dashboard/batch-info/<address>`. */
  address: string;
}
