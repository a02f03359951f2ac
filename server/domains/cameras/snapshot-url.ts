/**
 * A snapshot address's secrets. Cheap IP cameras take their credentials in the address: as its user
 * and password (`https://admin:secret@cam/snapshot.jpg`, sent as Basic authentication) or as query
 * parameters (`/snapshot.cgi?user=admin&pwd=secret`). Answers show the address with those masked, and
 * a save that sends a masked address back keeps the stored secrets, so the form can show and save the
 * address without the secret ever reaching a browser again.
 *
 * WARNING: the stored address is a secret: never log it, never put it in an audit event or an error.
 */
import { SNAPSHOT_SECRET_MASK } from '../../../common/messages/cameras';

/** Query parameters that carry credentials, by name (case-insensitive). */
const SECRET_PARAMETER = /^(pass(word)?|pwd|passwd|token|access_token|auth|key|api_?key|secret|sig(nature)?|credentials?)$/i;

function parsed(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** The address with its password and secret-looking query values replaced by SNAPSHOT_SECRET_MASK. */
export function maskSnapshotUrl(stored: string): string {
  const url = parsed(stored);
  if (!url) return SNAPSHOT_SECRET_MASK;
  if (url.password) url.password = SNAPSHOT_SECRET_MASK;
  for (const [name, value] of [...url.searchParams]) if (SECRET_PARAMETER.test(name) && value) url.searchParams.set(name, SNAPSHOT_SECRET_MASK);
  return url.toString();
}

/**
 * The address to store for `submitted`: masked parts taken back from `stored` (the camera's address
 * before this save, if any); anything else as submitted. A mask whose secret is unknown stays as typed.
 */
export function unmaskSnapshotUrl(submitted: string, stored: string | null): string {
  const url = parsed(submitted);
  const before = stored === null ? null : parsed(stored);
  if (!url || !before) return submitted;
  // URL encodes what it holds: the mask reads back percent-encoded in a password.
  if (decodeURIComponent(url.password) === SNAPSHOT_SECRET_MASK && before.password) url.password = before.password;
  for (const [name, value] of [...url.searchParams]) {
    const previous = before.searchParams.get(name);
    if (value === SNAPSHOT_SECRET_MASK && previous !== null) url.searchParams.set(name, previous);
  }
  return url.toString();
}
