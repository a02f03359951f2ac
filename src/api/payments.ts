/**
 * Domain functions of payments (issue 18: /Payments, /YearPayment, /PostPayment): the company's
 * subscription, read (GET /billing), paid on Stripe's page (POST /billing/checkout answers its
 * address) and confirmed on the return (POST /billing/confirm), by Admins.
 *
 * All online calls: the subscription is Stripe's word, kept by the server, and paying needs Stripe's
 * page, so nothing of it is in the local store or the outbox (a payment queued offline would be paid
 * later without the Admin there to pay it). Input is checked first with the server's own schemas
 * (common/schemas/payments.ts), so the same messages come before any call.
 */
import type { z } from 'zod';
import { paymentClientMessages as cm, type Plan } from '../../common/messages/payments';
import { type billingAnswer, billingQuery, type BillingSubscription, type checkoutAnswer, checkoutBody, type confirmAnswer, confirmBody } from '../../common/schemas/payments';
import { type ApiContext, check, online } from './context';

export type { BillingSubscription, Plan };

/** The company's billing: whether the installation has Stripe set up, and its subscription (null: never subscribed). */
export type Billing = Omit<z.infer<typeof billingAnswer>, 'status' | 'message'>;

/** A checkout started: Stripe's payment page to go to, and its session. */
export interface StartedCheckout {
  url: string;
  sessionId: string;
}

/** GET /billing (company_id): the company's subscription as Stripe last said it. */
export async function getBilling(context: Pick<ApiContext, 'client'>, input: { companyId: number }): Promise<Billing> {
  const query = check(billingQuery, { company_id: input.companyId });
  const { configured, company_id, subscription } = await online<z.infer<typeof billingAnswer>>(context, { path: '/billing', query }, cm.readFailed);
  return { configured, company_id, subscription };
}

/** POST /billing/checkout (company_id, plan): a Stripe Checkout Session for the plan; the tablet goes to its `url` to pay. */
export async function startCheckout(context: Pick<ApiContext, 'client'>, input: { companyId: number; plan: Plan }): Promise<StartedCheckout> {
  const body = check(checkoutBody, { company_id: input.companyId, plan: input.plan });
  const { url, session_id } = await online<z.infer<typeof checkoutAnswer>>(context, { method: 'POST', path: '/billing/checkout', body }, cm.checkoutFailed);
  return { url, sessionId: session_id };
}

/**
 * POST /billing/confirm (company_id, session_id): on the return to /PostPayment, asks the server to
 * confirm the payment with Stripe; answers the plan as recorded. Confirming twice changes nothing.
 */
export async function confirmCheckout(context: Pick<ApiContext, 'client'>, input: { companyId: number; sessionId: string }): Promise<BillingSubscription> {
  const body = check(confirmBody, { company_id: input.companyId, session_id: input.sessionId });
  const { subscription } = await online<z.infer<typeof confirmAnswer>>(context, { method: 'POST', path: '/billing/confirm', body }, cm.confirmFailed);
  return subscription;
}
