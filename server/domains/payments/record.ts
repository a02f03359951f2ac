/**
 * What Stripe says of a company's subscription, made into the state the server keeps (queries.ts) and
 * recorded with its audit event: on the return from a completed checkout (/PostPayment), and on each
 * of Stripe's signed events (the webhook). Either way the subscription is read from Stripe at that
 * moment, and the state recorded is as of that read.
 *
 * Stripe is read first and written after: a call to Stripe (seconds, retried) never runs inside a
 * database transaction, which on the embedded database would hold its one connection, and every
 * other request with it, for as long as Stripe takes.
 */
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type Stripe from 'stripe';
import type { z } from 'zod';
import { auditTitles } from '../../../common/messages/audit-titles';
import { isPlan, type Plan, paymentMessages as m, subscriptionStatusText } from '../../../common/messages/payments';
import type { ServerConfig } from '../../config';
import type { DB } from '../../db/schema';
import { type Actor, systemActor } from '../../db/writes';
import { badRequest, HttpError } from '../../http/errors';
import { recordAudit } from '../audit/record';
import { paymentQueries, type SubscriptionRow, type SubscriptionState } from './queries';
import {
  invoiceSubscription,
  periodEndOf,
  planOf,
  sessionCompany,
  stripeCall,
  stripeInvoice,
  type StripeSession,
  stripeSession,
  type StripeSubscription,
  stripeSubscription,
  wholeNumberIn,
} from './stripe';

/** An answer of Stripe's API read through its schema; one it cannot read is Stripe failing (502). */
function answered<T extends z.ZodType>(log: FastifyBaseLogger, schema: T, value: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  log.warn({ issues: parsed.error.issues.slice(0, 5) }, `Stripe's answer could not be read (${what})`);
  throw new HttpError(502, m.stripeFailed('its answer could not be read'));
}

/** A checkout session read from Stripe (404 when Stripe knows none by that id). */
export async function retrieveSession(log: FastifyBaseLogger, stripe: Stripe, sessionId: string): Promise<StripeSession> {
  const session = await stripeCall(log, 'read the checkout session', () => stripe.checkout.sessions.retrieve(sessionId), m.sessionNotFound);
  return answered(log, stripeSession, session, 'checkout session');
}

/** The subscription `subscriptionId` as Stripe holds it now, or null when Stripe knows none by that id. */
async function currentSubscription(log: FastifyBaseLogger, stripe: Stripe, subscriptionId: string): Promise<StripeSubscription | null> {
  try {
    const read = await stripeCall(log, 'read the subscription', () => stripe.subscriptions.retrieve(subscriptionId), `No subscription ${subscriptionId}`);
    return answered(log, stripeSubscription, read, 'subscription');
  } catch (error) {
    if (error instanceof HttpError && error.statusCode === 404) return null;
    throw error;
  }
}

/**
 * The state to record for `companyId` of the subscription `subscriptionId`, read from Stripe now (its
 * `at`): null when Stripe knows no such subscription, or it is on a price that is no plan here and
 * neither `knownPlan` (what the checkout or the stored row says) names one.
 */
async function stateNow(log: FastifyBaseLogger, stripe: Stripe, config: ServerConfig, subscriptionId: string, companyId: number, knownPlan: Plan | null): Promise<SubscriptionState | null> {
  const at = new Date();
  const subscription = await currentSubscription(log, stripe, subscriptionId);
  if (!subscription) return null;
  const plan = planOf(config, subscription) ?? knownPlan;
  if (!plan) return null;
  return { companyId, plan, status: subscription.status, customerId: subscription.customer, subscriptionId: subscription.id, periodEnd: periodEndOf(subscription), at };
}

/** The subscription a completed checkout made, as Stripe holds it now: its state to record for `companyId`, or null (see `stateNow`). */
export function checkoutState(log: FastifyBaseLogger, stripe: Stripe, config: ServerConfig, session: StripeSession, companyId: number): Promise<SubscriptionState | null> {
  if (!session.subscription) return Promise.resolve(null);
  return stateNow(log, stripe, config, session.subscription, companyId, isPlan(session.metadata.plan) ? session.metadata.plan : null);
}

