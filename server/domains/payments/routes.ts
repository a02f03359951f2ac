/**
 * Payments (issue 18 "Payments": /Payments, /YearPayment, /PostPayment): the company's subscription,
 * monthly or yearly, paid through Stripe Checkout when the operator set Stripe up (README "Settings").
 * Admins read it, start a checkout and confirm its return; Stripe's signed events keep it current.
 * Without the settings GET /billing says `configured: false` and every other call answers 409 saying
 * billing is not set up for this installation: nothing is charged.
 *
 * Decisions (the spec shows no payment calls):
 * - Admin-only (and SuperAdmin, for any company); another company's `company_id` answers 403 (the guard),
 *   and so does confirming another company's checkout session.
 * - A company whose subscription still goes on (active, trialing, past due, paused) cannot start a
 *   second one (409): it would be charged twice. Changing the plan is not offered here.
 * - Stripe's page returns to `<PUBLIC_URL>/PostPayment?session_id=…` (the operator's address, never
 *   one a request names); leaving it goes back to /Payments, or /YearPayment for the yearly plan.
 * - The return confirms the payment with Stripe itself (POST /billing/confirm), so the plan shows at
 *   once, before (or without) the webhook; both record the same state, and the newer wins.
 * - These calls run without the transaction wrapper (`transaction: false`): they call Stripe, and
 *   a transaction held open meanwhile would hold the embedded database's one connection. What they
 *   write, they write after Stripe answered, in one transaction of their own (record.ts).
 */
import type { FastifyRequest } from 'fastify';
import Stripe from 'stripe';
import { httpMessages } from '../../../common/messages/http';
import { paymentMessages as m } from '../../../common/messages/payments';
import { billingAnswer, billingQuery, checkoutAnswer, checkoutBody, confirmAnswer, confirmBody, webhookAnswer } from '../../../common/schemas/payments';
import { stripeConfigured } from '../../config';
import { badRequest, conflict, forbidden, HttpError } from '../../http/errors';
import { actingCompany, caller } from '../../http/guards';
import { type App, fieldsFromQueryAndBody, type RequestOf, success } from '../../http/route';
import { isPushedEntry } from '../../http/transactions';
import { actorOfRequest } from '../audit/record';
import { isCurrent, paymentQueries, subscriptionJson } from './queries';
import { applyChange, changeOf, checkoutState, recordState, retrieveSession } from './record';
import { priceOf, requireStripe, sessionCompany, stripeCall } from './stripe';

/**
 * Billing calls are online calls: one sent as a tablet's queued change (a sync push entry, which runs
 * inside the push's transaction) is refused, since it would call Stripe with that transaction held and
 * write in a transaction of its own beside it.
 */
function assertNotQueued(request: FastifyRequest) {
  if (isPushedEntry(request)) throw badRequest(m.notQueued);
}

const billingSchema = { querystring: billingQuery, response: { 200: billingAnswer } };
const checkoutSchema = { body: checkoutBody, response: { 200: checkoutAnswer } };
const confirmSchema = { body: confirmBody, response: { 200: confirmAnswer } };
const webhookSchema = { response: { 200: webhookAnswer } };

async function getBilling(request: RequestOf<typeof billingSchema>) {
  const companyId = actingCompany(request, request.query.company_id);
  const row = await paymentQueries.byCompany(request.db, companyId);
  return success({ configured: stripeConfigured(request.server.deps.config), company_id: companyId, subscription: row ? subscriptionJson(row) : null });
}

