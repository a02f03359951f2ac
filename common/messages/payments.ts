/**
 * Messages of payments (issue 18 "Payments": /Payments, /YearPayment, /PostPayment): the company's
 * subscription through Stripe Checkout. The spec shows no payment calls or messages ("Payment calls:
 * not shown"), so these say each rule in the calls' field names and the screens' words.
 */

/** The plans a company may subscribe to, each a Stripe price the operator sets (STRIPE_PRICE_MONTHLY, STRIPE_PRICE_YEARLY). */
export const PLANS = ['monthly', 'yearly'] as const;
export type Plan = (typeof PLANS)[number];

export const PLAN_LABELS: Readonly<Record<Plan, string>> = { monthly: 'Monthly', yearly: 'Yearly' };

export const isPlan = (value: unknown): value is Plan => (PLANS as readonly unknown[]).includes(value);

/** Stripe's subscription statuses, as an Admin reads them; one Stripe adds later shows as Stripe names it. */
export const SUBSCRIPTION_STATUS_LABELS: Readonly<Record<string, string>> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment overdue',
  unpaid: 'Unpaid',
  paused: 'Paused',
  canceled: 'Cancelled',
  incomplete: 'Waiting for the first payment',
  incomplete_expired: 'First payment not made',
};

/**
 * Statuses in which the company has a subscription that goes on (or may, once a payment is made good):
 * a second checkout would charge it twice, so none is started while one of these holds.
 */
export const CURRENT_SUBSCRIPTION_STATUSES: readonly string[] = ['active', 'trialing', 'past_due', 'paused'];

export const subscriptionStatusText = (status: string) => SUBSCRIPTION_STATUS_LABELS[status] ?? status.replace(/_/g, ' ');

export const paymentMessages = {
  /** Without the operator's Stripe settings (README "Settings"): nothing can be paid, nothing is charged. */
  notConfigured: 'Billing is not set up for this installation: nothing can be paid here and nothing is charged.',
  planRequired: 'plan is required.',
  planInvalid: 'plan must be monthly or yearly.',
  companyIdRequired: 'company_id is required.',
  sessionIdRequired: 'session_id is required.',
  sessionIdInvalid: 'session_id must be the id of a Stripe Checkout Session (cs_…).',
  alreadySubscribed: (plan: Plan) => `This company already has a ${PLAN_LABELS[plan].toLowerCase()} subscription: it renews on its own, and a second one would be charged twice.`,
  sessionNotFound: 'Stripe knows no checkout session with this id.',
  checkoutNotComplete: 'This checkout has not been paid (yet): nothing was recorded. Choose a plan again to pay.',
  checkoutNotSubscription: 'This checkout session is not a subscription of this app.',
  /** Stripe failing (no answer, an error, a refused key): what went wrong, in a few words. */
  stripeFailed: (why: string) => `Stripe could not be reached or refused the call (${why}). Nothing was charged by this call; please try again later.`,
  notQueued: 'Billing calls are made online, with Stripe: they cannot be queued as a tablet’s change.',
  checkoutStarted: 'Continue on Stripe’s payment page.',
  subscribed: (plan: Plan) => `The ${PLAN_LABELS[plan].toLowerCase()} plan is paid and active.`,
  // The webhook (Stripe's calls, not a user's).
  signatureMissing: 'The Stripe-Signature header is missing: the event was not accepted.',
  signatureInvalid: 'The Stripe-Signature header does not match the event: the event was not accepted.',
  eventUnreadable: 'The event could not be read: it was not accepted.',
} as const;

/** What the payment screens say where the server gives no message of its own. */
export const paymentClientMessages = {
  adminsOnly: 'Only the company’s Admins manage billing. Ask an Admin if the subscription needs a change.',
  needsConnection: 'Billing needs a connection: the subscription is kept by the server and paid on Stripe’s page. It shows here once the connection returns.',
  readFailed: 'The subscription could not be read. Please try again.',
  checkoutFailed: 'The payment page could not be opened. Please try again.',
  confirmFailed: 'The payment could not be confirmed. Please try again.',
  noSession: 'This page confirms a payment made on Stripe’s page, but its address names none. Open Payments to see the subscription.',
} as const;