/** Writes a state (queries.ts `save`: a newer one is never rolled back) and audits a change of plan or status. */
export async function recordState(db: Kysely<DB>, state: SubscriptionState, actor: Actor): Promise<SubscriptionRow> {
  const before = await paymentQueries.byCompany(db, state.companyId);
  const row = await paymentQueries.save(db, state);
  if (!before || before.plan !== row.plan || before.status !== row.status) {
    await recordAudit(db, actor, {
      title: auditTitles.subscription[row.plan].statuses[row.status] ?? auditTitles.subscription[row.plan].other(subscriptionStatusText(row.status).toLowerCase()),
      details: { plan: row.plan, status: row.status, renews_at: row.current_period_end, stripe_subscription_id: row.stripe_subscription_id },
    });
  }
  return row;
}

/** What an event changes: a subscription's state, or nothing (and why, for the log). */
export type EventChange = { kind: 'state'; state: SubscriptionState } | { kind: 'none'; why: string };

/** The handled events' object, read through its schema; an event the server cannot read is refused (400) and not noted as handled. */
function eventObject<T extends z.ZodType>(request: FastifyRequest, schema: T, event: Stripe.Event): z.output<T> {
  const parsed = schema.safeParse(event.data.object);
  if (parsed.success) return parsed.data;
  request.log.warn({ event: { id: event.id, type: event.type }, issues: parsed.error.issues.slice(0, 5) }, 'A Stripe event could not be read');
  throw badRequest(m.eventUnreadable);
}

const none = (why: string): EventChange => ({ kind: 'none', why });

/** The subscription an event is about and the company it is for (metadata the checkout noted), as far as the event says. */
function subjectOf(request: FastifyRequest, event: Stripe.Event): { subscriptionId: string | null; companyId: number | null; plan: Plan | null } | null {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = eventObject(request, stripeSession, event);
      if (session.mode !== 'subscription') return null;
      return { subscriptionId: session.subscription, companyId: sessionCompany(session), plan: isPlan(session.metadata.plan) ? session.metadata.plan : null };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = eventObject(request, stripeSubscription, event);
      return { subscriptionId: subscription.id, companyId: wholeNumberIn(subscription.metadata.company_id), plan: isPlan(subscription.metadata.plan) ? subscription.metadata.plan : null };
    }
    case 'invoice.paid': {
      const invoice = eventObject(request, stripeInvoice, event);
      const noted = invoice.parent?.subscription_details?.metadata ?? {};
      return { subscriptionId: invoiceSubscription(invoice), companyId: wholeNumberIn(noted.company_id), plan: isPlan(noted.plan) ? noted.plan : null };
    }
    default:
      return null;
  }
}

/**
 * What a verified event changes. The events handled: `checkout.session.completed`,
 * `customer.subscription.created/updated/deleted` and `invoice.paid` (a renewal); others change nothing.
 *
 * Each is taken as word that its subscription changed, and the subscription is read from Stripe now
 * (Stripe's advice): events arrive late and out of order, and their times are whole seconds, so a
 * snapshot in one cannot be ordered against a read made in the same second (the return to
 * /PostPayment); a fresh read is the state as of now, and the newest read wins (queries.ts `save`).
 * Nothing is written here.
 */
export async function changeOf(request: FastifyRequest, stripe: Stripe, event: Stripe.Event): Promise<EventChange> {
  const { db, log } = request;
  const { config } = request.server.deps;
  const subject = subjectOf(request, event);
  if (!subject) return none('an event the server does not use');
  if (!subject.subscriptionId) return none('an event of no subscription');
  // The company that recorded the subscription first; a new one by what its checkout noted.
  const stored = await paymentQueries.bySubscription(db, subject.subscriptionId);
  const companyId = stored?.company_id ?? subject.companyId;
  if (companyId === null) return none('a subscription this app did not start');
  if (!stored && !(await paymentQueries.companyIsLive(db, companyId))) return none(`company ${companyId} is not here`);
  const state = await stateNow(log, stripe, config, subject.subscriptionId, companyId, subject.plan ?? stored?.plan ?? null);
  return state ? { kind: 'state', state } : none(`Stripe knows no subscription ${subject.subscriptionId} of a plan here`);
}

/** Applies a change (in the webhook's transaction). */
export async function applyChange(request: FastifyRequest, db: Kysely<DB>, event: Stripe.Event, change: EventChange): Promise<void> {
  if (change.kind === 'state') await recordState(db, change.state, systemActor(change.state.companyId));
  else request.log.info({ event: { id: event.id, type: event.type } }, `Stripe event changed nothing: ${change.why}`);
}
