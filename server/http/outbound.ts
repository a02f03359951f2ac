/**
 * Outgoing calls to addresses users type in (Slack and Teams webhooks, IP cameras' snapshots; weather
 * later): an Admin must not be able to make the server call what only the server can reach,
 * such as its database, a neighbour on the private network or the cloud's metadata service
 * (169.254.169.254, which hands out credentials).
 *
 * So an address is checked before each call: https only; the host's every DNS answer must be a public
 * address (not loopback, private, link-local, carrier-grade NAT, unspecified, multicast or reserved,
 * nor any of those inside IPv6: mapped, NAT64, 6to4); then the connection goes to the very addresses
 * checked (the socket's lookup is pinned to them), so a second DNS answer cannot swap in an internal one
 * (DNS rebinding). Redirects are not followed (a public receiver could redirect inward), every call has
 * a deadline, and at most `maxResponseBytes` of an answer are read.
 *
 * The operator setting ALLOW_PRIVATE_WEBHOOKS=1 (`allowPrivate`) lifts the address check and allows
 * plain http: a receiver on the operator's own network, and the tests' local receivers.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIPv4, isIPv6, type LookupFunction } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

export interface OutboundPolicy {
  /** ALLOW_PRIVATE_WEBHOOKS: any address, and http as well as https. */
  allowPrivate: boolean;
  /** PEM certificates trusted beside the system's (WEBHOOK_CA_FILE). */
  extraCa?: string | undefined;
  /** The whole call, DNS to the answer's last byte read. */
  timeoutMs?: number;
  maxResponseBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024;

/** A call refused by the policy (the address, the scheme): trying again cannot help. */
export class OutboundRefusedError extends Error {}

export interface OutboundTarget {
  url: URL;
  /** The host's checked addresses, in DNS order: the connection goes to one of these. */
  addresses: Array<{ address: string; family: 4 | 6 }>;
}

export interface OutboundResponse {
  status: number;
  /** The answer's text, cut at `maxResponseBytes`. */
  body: string;
  /** Retry-After in seconds, when the receiver sent one as a number. */
  retryAfterSeconds: number | null;
}

type AddressKind = 'loopback' | 'private' | 'link-local' | 'carrier-grade NAT' | 'unspecified' | 'multicast' | 'reserved';

