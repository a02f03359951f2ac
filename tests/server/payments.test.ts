/**
 * Payments (issue 18; server/domains/payments) over HTTP on a real database, against a local stand-in
 * of Stripe's API (tests/support/stripe.ts) that also sends the app its signed events. Checkout answers
 * the stand-in's payment page; the return confirms the plan with Stripe; signed events keep the
 * subscription current, each once and never rolled back by an older one; a bad signature is refused
 * and changes nothing; Admins only, their own company only; and an installation without Stripe settings
 * says billing is not set up and asks nothing of Stripe. No test reaches the internet.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpMessages } from '../../common/messages/http';
import { paymentMessages as m } from '../../common/messages/payments';
import type { BillingSubscription } from '../../common/schemas/payments';
import type { PushAnswer } from '../../common/schemas/sync';
import { createSuperAdmin, createTenant, type SignedInUser, type Tenant } from '../support/factories';
import { type ApiResponse, startServer, type TestServer } from '../support/server';
import { STAND_IN_PRICE_MONTHLY, STAND_IN_PRICE_YEARLY, STAND_IN_SECRET_KEY, startStripe, type StripeStandIn } from '../support/stripe';

let server: TestServer;
let stripe: StripeStandIn;

beforeAll(async () => {
  stripe = await startStripe();
  server = await startServer(stripe.settings());
  stripe.state.webhookUrl = `${server.url}/api/stripe/webhook`;
});
afterAll(async () => {
  await server?.close();
  await stripe?.close();
});

interface BillingBody {
  status: 'success';
  configured: boolean;
  company_id: number;
  subscription: BillingSubscription | null;
}
interface CheckoutBody {
  status: 'success';
  url: string;
  session_id: string;
}
interface ConfirmBody {
  status: 'success';
  message: string;
  company_id: number;
  subscription: BillingSubscription;
}

const billing = (user: { token: string }, query: Record<string, string | number> = {}, on: TestServer = server) => on.request<BillingBody>('GET', '/billing', { token: user.token, query });
const checkout = (user: { token: string }, json: Record<string, unknown>, on: TestServer = server) => on.request<CheckoutBody>('POST', '/billing/checkout', { token: user.token, json });
const confirm = (user: { token: string }, json: Record<string, unknown>, on: TestServer = server) => on.request<ConfirmBody>('POST', '/billing/confirm', { token: user.token, json });

const ok = <T>(response: ApiResponse<T>): T => {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};
const refused = (response: ApiResponse<unknown>, status: number, message: string) => {
  expect({ status: response.status, body: response.body }).toEqual({ status, body: { status: 'error', message } });
};

const row = (companyId: number) => server.database.db.selectFrom('company_subscriptions').selectAll().where('company_id', '=', companyId).executeTakeFirst();
const handledEvents = (eventId: string) => server.database.db.selectFrom('stripe_events').selectAll().where('id', '=', eventId).execute();
const auditTitles = async (companyId: number) =>
  (await server.database.db.selectFrom('audit_events').select('event_title').where('company_id', '=', companyId).orderBy('id').execute()).map((event) => event.event_title);
const isoOf = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/** A company that paid for `plan` through the stand-in (its events sent or not) and confirmed the return. */
async function subscribed(plan: 'monthly' | 'yearly', options: { sendEvents?: boolean } = {}) {
  const farm = await createTenant(server);
  const started = ok(await checkout(farm.admin, { company_id: farm.companyId, plan }));
  const paid = await stripe.pay(started.session_id, options);
  const confirmed = ok(await confirm(farm.admin, { company_id: farm.companyId, session_id: started.session_id }));
  return { farm, sessionId: started.session_id, subscription: paid.subscription, confirmed, deliveries: paid.deliveries };
}