async function startCheckout(request: RequestOf<typeof checkoutSchema>) {
  assertNotQueued(request);
  const { company_id, plan } = request.body;
  const { config } = request.server.deps;
  const stripe = requireStripe(config);
  const existing = await paymentQueries.byCompany(request.db, company_id);
  if (existing && isCurrent(existing.status)) throw conflict(m.alreadySubscribed(existing.plan));
  // A company that paid before keeps its Stripe customer (its invoices stay together); a new one is made from the Admin's e-mail.
  const email = existing?.stripe_customer_id ? null : await paymentQueries.emailOf(request.db, caller(request).user_id);
  const noted = { company_id: String(company_id), plan };
  const session = await stripeCall(request.log, 'create a checkout session', () =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: priceOf(config, plan), quantity: 1 }],
      client_reference_id: String(company_id),
      metadata: noted,
      // On the subscription too: its events name the company even before the server has recorded it.
      subscription_data: { metadata: noted },
      ...(existing?.stripe_customer_id ? { customer: existing.stripe_customer_id } : email ? { customer_email: email } : {}),
      // Stripe puts the session's id in place of {CHECKOUT_SESSION_ID}.
      success_url: `${config.publicUrl}/PostPayment?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${config.publicUrl}${plan === 'yearly' ? '/YearPayment' : '/Payments'}`,
    }),
  );
  if (!session.url) throw new HttpError(502, m.stripeFailed('it gave no payment page'));
  return success({ url: session.url, session_id: session.id }, m.checkoutStarted);
}

async function confirmCheckout(request: RequestOf<typeof confirmSchema>) {
  assertNotQueued(request);
  const { company_id, session_id } = request.body;
  const { config } = request.server.deps;
  const stripe = requireStripe(config);
  const session = await retrieveSession(request.log, stripe, session_id);
  const sessionOf = sessionCompany(session);
  if (session.mode !== 'subscription' || sessionOf === null) throw conflict(m.checkoutNotSubscription);
  if (sessionOf !== company_id) throw forbidden(httpMessages.otherCompany);
  if (session.status !== 'complete') throw conflict(m.checkoutNotComplete);
  const state = await checkoutState(request.log, stripe, config, session, company_id);
  if (!state) throw conflict(m.checkoutNotSubscription);
  const actor = actorOfRequest(request, company_id);
  const row = await request.db.transaction().execute((trx) => recordState(trx, state, actor));
  return success({ company_id, subscription: subscriptionJson(row) }, m.subscribed(row.plan));
}

/**
 * Stripe's events (no session: Stripe calls it). The body is verified as it came, byte for byte,
 * against the Stripe-Signature header and the webhook secret; a missing or wrong signature answers
 * 400 and changes nothing. Each event is applied once (stripe_events), in one transaction with what
 * it changes, so a delivery that fails is applied whole by Stripe's next try.
 */
async function stripeWebhook(request: FastifyRequest) {
  assertNotQueued(request);
  const { config } = request.server.deps;
  const stripe = requireStripe(config);
  const signature = request.headers['stripe-signature'];
  if (typeof signature !== 'string' || signature.trim() === '') throw badRequest(m.signatureMissing);
  const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(raw, signature, config.stripeWebhookSecret ?? '');
  } catch (error) {
    request.log.warn({ reason: error instanceof Error ? error.message : String(error) }, 'A Stripe event was refused: its signature does not match');
    throw badRequest(m.signatureInvalid);
  }
  if (await paymentQueries.eventHandled(request.db, event.id)) return success({ received: true as const, duplicate: true });
  const change = await changeOf(request, stripe, event);
  const applied = await request.db.transaction().execute(async (trx) => {
    if (!(await paymentQueries.claimEvent(trx, event.id, event.type))) return false;
    await applyChange(request, trx, event, change);
    return true;
  });
  return success({ received: true as const, duplicate: !applied });
}

export async function paymentRoutes(app: App) {
  const fields = { preValidation: fieldsFromQueryAndBody };
  app.get('/billing', { schema: billingSchema, config: { access: 'admin' } }, getBilling);
  app.post('/billing/checkout', { schema: checkoutSchema, config: { access: 'admin', transaction: false }, ...fields }, startCheckout);
  app.post('/billing/confirm', { schema: confirmSchema, config: { access: 'admin', transaction: false }, ...fields }, confirmCheckout);
  await app.register(async (webhook) => {
    // Stripe signs the body's exact bytes: on this route alone every body is kept as it came (a Buffer), whatever its type.
    webhook.removeAllContentTypeParsers();
    webhook.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    webhook.post('/stripe/webhook', { schema: webhookSchema, config: { access: 'public', transaction: false } }, stripeWebhook);
  });
}