/** Ranges that are not the public internet (IANA special-purpose registries), in the order they are checked. */
const RANGES: Array<[AddressKind, string[]]> = [
  ['unspecified', ['0.0.0.0/8', '::/128']],
  ['loopback', ['127.0.0.0/8', '::1/128']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7', 'fec0::/10']],
  ['link-local', ['169.254.0.0/16', 'fe80::/10']],
  ['carrier-grade NAT', ['100.64.0.0/10']],
  ['multicast', ['224.0.0.0/4', 'ff00::/8']],
  [
    'reserved',
    [
      '192.0.0.0/24',
      '192.0.2.0/24',
      '192.88.99.0/24',
      '198.18.0.0/15',
      '198.51.100.0/24',
      '203.0.113.0/24',
      '240.0.0.0/4',
      // IPv4-compatible (deprecated), discard-only, Teredo, documentation, NAT64 local use.
      '::/96',
      '100::/64',
      '2001::/32',
      '2001:db8::/32',
      '64:ff9b:1::/48',
    ],
  ],
];

const BLOCKS: Array<[AddressKind, BlockList]> = RANGES.map(([kind, ranges]) => {
  const list = new BlockList();
  for (const range of ranges) {
    const [network = '', prefix = ''] = range.split('/');
    list.addSubnet(network, Number(prefix), isIPv4(network) ? 'ipv4' : 'ipv6');
  }
  return [kind, list];
});

/** The eight 16-bit words of a valid IPv6 address (a trailing dotted IPv4 part included). */
function ipv6Words(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const words = (part: string) => (part === '' ? [] : part.split(':').map((word) => parseInt(word, 16)));
  const [head = '', tail] = text.split('::');
  if (tail === undefined) return words(head);
  const [before, after] = [words(head), words(tail)];
  return [...before, ...Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/** The IPv4 address an IPv6 address carries and is delivered to: IPv4-mapped, NAT64 (64:ff9b::/96), 6to4 (2002::/16). */
function embeddedIpv4(address: string): string | null {
  const w = ipv6Words(address);
  const zeros = (from: number, to: number) => w.slice(from, to).every((word) => word === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return ipv4Of(w[6] ?? 0, w[7] ?? 0);
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return ipv4Of(w[6] ?? 0, w[7] ?? 0);
  if (w[0] === 0x2002) return ipv4Of(w[1] ?? 0, w[2] ?? 0);
  return null;
}

/**
 * Why the server may not call `address` (an IP address), as words for the delivery log ("a loopback
 * address"); null for a public address.
 */
export function refusalOf(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv6(bare)) {
    const inner = embeddedIpv4(bare);
    if (inner !== null) {
      const innerRefusal = refusalOf(inner);
      return innerRefusal === null ? null : `${innerRefusal} inside an IPv6 address`;
    }
  } else if (!isIPv4(bare)) {
    return 'not an IP address';
  }
  const family = isIPv4(bare) ? 'ipv4' : 'ipv6';
  for (const [kind, list] of BLOCKS) {
    if (list.check(bare, family)) return `${kind === 'unspecified' ? 'an' : 'a'} ${kind} address`;
  }
  return null;
}

/** The deadline of a call: aborts with a timeout error, or when `outer` aborts. */
function deadline(timeoutMs: number, outer: AbortSignal | undefined): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return outer ? AbortSignal.any([outer, timeout]) : timeout;
}

/** Settles with `promise`, or rejects when `signal` aborts first (dns.lookup cannot be cancelled). */
function until<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') return new Error('No answer within the time allowed');
  return reason instanceof Error ? reason : new Error('The call was cancelled');
}

/**
 * Checks `rawUrl` against the policy and resolves its host: answers the address to connect to, or
 * throws OutboundRefusedError saying why not (shown to the Admin in the delivery log). A host that
 * does not resolve throws a plain Error (DNS may answer later).
 */
export async function resolveOutboundTarget(rawUrl: string, policy: OutboundPolicy, signal?: AbortSignal): Promise<OutboundTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundRefusedError('The address is not a valid URL.');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowPrivate)) {
    throw new OutboundRefusedError('The address must start with https://.');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIPv4(host) || isIPv6(host);
  const lookup = () => dnsLookup(host, { all: true, verbatim: true });
  const answers = literal ? [{ address: host, family: isIPv4(host) ? 4 : 6 }] : await (signal ? until(lookup(), signal) : lookup());
  if (answers.length === 0) throw new Error(`${host} has no address`);
  if (!policy.allowPrivate) {
    for (const { address } of answers) {
      const refusal = refusalOf(address);
      if (refusal !== null) {
        const named = address === host ? address : `${host} (${address})`;
        throw new OutboundRefusedError(`Refused: ${named} is ${refusal}; the server only calls public internet addresses.`);
      }
    }
  }
  return { url, addresses: answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 })) };
}

/**
 * A socket lookup that answers the checked addresses whatever the host name, so no second DNS answer
 * is used: all of them when the socket tries each family in turn (Node's autoSelectFamily), else the first.
 */
function pinnedLookup(target: OutboundTarget): LookupFunction {
  return (_hostname, options, callback) => {
    const [first] = target.addresses;
    if (options.all) callback(null, target.addresses);
    else if (first) callback(null, first.address, first.family);
    else callback(new Error('No address'), '', 4);
  };
}

/**
 * The TLS context of calls under a policy with extra certificates, made once: building one from the
 * ~140 system certificates costs some 50 ms of CPU, which per call capped deliveries at ~20 a second.
 */
const secureContexts = new Map<string, SecureContext>();
function secureContextFor(extraCa: string): SecureContext {
  let context = secureContexts.get(extraCa);
  if (!context) {
    context = createSecureContext({ ca: [...rootCertificates, extraCa] });
    secureContexts.set(extraCa, context);
  }
  return context;
}

/** What a call answered: its status, its headers and at most `maxResponseBytes` of its body. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body's first `maxResponseBytes`. */
  bytes: Buffer;
  /** The body had more than `maxResponseBytes`: the rest was not read. */
  tooLarge: boolean;
}

/**
 * The one way the server calls an address a user typed: checks and pins it (resolveOutboundTarget),
 * sends one request on a connection of its own under the policy's deadline, and reads at most
 * `maxResponseBytes` of the answer, whatever its status (a redirect is answered, not followed).
 */