describe('checkout', () => {
  it('answers the payment page of a subscription session on the plan’s price, for the company, from the Admin’s e-mail', async () => {
    const farm = await createTenant(server);
    const body = ok(await checkout(farm.admin, { company_id: farm.companyId, plan: 'yearly' }));
    expect(body.url).toBe(`${stripe.base}/pay/${body.session_id}`);
    expect(body.session_id).toMatch(/^cs_test_/);

    const [created] = stripe.requestsTo('/v1/checkout/sessions').filter((request) => request.method === 'POST').slice(-1);
    expect(created!.authorization).toBe(`Bearer ${STAND_IN_SECRET_KEY}`);
    // The SDK sends an idempotency key: a retry after a lost answer makes no second session.
    expect(created!.idempotencyKey).toBeTruthy();
    expect(created!.params).toEqual({
      mode: 'subscription',
      line_items: [{ price: STAND_IN_PRICE_YEARLY, quantity: '1' }],
      client_reference_id: String(farm.companyId),
      metadata: { company_id: String(farm.companyId), plan: 'yearly' },
      subscription_data: { metadata: { company_id: String(farm.companyId), plan: 'yearly' } },
      customer_email: farm.admin.email,
      success_url: 'http://grow.test/PostPayment?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://grow.test/YearPayment',
    });

    ok(await checkout(farm.admin, { company_id: farm.companyId, plan: 'monthly' }));
    const monthly = stripe.requestsTo('/v1/checkout/sessions').at(-1)!;
    expect(monthly.params).toMatchObject({ line_items: [{ price: STAND_IN_PRICE_MONTHLY, quantity: '1' }], cancel_url: 'http://grow.test/Payments' });
    // Nothing is recorded until Stripe says it was paid.
    expect(await row(farm.companyId)).toBeUndefined();
  });

  it('needs a plan, monthly or yearly, and the company', async () => {
    const farm = await createTenant(server);
    refused(await checkout(farm.admin, { company_id: farm.companyId }), 400, m.planRequired);
    refused(await checkout(farm.admin, { company_id: farm.companyId, plan: 'weekly' }), 400, m.planInvalid);
    refused(await checkout(farm.admin, { plan: 'yearly' }), 400, m.companyIdRequired);
  });

  it('refuses a second subscription while one goes on (it would be charged twice)', async () => {
    const { farm } = await subscribed('monthly');
    const before = stripe.requests.length;
    refused(await checkout(farm.admin, { company_id: farm.companyId, plan: 'yearly' }), 409, m.alreadySubscribed('monthly'));
    expect(stripe.requests.length).toBe(before);
  });

  it('answers 502 when Stripe refuses the installation’s key', async () => {
    const farm = await createTenant(server);
    stripe.state.secretKey = 'sk_test_another';
    try {
      refused(await checkout(farm.admin, { company_id: farm.companyId, plan: 'monthly' }), 502, m.stripeFailed('it refused the installation’s key'));
    } finally {
      stripe.state.secretKey = STAND_IN_SECRET_KEY;
    }
  });
});

describe('the return to /PostPayment', () => {
  it('confirms the paid plan with Stripe and records it, before any event arrives', async () => {
    const { farm, sessionId, subscription, confirmed } = await subscribed('yearly', { sendEvents: false });
    const renewsAt = isoOf(subscription.items.data[0]!.current_period_end);
    expect(confirmed).toEqual({
      status: 'success',
      message: m.subscribed('yearly'),
      company_id: farm.companyId,
      subscription: { plan: 'yearly', status: 'active', renews_at: renewsAt, current: true, updated_at: expect.any(String) as string },
    });
    expect(ok(await billing(farm.admin))).toEqual({ status: 'success', configured: true, company_id: farm.companyId, subscription: confirmed.subscription });
    expect(await row(farm.companyId)).toMatchObject({ plan: 'yearly', status: 'active', stripe_subscription_id: subscription.id, stripe_customer_id: subscription.customer });
    expect(await auditTitles(farm.companyId)).toContain('Subscription: yearly plan, active');

    // Confirming again (a reload of /PostPayment) changes nothing.
    const again = ok(await confirm(farm.admin, { company_id: farm.companyId, session_id: sessionId }));
    expect(again.subscription).toMatchObject({ plan: 'yearly', status: 'active', renews_at: renewsAt });
    expect((await auditTitles(farm.companyId)).filter((title) => title.startsWith('Subscription:'))).toHaveLength(1);
  });

  it('refuses a checkout not paid yet, and a session Stripe does not know', async () => {
    const farm = await createTenant(server);
    const started = ok(await checkout(farm.admin, { company_id: farm.companyId, plan: 'monthly' }));
    refused(await confirm(farm.admin, { company_id: farm.companyId, session_id: started.session_id }), 409, m.checkoutNotComplete);
    refused(await confirm(farm.admin, { company_id: farm.companyId, session_id: 'cs_test_nobodyknows' }), 404, m.sessionNotFound);
    refused(await confirm(farm.admin, { company_id: farm.companyId, session_id: '../v1/customers' }), 400, m.sessionIdInvalid);
    refused(await confirm(farm.admin, { company_id: farm.companyId }), 400, m.sessionIdRequired);
    expect(await row(farm.companyId)).toBeUndefined();
  });
});

