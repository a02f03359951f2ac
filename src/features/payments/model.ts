/**
 * The payment screens' pure model: what a subscription says in words. No React, no network.
 */
import { PLAN_LABELS, type Plan, subscriptionStatusText } from '../../../common/messages/payments';
import type { BillingSubscription } from '../../api/payments';

export { PLAN_LABELS, subscriptionStatusText };

/** What each plan is, beside its name on the choice cards (the price is Stripe's: its page shows it before anything is paid). */
export const PLAN_DESCRIPTIONS: Readonly<Record<Plan, string>> = {
  monthly: 'Paid each month, renewed on its own until it is cancelled.',
  yearly: 'Paid once a year, renewed on its own until it is cancelled.',
};

/** "Renews on" while the subscription goes on; "Paid until" once it has stopped. */
export const renewalLabel = (subscription: Pick<BillingSubscription, 'current'>) => (subscription.current ? 'Renews on' : 'Paid until');

/** "25 November 2027": a renewal date on the tablet's calendar. */
export function dateText(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'long' });
}
