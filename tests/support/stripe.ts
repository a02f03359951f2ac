/**
 * A stand-in for Stripe on 127.0.0.1 (a random port), speaking Stripe's documented API for the calls
 * the server makes: form-encoded `POST /v1/checkout/sessions` (bracketed keys: `line_items[0][price]`),
 * `GET /v1/checkout/sessions/:id` and `GET /v1/subscriptions/:id`, with a bearer secret key, Stripe's
 * idempotency keys (a repeated key answers the first answer) and Stripe's error shape
 * (`{error: {type, code, param, message}}`: 401 for a bad key, 404 `resource_missing` for an unknown id,
 * 400 for a bad parameter).
 *
 * A session's `url` is the stand-in's hosted checkout page: its "Pay" button (or `pay(id)` in a test)
 * completes the session (a customer, an active subscription on the session's price, a paid invoice),
 * sends the signed events Stripe would (`customer.subscription.created`, `checkout.session.completed`,
 * `invoice.paid`) to `webhookUrl`, signed with the webhook secret (Stripe.webhooks.generateTestHeaderString),
 * and then redirects to the session's success_url. `event` and `deliver` make and send any other event.
 * Every API request is recorded, so a test can tell that nothing was asked of Stripe.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { ServerConfig } from '../../server/config';

export const STAND_IN_SECRET_KEY = 'sk_test_standin_4242';
export const STAND_IN_WEBHOOK_SECRET = 'whsec_standin_4242';
export const STAND_IN_PRICE_MONTHLY = 'price_standin_monthly';
export const STAND_IN_PRICE_YEARLY = 'price_standin_yearly';

/** The prices the stand-in knows: id, interval, amount (cents) and name. */
const PRICES: Record<string, { interval: 'month' | 'year'; amount: number; name: string }> = {
  [STAND_IN_PRICE_MONTHLY]: { interval: 'month', amount: 4_900, name: 'Grow Room, monthly' },
  [STAND_IN_PRICE_YEARLY]: { interval: 'year', amount: 49_000, name: 'Grow Room, yearly' },
};

type Params = Record<string, unknown>;

export interface StandInRequest {
  method: string;
  path: string;
  params: Params;
  idempotencyKey: string | null;
  authorization: string | null;
}

export interface StandInSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  client_reference_id: string | null;
  metadata: Record<string, string>;
  customer: string | null;
  customer_email: string | null;
  subscription: string | null;
  success_url: string;
  cancel_url: string | null;
  url: string;
  created: number;
  expires_at: number;
  livemode: false;
  amount_total: number;
  currency: 'eur';
  /** Not Stripe's: what the session sells and what its subscription will carry (kept for `pay`). */
  price: string;
  subscriptionMetadata: Record<string, string>;
}

export interface StandInSubscription {
  id: string;
  object: 'subscription';
  status: string;
  customer: string;
  metadata: Record<string, string>;
  cancel_at_period_end: boolean;
  created: number;
  livemode: false;
  items: {
    object: 'list';
    data: Array<{ id: string; object: 'subscription_item'; price: { id: string; object: 'price'; recurring: { interval: string; interval_count: 1 }; unit_amount: number; currency: 'eur' }; quantity: 1; current_period_start: number; current_period_end: number }>;
  };
}

export interface StandInEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: unknown };
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
}

/** A delivery of an event to the app: its answer. */
export interface Delivery {
  event: StandInEvent;
  status: number;
  body: unknown;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** A period's end: a calendar month or year after `start` (as Stripe bills). */
export function periodEndAfter(start: Date, interval: 'month' | 'year'): Date {
  const end = new Date(start);
  if (interval === 'year') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
}

/** Reads Stripe's form encoding: `a[b][0][c]=v` as `{a: {b: [{c: 'v'}]}}`. */
export function parseStripeForm(text: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.split(/\[|\]\[|\]/).filter((part, index) => part !== '' || index === 0);
    let holder: Params | unknown[] = root;
    path.forEach((part, index) => {
      const last = index === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[index + 1] ?? '');
      const slot = Array.isArray(holder) ? Number(part) : part;
      const container = holder as Record<string | number, unknown>;
      if (last) container[slot] = value;
      else {
        container[slot] ??= nextIsIndex ? [] : {};
        holder = container[slot] as Params | unknown[];
      }
    });
  }
  return root;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const record = (value: unknown): Record<string, string> =>
  value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string')) : {};