describe('who may', () => {
  let farm: Tenant;
  let other: Tenant;
  let operator: SignedInUser;
  let otherSession: string;

  beforeAll(async () => {
    farm = await createTenant(server);
    other = await createTenant(server);
    operator = await createSuperAdmin(server);
    otherSession = ok(await checkout(other.admin, { company_id: other.companyId, plan: 'monthly' })).session_id;
    await stripe.pay(otherSession, { sendEvents: false });
  });

  it('answers 401 without a session', async () => {
    refused(await billing({ token: '' }), 401, httpMessages.unauthenticated);
    refused(await checkout({ token: '' }, { company_id: farm.companyId, plan: 'monthly' }), 401, httpMessages.unauthenticated);
    refused(await confirm({ token: '' }, { company_id: farm.companyId, session_id: otherSession }), 401, httpMessages.unauthenticated);
  });

  it('answers 403 to a grower: only Admins manage billing', async () => {
    refused(await billing(farm.regular), 403, httpMessages.roleForbidden);
    refused(await checkout(farm.regular, { company_id: farm.companyId, plan: 'monthly' }), 403, httpMessages.roleForbidden);
    refused(await confirm(farm.regular, { company_id: farm.companyId, session_id: otherSession }), 403, httpMessages.roleForbidden);
  });

  it('answers 403 for another company’s company_id, in every call', async () => {
    const before = stripe.requests.length;
    refused(await billing(farm.admin, { company_id: other.companyId }), 403, httpMessages.otherCompany);
    refused(await checkout(farm.admin, { company_id: other.companyId, plan: 'monthly' }), 403, httpMessages.otherCompany);
    refused(await confirm(farm.admin, { company_id: other.companyId, session_id: otherSession }), 403, httpMessages.otherCompany);
    expect(stripe.requests.length).toBe(before);
  });

  it('answers 403 for another company’s checkout session, and records it for neither', async () => {
    refused(await confirm(farm.admin, { company_id: farm.companyId, session_id: otherSession }), 403, httpMessages.otherCompany);
    expect(await row(farm.companyId)).toBeUndefined();
    expect(await row(other.companyId)).toBeUndefined();
    // Its own Admin confirms it.
    expect(ok(await confirm(other.admin, { company_id: other.companyId, session_id: otherSession })).subscription.plan).toBe('monthly');
  });

  it('lets the platform operator read and act for any company', async () => {
    expect(ok(await billing(operator, { company_id: other.companyId })).subscription?.plan).toBe('monthly');
    expect(ok(await billing(operator, { company_id: farm.companyId }))).toMatchObject({ company_id: farm.companyId, subscription: null });
  });
});

