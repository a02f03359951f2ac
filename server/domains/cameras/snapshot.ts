/**
 * Fetching an IP camera's still image: a GET of the snapshot address under the outbound policy of
 * server/http/outbound.ts (the address checked and its DNS answer pinned by `resolveOutboundTarget`,
 * https only unless ALLOW_PRIVATE_WEBHOOKS, no redirects, a deadline), reading at most `maxBytes`.
 * Credentials in the address (`https://user:password@…`) go as Basic authentication, as a browser
 * sends them.
 *
 * outbound.ts answers text (`postJson`, for webhooks); an image needs its bytes and a larger limit, so
 * the request is made here, with the same pinned lookup. (A `getBytes` beside `postJson` in
 * outbound.ts would hold both; that file is shared, so this one keeps the camera's call for now.)
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { type OutboundPolicy, type OutboundTarget, resolveOutboundTarget } from '../../http/outbound';

export interface SnapshotAnswer {
  status: number;
  contentType: string | null;
  /** The answer's bytes: all of them, unless `tooLarge`. */
  bytes: Buffer;
  /** The answer had more than `maxResponseBytes`: the rest was not read. */
  tooLarge: boolean;
}

/** The whole call, DNS to the last byte: a camera on a slow uplink sends a few MB in this. */
export const SNAPSHOT_TIMEOUT_MS = 30_000;
/** The largest image read (a 4K camera's JPEG is 1 to 5 MB). */
export const SNAPSHOT_MAX_BYTES = 20 * 1024 * 1024;

/** Answers the checked addresses whatever the host name, so no second DNS answer is used (as outbound.ts). */
function pinnedLookup(target: OutboundTarget): LookupFunction {
  return (_hostname, options, callback) => {
    const [first] = target.addresses;
    if (options.all) callback(null, target.addresses);
    else if (first) callback(null, first.address, first.family);
    else callback(new Error('No address'), '', 4);
  };
}

/** Made once per set of extra certificates: building one costs some 50 ms of CPU (outbound.ts says why). */
const secureContexts = new Map<string, SecureContext>();
function secureContextFor(extraCa: string): SecureContext {
  let context = secureContexts.get(extraCa);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, extraCa] });
    secureContexts.set(extraCa, context);
  }
  return context;
}

function reasonOf(signal: AbortSignal, error: unknown): Error {
  const reason: unknown = signal.reason;
  if (signal.aborted && reason instanceof Error && reason.name === 'TimeoutError') return new Error('no answer within the time allowed');
  if (signal.aborted) return reason instanceof Error ? reason : new Error('the call was cancelled');
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * GETs `rawUrl` under `policy` and answers its status, type and bytes, whatever the status (a redirect
 * is answered, not followed). Throws OutboundRefusedError when the policy refuses the address, a plain
 * Error when the call fails (connection, TLS, deadline, `signal`).
 */
export async function fetchSnapshot(rawUrl: string, policy: OutboundPolicy, signal?: AbortSignal): Promise<SnapshotAnswer> {
  const timeout = AbortSignal.timeout(policy.timeoutMs ?? SNAPSHOT_TIMEOUT_MS);
  const limit = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const target = await resolveOutboundTarget(rawUrl, policy, limit);
  const maxBytes = policy.maxResponseBytes ?? SNAPSHOT_MAX_BYTES;
  const options: https.RequestOptions = {
    method: 'GET',
    headers: { accept: 'image/jpeg, image/png, image/webp;q=0.9, */*;q=0.1', 'user-agent': 'GrowRoom-Cameras' },
    // A connection of its own for each call: a pooled socket could be one opened to another address.
    agent: false,
    lookup: pinnedLookup(target),
    signal: limit,
    ...(target.url.protocol === 'https:' && policy.extraCa ? { secureContext: secureContextFor(policy.extraCa) } : {}),
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<SnapshotAnswer>((resolve, reject) => {
    const request = client.request(target.url, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = (tooLarge: boolean) => {
        if (settled) return;
        settled = true;
        const type = response.headers['content-type'];
        resolve({ status: response.statusCode ?? 0, contentType: type ? type.split(';')[0]!.trim() : null, bytes: Buffer.concat(chunks), tooLarge });
      };
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          finish(true);
          response.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => finish(false));
      response.on('error', (error) => {
        if (!settled) reject(reasonOf(limit, error));
      });
    });
    request.on('error', (error) => reject(reasonOf(limit, error)));
    request.end();
  });
}
