/**
 * Fetching an IP camera's still image: a GET of the snapshot address under the outbound policy of
 * server/http/outbound.ts (`getBytes`: the address checked and its DNS answer pinned, https only
 * unless ALLOW_PRIVATE_WEBHOOKS, no redirects, a deadline), reading at most `maxBytes`. Credentials in
 * the address go as Basic authentication.
 */
import { type BytesResponse, getBytes, type OutboundPolicy } from '../../http/outbound';

export type SnapshotAnswer = BytesResponse;

/** The whole call, DNS to the last byte: a camera on a slow uplink sends a few MB in this. */
export const SNAPSHOT_TIMEOUT_MS = 30_000;
/** The largest image read (a 4K camera's JPEG is 1 to 5 MB). */
export const SNAPSHOT_MAX_BYTES = 20 * 1024 * 1024;

/**
 * GETs `rawUrl` under `policy` and answers its status, type and bytes, whatever the status (a redirect
 * is answered, not followed). Throws OutboundRefusedError when the policy refuses the address, a plain
 * Error when the call fails (connection, TLS, deadline, `signal`).
 */
export function fetchSnapshot(rawUrl: string, policy: OutboundPolicy, signal?: AbortSignal): Promise<SnapshotAnswer> {
  const headers = { accept: 'image/jpeg, image/png, image/webp;q=0.9, */*;q=0.1', 'user-agent': 'GrowRoom-Cameras' };
  return getBytes(rawUrl, headers, { ...policy, timeoutMs: policy.timeoutMs ?? SNAPSHOT_TIMEOUT_MS, maxResponseBytes: policy.maxResponseBytes ?? SNAPSHOT_MAX_BYTES }, signal);
}