describe('Stripe’s events', () => {
  it('the payment page’s events alone record the subscription (no return needed)', async () => {
    const farm = await createTenant(server);
    const started = ok(await checkout(farm.admin, { company_id: farm.companyId, plan: 'monthly' }));
    const { subscription, deliveries } = await stripe.pay(started.session_id);
    expect(deliveries.map((delivery) => [delivery.event.type, delivery.status, delivery.body])).toEqual([
      ['customer.subscription.created', 200, { status: 'success', received: true, duplicate: false }],
      ['checkout.session.completed', 200, { status: 'success', received: true, duplicate: false }],
      ['invoice.paid', 200, { status: 'success', received: true, duplicate: false }],
    ]);
    expect(ok(await billing(farm.admin)).subscription).toMatchObject({ plan: 'monthly', status: 'active', renews_at: isoOf(subscription.items.data[0]!.current_period_end), current: true });
    for (const delivery of deliveries) expect(await handledEvents(delivery.event.id)).toHaveLength(1);
  });

  it('keep it current: a failed payment, a renewal, a cancellation; then a new checkout is allowed on the same customer', async () => {
    const { farm, subscription } = await subscribed('monthly');
    expect((await stripe.deliver(stripe.setStatus(subscription.id, 'past_due'))).status).toBe(200);
    expect(ok(await billing(farm.admin)).subscription).toMatchObject({ status: 'past_due', current: true });

    const renewal = stripe.renew(subscription.id);
    expect((await stripe.deliver(renewal.invoicePaid)).status).toBe(200);
    const renewsAt = isoOf(renewal.subscription.items.data[0]!.current_period_end);
    expect(ok(await billing(farm.admin)).subscription).toMatchObject({ status: 'past_due', renews_at: renewsAt });
    expect((await stripe.deliver(stripe.setStatus(subscription.id, 'active'))).status).toBe(200);
    expect(ok(await billing(farm.admin)).subscription).toMatchObject({ status: 'active', renews_at: renewsAt });

    expect((await stripe.deliver(stripe.setStatus(subscription.id, 'canceled'))).status).toBe(200);
    expect(ok(await billing(farm.admin)).subscription).toMatchObject({ plan: 'monthly', status: 'canceled', current: false });
    expect(await auditTitles(farm.companyId)).toEqual(
      expect.arrayContaining(['Subscription: monthly plan, active', 'Subscription: monthly plan, payment overdue', 'Subscription: monthly plan, cancelled']),
    );

    ok(await checkout(farm.admin, { company_id: farm.companyId, plan: 'yearly' }));
    const again = stripe.requestsTo('/v1/checkout/sessions').at(-1)!;
    expect(again.params.customer).toBe(subscription.customer);
    expect(again.params).not.toHaveProperty('customer_email');
  });

  it('apply each event once: a replay answers that it was handled and changes nothing', async () => {
    const { farm, subscription } = await subscribed('yearly');
    const overdue = stripe.setStatus(subscription.id, 'past_due');
    expect((await stripe.deliver(overdue)).body).toMatchObject({ duplicate: false });
    const active = stripe.setStatus(subscription.id, 'active');
    expect((await stripe.deliver(active)).body).toMatchObject({ duplicate: false });

    // Stripe delivers at least once: the first event again, even with a newer signature, is not applied
    // again: nothing is read from Stripe for it, nothing written, nothing audited.
    const [reads, trail, before] = [stripe.requestsTo('/v1/subscriptions').length, await auditTitles(farm.companyId), await row(farm.companyId)];
    const replay = await stripe.deliver(overdue);
    expect(replay).toMatchObject({ status: 200, body: { status: 'success', received: true, duplicate: true } });
    expect(stripe.requestsTo('/v1/subscriptions').length).toBe(reads);
    expect(await row(farm.companyId)).toEqual(before);
    expect(await auditTitles(farm.companyId)).toEqual(trail);
    expect(await handledEvents(overdue.id)).toHaveLength(1);
  });

  it('never roll a newer state back with an older event arriving late', async () => {
    const { farm, subscription } = await subscribed('monthly');
    const earlier = new Date(Date.now() - 60_000);
    const late = stripe.event('customer.subscription.updated', { ...structuredClone(subscription), status: 'incomplete' }, earlier);
    expect((await stripe.deliver(late)).status).toBe(200);
    expect((await row(farm.companyId))?.status).toBe('active');
  });

  it('refuse a bad or missing signature with 400 and change nothing', async () => {
    const { farm, subscription } = await subscribed('yearly');
    const before = await row(farm.companyId);
    // Cancelled at Stripe: only a rightly signed event may tell the server.
    const cancelled = stripe.setStatus(subscription.id, 'canceled');

    const forged = await stripe.deliver(cancelled, { secret: 'whsec_not_the_installations' });
    expect({ status: forged.status, body: forged.body }).toEqual({ status: 400, body: { status: 'error', message: m.signatureInvalid } });
    const unsigned = await stripe.deliver(cancelled, { signature: null });
    expect({ status: unsigned.status, body: unsigned.body }).toEqual({ status: 400, body: { status: 'error', message: m.signatureMissing } });
    const garbled = await stripe.deliver(cancelled, { signature: 't=1,v1=00' });
    expect({ status: garbled.status, body: garbled.body }).toEqual({ status: 400, body: { status: 'error', message: m.signatureInvalid } });
    // Signed, then changed on the way: the signature no longer matches the bytes.
    const tampered = await stripe.deliver(cancelled, { payload: JSON.stringify({ ...cancelled, type: 'customer.subscription.updated' }, null, 2) });
    expect({ status: tampered.status, body: tampered.body }).toEqual({ status: 400, body: { status: 'error', message: m.signatureInvalid } });

    expect(await row(farm.companyId)).toEqual(before);
    expect(await handledEvents(cancelled.id)).toEqual([]);
    // Once signed right, it is applied.
    expect((await stripe.deliver(cancelled)).status).toBe(200);
    expect((await row(farm.companyId))?.status).toBe('canceled');
  });

  it('answer events the server does not use, and subscriptions of no company here, without changing anything', async () => {
    const customerEvent = stripe.event('customer.created', { id: 'cus_elsewhere', object: 'customer' });
    expect((await stripe.deliver(customerEvent)).body).toEqual({ status: 'success', received: true, duplicate: false });
    const foreign = stripe.event('customer.subscription.updated', {
      id: 'sub_elsewhere',
      object: 'subscription',
      status: 'active',
      customer: 'cus_elsewhere',
      metadata: {},
      items: { object: 'list', data: [{ price: { id: STAND_IN_PRICE_MONTHLY, recurring: { interval: 'month' } }, current_period_end: 2_000_000_000 }] },
    });
    expect((await stripe.deliver(foreign)).status).toBe(200);
    expect(await server.database.db.selectFrom('company_subscriptions').selectAll().where('stripe_subscription_id', '=', 'sub_elsewhere').execute()).toEqual([]);
  });
});

