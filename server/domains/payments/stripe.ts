/**
 * Stripe, as the payment calls use it: the official SDK (`stripe`), built from the operator's settings
 * (server/config.ts STRIPE_*), or none when billing is not set up; the failures of its calls as answers
 * (502, or 404 for what Stripe does not know); and readers of the parts of Stripe's objects the server
 * uses, through schemas of their documented shapes (a session, a subscription, an invoice), so an object
 * of another API version is refused with a reason instead of being half-read.
 *
 * The SDK's HTTP goes through server/http/outbound.ts (`sendRequest`, a custom `httpClient`): a
 * deadline, a bounded answer and a pinned DNS answer, like every other call the server makes. The
 * address is the operator's setting (STRIPE_API_URL: Stripe's, a stand-in in the tests, or a proxy),
 * never a user's, so the address check meant for addresses users type is off (`allowPrivate`), as for
 * Open-Meteo (server/domains/weather/open-meteo.ts). The SDK's own host, port and protocol settings are
 * not used: the client sends every path to STRIPE_API_URL (a proxy's path prefix is kept).
 *
 * WARNING: the secret key travels in the Authorization header the SDK sets; never log a request's
 * headers or the client itself. Stripe's error messages mask keys, and the one for a refused key is
 * replaced by our own words all the same.
 */
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import { z } from 'zod';
import { isPlan, type Plan, paymentMessages as m } from '../../../common/messages/payments';
import { type ServerConfig, stripeConfigured } from '../../config';
import { HttpError, notFound } from '../../http/errors';
import { type OutboundPolicy, type RawAnswer, sendRequest } from '../../http/outbound';

/** One call, DNS to the answer's last byte: an Admin waits for it. */
const CALL_TIMEOUT_MS = 20_000;
/** A session or a subscription is a few kB; an answer many times that is not one. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** The SDK retries a call that got no answer or a 5xx/429, with an idempotency key on POSTs (nothing is made twice). */
const NETWORK_RETRIES = 2;

/** Stripe's answer, read whole (at most MAX_ANSWER_BYTES) by the outbound helper. */
class OutboundResponse extends Stripe.HttpClientResponse {
  constructor(private readonly answer: RawAnswer) {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) headers[name] = value;
    super(answer.status, headers);
  }

  override getRawResponse(): RawAnswer {
    return this.answer;
  }

  override toStream(streamCompleteCallback: () => void): Readable {
    const stream = Readable.from([this.answer.bytes]);
    stream.once('end', streamCompleteCallback);
    return stream;
  }

  override toJSON(): Promise<unknown> {
    // A cut answer is a failure to read it (the SDK reports a connection error), not JSON that does not parse.
    if (this.answer.tooLarge) return Promise.reject(Stripe.HttpClient.makeResponseBodyError(new Error(`Stripe's answer was larger than ${MAX_ANSWER_BYTES} bytes`)));
    try {
      return Promise.resolve(this._parseResponseBody(this.answer.bytes.toString('utf8')) as unknown);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** The SDK's HTTP through server/http/outbound.ts, to the operator's Stripe address. */
class OutboundHttpClient extends Stripe.HttpClient {
  constructor(private readonly base: string) {
    super();
  }

  override getClientName(): string {
    return 'growroom-outbound';
  }

  override async makeRequest(_host: string, _port: string, path: string, method: string, headers: Record<string, string | number | string[]>, requestData: string, _protocol: string, timeout: number): Promise<OutboundResponse> {
    // The payment calls only read (GET) and create (POST).
    if (method !== 'GET' && method !== 'POST') throw new Error(`The server does not call Stripe with ${method}`);
    const policy: OutboundPolicy = { allowPrivate: true, timeoutMs: timeout, maxResponseBytes: MAX_ANSWER_BYTES };
    const body = requestData ? Buffer.from(requestData, 'utf8') : undefined;
    return new OutboundResponse(await sendRequest(`${this.base}${path}`, { method, headers, ...(body ? { body } : {}) }, policy));
  }
}

/** One client per settings object: built on first use, kept for the process. */
const clients = new WeakMap<ServerConfig, Stripe>();

/** The installation's Stripe client, or null when billing is not set up (README "Settings"). */
export function stripeClient(config: ServerConfig): Stripe | null {
  if (!stripeConfigured(config) || !config.stripeSecretKey) return null;
  let client = clients.get(config);
  if (!client) {
    client = new Stripe(config.stripeSecretKey, {
      httpClient: new OutboundHttpClient(config.stripeApiUrl),
      timeout: CALL_TIMEOUT_MS,
      maxNetworkRetries: NETWORK_RETRIES,
      // No latency reports to Stripe about earlier calls.
      telemetry: false,
      appInfo: { name: 'GrowRoom' },
    });
    clients.set(config, client);
  }
  return client;
}

/** The Stripe client, or the 409 that says billing is not set up (nothing is charged). */
export function requireStripe(config: ServerConfig): Stripe {
  const client = stripeClient(config);
  if (!client) throw new HttpError(409, m.notConfigured);
  return client;
}

/** The Stripe price of a plan (the operator's STRIPE_PRICE_* settings). */
export function priceOf(config: ServerConfig, plan: Plan): string {
  const price = plan === 'yearly' ? config.stripePriceYearly : config.stripePriceMonthly;
  if (!price) throw new HttpError(409, m.notConfigured);
  return price;
}

/**
 * Runs a call to Stripe, turning its failure into the answer: `notFoundMessage` (404) for an id Stripe
 * does not know, when given; otherwise 502 with what went wrong in a few words, logged without the
 * request (its headers carry the key).
 */
export async function stripeCall<T>(log: FastifyBaseLogger, what: string, call: () => Promise<T>, notFoundMessage?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) {
      log.warn({ err: error }, `Stripe call failed (${what})`);
      throw new HttpError(502, m.stripeFailed('no answer'));
    }
    if (notFoundMessage !== undefined && error.statusCode === 404) throw notFound(notFoundMessage);
    const why =
      error instanceof Stripe.errors.StripeConnectionError
        ? 'no answer'
        : error instanceof Stripe.errors.StripeAuthenticationError
          ? 'it refused the installation’s key'
          : `it answered HTTP ${error.statusCode ?? '?'}: ${error.message}`;
    log.warn({ stripe: { type: error.type, code: error.code, statusCode: error.statusCode, requestId: error.requestId } }, `Stripe call failed (${what}): ${why}`);
    throw new HttpError(502, m.stripeFailed(why));
  }
}

