/**
 * The payment screens' pure model: what a subscription says in words. No React, no network.
 * Called at render, so the words are the reader's language (src/i18n).
 */
import { type Plan, subscriptionStatusText as statusInEnglish } from '../../../common/messages/payments';
import type { BillingSubscription } from '../../api/payments';
import { formatDate } from '../../i18n/format';
import { i18next } from '../../i18n/i18n';
import { translateMessage } from '../../i18n/messages';
import { paymentsTexts } from './texts';

/** A plan's name ("Monthly"), in the reader's language. */
export const planName = (plan: Plan) => i18next.t(`plan.${plan}.name`, { ns: paymentsTexts });

/** Stripe's status of a subscription as an Admin reads it (the spec's words, common/messages/payments.ts), translated. */
export const subscriptionStatusText = (status: string) => translateMessage(statusInEnglish(status));

/** "Renews on" while the subscription goes on; "Paid until" once it has stopped. */
export const renewalLabel = (subscription: Pick<BillingSubscription, 'current'>) =>
  i18next.t(subscription.current ? 'subscription.renewsOn' : 'subscription.paidUntil', { ns: paymentsTexts });

/** "25 November 2027": a renewal date on the reader's calendar. */
export function dateText(iso: string): string {
  return formatDate(iso, { dateStyle: 'long' }) || iso;
}