describe('a tablet’s queue', () => {
  it('refuses billing calls sent as queued changes (a sync push): they are online calls', async () => {
    const farm = await createTenant(server);
    const started = ok(await checkout(farm.admin, { company_id: farm.companyId, plan: 'monthly' }));
    await stripe.pay(started.session_id, { sendEvents: false });
    const before = stripe.requests.length;
    const entry = (path: string, data: Record<string, unknown>) => ({ id: `entry-${randomUUID()}`, method: 'POST', path, body: { kind: 'json', data } });
    const pushed = await server.request<PushAnswer>('POST', '/sync/push', {
      token: farm.admin.token,
      json: {
        entries: [
          entry('/billing/confirm', { company_id: farm.companyId, session_id: started.session_id }),
          entry('/billing/checkout', { company_id: farm.companyId, plan: 'yearly' }),
        ],
      },
    });
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    expect(pushed.body.results.map((result) => [result.status, result.body])).toEqual([
      [400, { status: 'error', message: m.notQueued }],
      [400, { status: 'error', message: m.notQueued }],
    ]);
    expect(stripe.requests.length).toBe(before);
    expect(await row(farm.companyId)).toBeUndefined();
  });
});

describe('without Stripe settings', () => {
  let bare: TestServer;
  let farm: Tenant;

  beforeAll(async () => {
    // Stripe's address is the stand-in's, but without a key nothing may be asked of it.
    bare = await startServer({ stripeApiUrl: stripe.base });
    farm = await createTenant(bare);
  });
  afterAll(() => bare?.close());

  it('says billing is not set up, charges nothing and asks nothing of Stripe', async () => {
    const before = stripe.requests.length;
    expect(ok(await billing(farm.admin, {}, bare))).toEqual({ status: 'success', configured: false, company_id: farm.companyId, subscription: null });
    refused(await checkout(farm.admin, { company_id: farm.companyId, plan: 'yearly' }, bare), 409, m.notConfigured);
    refused(await confirm(farm.admin, { company_id: farm.companyId, session_id: 'cs_test_anything' }, bare), 409, m.notConfigured);
    const event = stripe.event('customer.subscription.created', { id: 'sub_x', object: 'subscription' });
    const payload = JSON.stringify(event);
    const webhook = await fetch(`${bare.url}/api/stripe/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': stripe.signatureOf(payload) }, body: payload });
    expect({ status: webhook.status, body: (await webhook.json()) as unknown }).toEqual({ status: 409, body: { status: 'error', message: m.notConfigured } });
    expect(stripe.requests.length).toBe(before);
    expect(await bare.database.db.selectFrom('company_subscriptions').selectAll().execute()).toEqual([]);
  });
});
