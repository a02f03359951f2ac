/**
 * Requests and answers of payments (issue 18): the company's subscription, read by its Admins
 * (`GET /billing`), paid through Stripe Checkout (`POST /billing/checkout` answers the payment page's
 * address), confirmed on the return to /PostPayment (`POST /billing/confirm`), and kept current by
 * Stripe's signed events (`POST /stripe/webhook`, whose body is Stripe's own and is not described here).
 * Mutations read their fields from a JSON body, a form body or the query alike.
 */
import { z } from 'zod';
import { PLANS, paymentMessages as m } from '../messages/payments';
import { answer, timestamp } from './answers';
import { formBody, optionalId, requiredId } from './fields';

/** Blank text and null count as absent, so they get the "required" message. */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value);

const planField = z.preprocess(
  (value) => blankToUndefined(typeof value === 'string' ? value.trim().toLowerCase() : value),
  z.enum(PLANS, { error: (issue) => (issue.input === undefined ? m.planRequired : m.planInvalid) }),
);

/**
 * A Checkout Session's id as Stripe writes them (`cs_test_…`, `cs_live_…`): checked before it goes into
 * the address of a call to Stripe.
 */
const sessionIdField = z.preprocess(
  blankToUndefined,
  z
    .string({ error: m.sessionIdRequired })
    .trim()
    .regex(/^cs_[A-Za-z0-9_]{1,250}$/, { error: m.sessionIdInvalid }),
);

// ——— Requests ———

/** GET /billing: the company's subscription; `company_id` defaults to the caller's (a SuperAdmin may name any). */
export const billingQuery = z.object({ company_id: optionalId(m.companyIdRequired) });

/** POST /billing/checkout: a Stripe Checkout Session for the plan; answers the payment page's address. */
export const checkoutBody = formBody({
  company_id: requiredId(m.companyIdRequired),
  plan: planField,
});

/** POST /billing/confirm: the return from Stripe's page (`/PostPayment?session_id=…`), confirmed with Stripe. */
export const confirmBody = formBody({
  company_id: requiredId(m.companyIdRequired),
  session_id: sessionIdField,
});

// ——— Answers ———

/** The company's subscription as Stripe last said it. */
export const billingSubscription = z.object({
  plan: z.enum(PLANS),
  /** Stripe's status of the subscription (`active`, `past_due`, `canceled`, …; common/messages/payments.ts). */
  status: z.string(),
  /** When the paid period ends and the plan renews (Stripe's `current_period_end`); null until Stripe has said. */
  renews_at: timestamp.nullable(),
  /** Whether the subscription goes on (CURRENT_SUBSCRIPTION_STATUSES): no second checkout is started meanwhile. */
  current: z.boolean(),
  updated_at: timestamp,
});

export const billingAnswer = answer({
  /** Whether the operator set Stripe up (README "Settings"): without it nothing can be paid and nothing is charged. */
  configured: z.boolean(),
  company_id: z.number().int(),
  /** null: the company has never subscribed. */
  subscription: billingSubscription.nullable(),
});

export const checkoutAnswer = answer({
  /** Stripe's hosted payment page: the tablet goes there. */
  url: z.url(),
  session_id: z.string(),
});

export const confirmAnswer = answer({ company_id: z.number().int(), subscription: billingSubscription });

/** What Stripe is answered for an event it sent: received (`duplicate`: it had been handled already, nothing changed). */
export const webhookAnswer = answer({ received: z.literal(true), duplicate: z.boolean() });

export type BillingSubscription = z.infer<typeof billingSubscription>;
