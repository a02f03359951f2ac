/**
 * Payments in real Chromium against the real server (issue 18), whose Stripe is a local stand-in
 * (tests/support/stripe.ts: Stripe's API for the calls used, a hosted checkout page, signed events to
 * the app's webhook). An Admin opens /Payments, chooses the yearly plan, pays on the stand-in's page and
 * lands on /PostPayment with the plan and its renewal date shown; /Payments then shows the subscription.
 * A grower is told that Admins manage billing; offline, the page says billing needs a connection; an
 * installation without Stripe settings says billing is not set up and offers nothing to pay.
 * Screenshots at 768×1024 and axe on each of the app's states. No test reaches the internet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentClientMessages as cm, paymentMessages as m } from '../../common/messages/payments';
import { type E2E, skipBrowser, startE2E } from '../support/browser';
import { createTenant } from '../support/factories';
import { startStripe, type StripeStandIn } from '../support/stripe';
import { PaymentsPage } from './payments-page';

let e2e: E2E;
let stripe: StripeStandIn;

describe.skipIf(skipBrowser)('payments through Stripe Checkout', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    stripe = await startStripe();
    e2e = await startE2E({ stripe: stripe.settings() });
    stripe.state.webhookUrl = `${e2e.server.url}/api/stripe/webhook`;
  }, 300_000);
  afterAll(async () => {
    await e2e?.close();
    await stripe?.close();
  });

  it('an Admin pays for the yearly plan on Stripe’s page and comes back to /PostPayment with the plan and its renewal date', async () => {
    const farm = await createTenant(e2e.server);
    const { page, context, errors, console: messages } = await e2e.newPage();
    const app = new PaymentsPage(page);
    await app.signIn(farm.admin);

    await app.open('/Payments');
    await app.rendered('Payments');
    await app.payButton('yearly').waitFor({ timeout: 15_000 });
    expect(await app.payButton('monthly').isVisible()).toBe(true);
    await app.checkScreen('payments-plans');

    await app.payButton('yearly').click();
    await page.waitForURL((url) => url.origin === stripe.base && url.pathname.startsWith('/pay/'), { timeout: 15_000 });
    const sessionId = new URL(page.url()).pathname.split('/').at(-1)!;
    expect(stripe.sessions.get(sessionId)).toMatchObject({ client_reference_id: String(farm.companyId), customer_email: farm.admin.email, price: stripe.settings().stripePriceYearly });
    await app.screenshot('payments-stripe-checkout');

    await app.payOnCheckoutPage();
    await page.waitForURL((url) => url.origin === e2e.server.url && url.pathname === '/PostPayment', { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('session_id')).toBe(sessionId);
    await app.rendered('Payment');
    await app.subscriptionCard().waitFor({ timeout: 30_000 });
    const subscription = stripe.subscriptions.get(stripe.sessions.get(sessionId)!.subscription!)!;
    const renewsAt = new Date(subscription.items.data[0]!.current_period_end * 1000).toISOString();
    expect(await app.subscriptionShown()).toEqual({ plan: 'Yearly', status: 'Active', renewsAt });
    await expect.poll(() => app.says('The yearly plan is paid and active.').isVisible()).toBe(true);
    await app.checkScreen('payments-post-payment');
    // The events the stand-in sent on paying were taken, and the server holds the plan.
    expect(stripe.deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    const stored = await e2e.server.database.db.selectFrom('company_subscriptions').selectAll().where('company_id', '=', farm.companyId).executeTakeFirst();
    expect(stored).toMatchObject({ plan: 'yearly', status: 'active', stripe_subscription_id: subscription.id });

    // Payments now shows the subscription, and offers no second one.
    await app.open('/Payments');
    await app.rendered('Payments');
    await app.subscriptionCard().waitFor({ timeout: 15_000 });
    expect(await app.subscriptionShown()).toEqual({ plan: 'Yearly', status: 'Active', renewsAt });
    expect(await app.payButton('yearly').count()).toBe(0);
    await app.checkScreen('payments-subscribed');

    // Offline, it says billing needs a connection instead of showing a copy.
    await context.setOffline(true);
    await expect.poll(() => app.says(cm.needsConnection).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await app.subscriptionCard().count()).toBe(0);
    await app.checkScreen('payments-offline');
    await context.setOffline(false);

    expect(errors, messages.join('\n')).toEqual([]);
  });

  it('a grower is told that Admins manage billing', async () => {
    const farm = await createTenant(e2e.server);
    const { page, errors, console: messages } = await e2e.newPage();
    const app = new PaymentsPage(page);
    await app.signIn(farm.regular);
    const asked = stripe.requests.length;

    await app.open('/YearPayment');
    await app.rendered('Yearly payment');
    await expect.poll(() => app.says(cm.adminsOnly).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await app.payButton('yearly').count()).toBe(0);
    await app.checkScreen('payments-admins-only');
    expect(stripe.requests.length).toBe(asked);

    expect(errors, messages.join('\n')).toEqual([]);
  });
});

describe.skipIf(skipBrowser)('payments without Stripe settings', { timeout: 240_000 }, () => {
  let bare: E2E;
  beforeAll(async () => {
    bare = await startE2E();
  }, 300_000);
  afterAll(() => bare?.close());

  it('the screens say billing is not set up for this installation and offer nothing to pay', async () => {
    const farm = await createTenant(bare.server);
    const { page, errors, console: messages } = await bare.newPage();
    const app = new PaymentsPage(page);
    await app.signIn(farm.admin);

    await app.open('/Payments');
    await app.rendered('Payments');
    await expect.poll(() => app.says(m.notConfigured).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await app.payButton('monthly').count()).toBe(0);
    expect(await app.payButton('yearly').count()).toBe(0);
    await app.checkScreen('payments-not-set-up');

    expect(errors, messages.join('\n')).toEqual([]);
  });
});