async function send(rawUrl: string, request: { method: 'GET' | 'POST'; headers: http.OutgoingHttpHeaders; body?: Buffer }, policy: OutboundPolicy, defaultMaxBytes: number, signal?: AbortSignal): Promise<RawAnswer> {
  const limit = deadline(policy.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal);
  const target = await resolveOutboundTarget(rawUrl, policy, limit);
  const maxBytes = policy.maxResponseBytes ?? defaultMaxBytes;
  const options: https.RequestOptions = {
    method: request.method,
    headers: request.headers,
    // A connection of its own for each call: a pooled socket could be one opened to another address.
    agent: false,
    lookup: pinnedLookup(target),
    signal: limit,
    ...(target.url.protocol === 'https:' && policy.extraCa ? { secureContext: secureContextFor(policy.extraCa) } : {}),
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<RawAnswer>((resolve, reject) => {
    const outgoing = client.request(target.url, options, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const finish = (tooLarge: boolean) => {
        if (settled) return;
        settled = true;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, bytes: Buffer.concat(chunks), tooLarge });
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk.subarray(0, Math.max(0, maxBytes - size)));
        size += chunk.length;
        // Enough read: the rest of a large answer is not waited for.
        if (size > maxBytes) {
          finish(true);
          response.destroy();
        }
      });
      response.on('end', () => finish(false));
      response.on('error', (error) => (settled ? undefined : reject(limit.aborted ? abortReason(limit) : error)));
    });
    outgoing.on('error', (error) => reject(limit.aborted ? abortReason(limit) : error));
    outgoing.end(request.body);
  });
}

/**
 * POSTs `payload` as JSON to `rawUrl` under the policy (see the module header). Answers the status and
 * the start of the answer, whatever the status: a redirect is answered, not followed. Throws
 * OutboundRefusedError when the policy refuses the address, and a plain Error when the call fails
 * (connection, TLS, deadline, or `signal` aborting).
 */
export async function postJson(rawUrl: string, payload: unknown, policy: OutboundPolicy, signal?: AbortSignal): Promise<OutboundResponse> {
  const body = Buffer.from(JSON.stringify(payload));
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length, 'user-agent': 'GrowRoom-Notifications' };
  const answer = await send(rawUrl, { method: 'POST', headers, body }, policy, DEFAULT_MAX_RESPONSE_BYTES, signal);
  const retryAfter = Number(answer.headers['retry-after']);
  return { status: answer.status, body: answer.bytes.toString('utf8'), retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null };
}

/**
 * Sends one request as given (method, headers, body) under the policy, for a client that speaks an API
 * of its own through this module (Stripe's SDK: server/domains/payments/stripe.ts), and answers its
 * status, headers and at most `maxResponseBytes` of its body, whatever the status. Throws as `postJson` does.
 */
export function sendRequest(rawUrl: string, request: { method: 'GET' | 'POST'; headers: http.OutgoingHttpHeaders; body?: Buffer }, policy: OutboundPolicy, signal?: AbortSignal): Promise<RawAnswer> {
  return send(rawUrl, request, policy, DEFAULT_MAX_RESPONSE_BYTES, signal);
}

export interface BytesResponse {
  status: number;
  /** The media type of the answer (without parameters), or null. */
  contentType: string | null;
  /** The answer's bytes: all of them, unless `tooLarge`. */
  bytes: Buffer;
  /** The answer had more than `maxResponseBytes`: the rest was not read. */
  tooLarge: boolean;
}

/**
 * GETs `rawUrl` under the policy and answers its status, type and bytes (a camera's still image),
 * whatever the status. Credentials in the address (`https://user:password@…`) go as Basic
 * authentication, as a browser sends them. Throws as `postJson` does.
 */
export async function getBytes(rawUrl: string, headers: http.OutgoingHttpHeaders, policy: OutboundPolicy, signal?: AbortSignal): Promise<BytesResponse> {
  const answer = await send(rawUrl, { method: 'GET', headers }, policy, DEFAULT_MAX_RESPONSE_BYTES, signal);
  const type = answer.headers['content-type'];
  return { status: answer.status, contentType: type ? type.split(';')[0]!.trim() : null, bytes: answer.bytes, tooLarge: answer.tooLarge };
}