// ——— Stripe's objects, as far as they are read ———

/** An expandable reference: the id, or the object with its id. */
const reference = z
  .union([z.string(), z.object({ id: z.string() })])
  .nullable()
  .optional()
  .transform((value) => (value === null || value === undefined ? null : typeof value === 'string' ? value : value.id));

const metadata = z
  .record(z.string(), z.string())
  .nullable()
  .optional()
  .transform((value) => value ?? {});

/** A Checkout Session (`checkout.session`). */
export const stripeSession = z.object({
  id: z.string(),
  object: z.literal('checkout.session'),
  mode: z.string(),
  status: z.string().nullable(),
  payment_status: z.string(),
  client_reference_id: z.string().nullable(),
  metadata,
  customer: reference,
  subscription: reference,
  url: z.string().nullable().optional(),
});

/**
 * A subscription. Its period is its items' since API version 2025-03-31 (`items.data[].current_period_end`);
 * older versions kept it on the subscription (`current_period_end`), read when the items lack it.
 */
export const stripeSubscription = z.object({
  id: z.string(),
  object: z.literal('subscription'),
  status: z.string(),
  customer: reference,
  metadata,
  current_period_end: z.number().optional(),
  items: z.object({
    data: z.array(
      z.object({
        price: z.object({ id: z.string(), recurring: z.object({ interval: z.string() }).nullable().optional() }),
        current_period_end: z.number().optional(),
      }),
    ),
  }),
});

/** An invoice: its subscription is under `parent.subscription_details` since API version 2025-03-31 (`subscription` on the invoice before). */
export const stripeInvoice = z.object({
  id: z.string(),
  object: z.literal('invoice'),
  subscription: reference,
  parent: z
    .object({ subscription_details: z.object({ subscription: reference, metadata }).nullable().optional() })
    .nullable()
    .optional(),
});

export type StripeSession = z.output<typeof stripeSession>;
export type StripeSubscription = z.output<typeof stripeSubscription>;
export type StripeInvoice = z.output<typeof stripeInvoice>;

/** The whole positive number a text holds (a company id in metadata), or null. */
export function wholeNumberIn(text: string | null | undefined): number | null {
  if (!text || !/^\d{1,10}$/.test(text)) return null;
  const value = Number(text);
  return value > 0 && value <= 2_147_483_647 ? value : null;
}

/** The company a session was made for (its client_reference_id), or null for a session this app did not make. */
export function sessionCompany(session: StripeSession): number | null {
  return wholeNumberIn(session.client_reference_id ?? session.metadata.company_id);
}

/**
 * A subscription's plan: by its price (the operator's two prices), else by what the checkout noted in
 * its metadata, else by the price's interval; null when none says.
 */
export function planOf(config: ServerConfig, subscription: StripeSubscription): Plan | null {
  const prices = subscription.items.data.map((item) => item.price);
  if (prices.some((price) => price.id === config.stripePriceYearly)) return 'yearly';
  if (prices.some((price) => price.id === config.stripePriceMonthly)) return 'monthly';
  if (isPlan(subscription.metadata.plan)) return subscription.metadata.plan;
  const interval = prices[0]?.recurring?.interval;
  return interval === 'year' ? 'yearly' : interval === 'month' ? 'monthly' : null;
}

/** When a subscription's paid period ends (the latest of its items'), or null. */
export function periodEndOf(subscription: StripeSubscription): Date | null {
  const ends = subscription.items.data.map((item) => item.current_period_end ?? subscription.current_period_end).filter((end): end is number => end !== undefined);
  return ends.length === 0 ? null : new Date(Math.max(...ends) * 1000);
}

/** An invoice's subscription (either API version's place). */
export const invoiceSubscription = (invoice: StripeInvoice): string | null => invoice.parent?.subscription_details?.subscription ?? invoice.subscription;