class StripeRefusal extends Error {
  constructor(
    readonly status: number,
    readonly error: { type: string; message: string; code?: string; param?: string },
  ) {
    super(error.message);
  }
}

const missing = (kind: string, param: string, value: string) =>
  new StripeRefusal(404, { type: 'invalid_request_error', code: 'resource_missing', param, message: `No such ${kind}: '${value}'` });
const invalid = (param: string, message: string) => new StripeRefusal(400, { type: 'invalid_request_error', code: 'parameter_invalid', param, message });

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), 'stripe-version': Stripe.API_VERSION }).end(JSON.stringify(body));

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripe(options: { secretKey?: string; webhookSecret?: string } = {}) {
  const state = {
    /** The key the API accepts: change it to see the server refused. */
    secretKey: options.secretKey ?? STAND_IN_SECRET_KEY,
    webhookSecret: options.webhookSecret ?? STAND_IN_WEBHOOK_SECRET,
    /** Where events go: the app's /api/stripe/webhook (set once the app is up). */
    webhookUrl: null as string | null,
  };
  const requests: StandInRequest[] = [];
  const sessions = new Map<string, StandInSession>();
  const subscriptions = new Map<string, StandInSubscription>();
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const deliveries: Delivery[] = [];
  let base = '';

  /** What the API answers for a session: Stripe's fields (the stand-in's own are left out). */
  const sessionJson = (session: StandInSession) => {
    const { price: _price, subscriptionMetadata: _metadata, ...fields } = session;
    return fields;
  };

  function createSession(params: Params): StandInSession {
    if (params.mode !== 'subscription') throw invalid('mode', 'This stand-in makes subscription sessions only.');
    const items = Array.isArray(params.line_items) ? (params.line_items as Params[]) : [];
    const price = text(items[0]?.price);
    if (!price) throw invalid('line_items', 'line_items[0][price] is required.');
    if (!PRICES[price]) throw missing('price', 'line_items[0][price]', price);
    const successUrl = text(params.success_url);
    if (!successUrl) throw invalid('success_url', 'success_url is required in subscription mode.');
    const customer = text(params.customer);
    if (customer && params.customer_email !== undefined) throw invalid('customer_email', 'You may only specify one of these parameters: customer, customer_email.');
    const created = new Date();
    const session: StandInSession = {
      id: id('cs_test'),
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      client_reference_id: text(params.client_reference_id),
      metadata: record(params.metadata),
      customer,
      customer_email: text(params.customer_email),
      subscription: null,
      success_url: successUrl,
      cancel_url: text(params.cancel_url),
      url: '',
      created: seconds(created),
      expires_at: seconds(created) + 24 * 3600,
      livemode: false,
      amount_total: PRICES[price].amount,
      currency: 'eur',
      price,
      subscriptionMetadata: record((params.subscription_data as Params | undefined)?.metadata),
    };
    session.url = `${base}/pay/${session.id}`;
    sessions.set(session.id, session);
    return session;
  }

  /** A Stripe event of `type` about `object`, created now (or at `created`). */
  function event(type: string, object: unknown, created = new Date()): StandInEvent {
    return { id: id('evt'), object: 'event', api_version: Stripe.API_VERSION, created: seconds(created), data: { object: structuredClone(object) }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type };
  }

  /** The signature header Stripe sends with `payload`, signed with `secret` (the webhook secret by default). */
  const signatureOf = (payload: string, secret = state.webhookSecret) => Stripe.webhooks.generateTestHeaderString({ payload, secret });

  /** Sends an event to the app's webhook, signed as Stripe signs it (or with `signature` as given), and keeps the answer. */
  async function deliver(sent: StandInEvent, options: { signature?: string | null; secret?: string; payload?: string } = {}): Promise<Delivery> {
    if (!state.webhookUrl) throw new Error('The stand-in has no webhook address: set state.webhookUrl');
    const payload = options.payload ?? JSON.stringify(sent, null, 2);
    const signature = options.signature === undefined ? signatureOf(JSON.stringify(sent, null, 2), options.secret) : options.signature;
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' };
    if (signature !== null) headers['stripe-signature'] = signature;
    const response = await fetch(state.webhookUrl, { method: 'POST', headers, body: payload });
    const answer = await response.text();
    let body: unknown = answer;
    try {
      body = JSON.parse(answer);
    } catch {
      // Not JSON: kept as text.
    }
    const delivery = { event: sent, status: response.status, body };
    deliveries.push(delivery);
    return delivery;
  }

  function invoiceFor(subscription: StandInSubscription, start: number, end: number) {
    const item = subscription.items.data[0]!;
    return {
      id: id('in'),
      object: 'invoice',
      status: 'paid',
      customer: subscription.customer,
      amount_paid: item.price.unit_amount,
      currency: 'eur',
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
      lines: { object: 'list', data: [{ id: id('il'), object: 'line_item', amount: item.price.unit_amount, period: { start, end } }] },
    };
  }

  /**
   * Pays an open session, as the hosted page's button does: a customer (unless the session had one),
   * an active subscription on its price, the session completed, and (unless `sendEvents` is false)
   * the three events sent to the app in Stripe's usual order. Answers the subscription and the events' deliveries.
   */
  async function pay(sessionId: string, options: { sendEvents?: boolean } = {}): Promise<{ session: StandInSession; subscription: StandInSubscription; deliveries: Delivery[] }> {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`No session ${sessionId}`);
    if (session.status !== 'open') throw new Error(`Session ${sessionId} is ${session.status}`);
    const price = PRICES[session.price]!;
    const start = new Date();
    const end = periodEndAfter(start, price.interval);
    const subscription: StandInSubscription = {
      id: id('sub'),
      object: 'subscription',
      status: 'active',
      customer: session.customer ?? id('cus'),
      metadata: session.subscriptionMetadata,
      cancel_at_period_end: false,
      created: seconds(start),
      livemode: false,
      items: {
        object: 'list',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            price: { id: session.price, object: 'price', recurring: { interval: price.interval, interval_count: 1 }, unit_amount: price.amount, currency: 'eur' },
            quantity: 1,
            current_period_start: seconds(start),
            current_period_end: seconds(end),
          },
        ],
      },
    };
    subscriptions.set(subscription.id, subscription);
    Object.assign(session, { status: 'complete', payment_status: 'paid', customer: subscription.customer, subscription: subscription.id });
    const sent: Delivery[] = [];
    if (options.sendEvents ?? true) {
      for (const next of [
        event('customer.subscription.created', subscription, start),
        event('checkout.session.completed', sessionJson(session), start),
        event('invoice.paid', invoiceFor(subscription, seconds(start), seconds(end)), start),
      ]) {
        sent.push(await deliver(next));
      }
    }
    return { session, subscription, deliveries: sent };
  }

  /** A subscription's next period paid: its dates moved on; answers the events Stripe sends for it (not sent). */
  function renew(subscriptionId: string, at = new Date()) {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`No subscription ${subscriptionId}`);
    const item = subscription.items.data[0]!;
    const start = item.current_period_end;
    const end = seconds(periodEndAfter(new Date(start * 1000), item.price.recurring.interval as 'month' | 'year'));
    Object.assign(item, { current_period_start: start, current_period_end: end });
    return { subscription, invoicePaid: event('invoice.paid', invoiceFor(subscription, start, end), at), updated: event('customer.subscription.updated', subscription, at) };
  }

  /** Changes a subscription's status (a payment failing: past_due; cancelled: canceled); answers the event Stripe sends for it (not sent). */
  function setStatus(subscriptionId: string, status: string, at = new Date()) {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`No subscription ${subscriptionId}`);
    subscription.status = status;
    return event(status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated', subscription, at);
  }

  function api(request: IncomingMessage, url: URL, params: Params): { status: number; body: unknown } {
    const authorization = request.headers.authorization ?? '';
    const key = authorization.startsWith('Bearer ') ? authorization.slice(7) : '';
    if (key !== state.secretKey) {
      throw new StripeRefusal(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${key ? `${key.slice(0, 8)}****${key.slice(-4)}` : '(none)'}` });
    }
    const [, version, ...path] = url.pathname.split('/');
    if (version !== 'v1') throw new StripeRefusal(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${url.pathname}).` });
    const route = `${request.method} /${path.join('/')}`;
    if (route === 'POST /checkout/sessions') return { status: 200, body: sessionJson(createSession(params)) };
    const sessionId = /^GET \/checkout\/sessions\/([^/]+)$/.exec(route)?.[1];
    if (sessionId !== undefined) {
      const session = sessions.get(decodeURIComponent(sessionId));
      if (!session) throw missing('checkout.session', 'session', decodeURIComponent(sessionId));
      return { status: 200, body: sessionJson(session) };
    }
    const subscriptionId = /^GET \/subscriptions\/([^/]+)$/.exec(route)?.[1];
    if (subscriptionId !== undefined) {
      const subscription = subscriptions.get(decodeURIComponent(subscriptionId));
      if (!subscription) throw missing('subscription', 'id', decodeURIComponent(subscriptionId));
      return { status: 200, body: subscription };
    }
    throw new StripeRefusal(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${request.method}: ${url.pathname}).` });
  }

  /** The hosted checkout page: what is bought, and a Pay button. */
  function checkoutPage(session: StandInSession): string {
    const price = PRICES[session.price]!;
    const amount = `€${(price.amount / 100).toFixed(2)} per ${price.interval}`;
    return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Pay · Stripe stand-in</title>
<style>body{font:18px/1.5 system-ui,sans-serif;margin:0;background:#f6f9fc;color:#1a1f36}main{max-width:520px;margin:10vh auto;padding:32px;background:#fff;border-radius:12px;border:1px solid #d0d7de}button{font:inherit;font-weight:600;min-height:56px;width:100%;border:0;border-radius:8px;background:#0a2540;color:#fff;cursor:pointer}a{color:#0a2540}</style>
</head>
<body><main>
<h1>Pay for ${escapeHtml(price.name)}</h1>
<p id="amount">${escapeHtml(amount)}</p>
${session.customer_email ? `<p>Billed to ${escapeHtml(session.customer_email)}</p>` : ''}
<form method="post" action="/pay/${encodeURIComponent(session.id)}"><button type="submit">Pay</button></form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back without paying</a></p>` : ''}
</main></body></html>`;
  }

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://stripe.test');
      const raw = await bodyOf(request);
      const payPage = /^\/pay\/([^/]+)$/.exec(url.pathname)?.[1];
      if (payPage !== undefined) {
        const session = sessions.get(decodeURIComponent(payPage));
        if (!session) return response.writeHead(404, { 'content-type': 'text/plain' }).end('No such checkout');
        if (request.method === 'POST') {
          if (session.status === 'open') await pay(session.id);
          return response.writeHead(303, { location: session.success_url.replace('{CHECKOUT_SESSION_ID}', session.id) }).end();
        }
        return response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(checkoutPage(session));
      }
      const params = request.method === 'GET' ? parseStripeForm(url.search.slice(1)) : parseStripeForm(raw);
      const idempotencyKey = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : null;
      requests.push({ method: request.method ?? '', path: url.pathname, params, idempotencyKey, authorization: request.headers.authorization ?? null });
      // Stripe answers a repeated key with the first answer (a retry after a lost answer makes nothing twice).
      const known = idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
      if (known) return json(response, known.status, known.body);
      let answer: { status: number; body: unknown };
      try {
        answer = api(request, url, params);
      } catch (error) {
        if (!(error instanceof StripeRefusal)) throw error;
        answer = { status: error.status, body: { error: { ...error.error, doc_url: 'https://stripe.com/docs/error-codes' } } };
      }
      if (idempotencyKey && request.method === 'POST') idempotent.set(idempotencyKey, answer);
      return json(response, answer.status, answer.body);
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'api_error', message: String(error) } }));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    state,
    requests,
    sessions,
    subscriptions,
    deliveries,
    /** The API requests to `path` (a prefix) so far. */
    requestsTo: (path: string) => requests.filter((request) => request.path.startsWith(path)),
    /** The server's Stripe settings pointing here (startServer's overrides). */
    settings: (): Pick<ServerConfig, 'stripeSecretKey' | 'stripeWebhookSecret' | 'stripePriceMonthly' | 'stripePriceYearly' | 'stripeApiUrl'> => ({
      stripeSecretKey: STAND_IN_SECRET_KEY,
      stripeWebhookSecret: STAND_IN_WEBHOOK_SECRET,
      stripePriceMonthly: STAND_IN_PRICE_MONTHLY,
      stripePriceYearly: STAND_IN_PRICE_YEARLY,
      stripeApiUrl: base,
    }),
    event,
    deliver,
    signatureOf,
    pay,
    renew,
    setStatus,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type StripeStandIn = Awaited<ReturnType<typeof startStripe>>;
