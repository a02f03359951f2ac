/**
 * The payment screens' server reads. The subscription lives on the server (Stripe's word), so these
 * read online only (src/api/payments.ts says why): offline they hold nothing and the screens say that
 * billing needs a connection; they read again once it returns.
 */
import { deferred } from '../../app/deferred';
import { type ServerRead, useServerRead } from '../../app/hooks';
import type { Billing, BillingSubscription } from '../../api/payments';

// Loaded on the first call: the request schemas (zod) stay out of the screens' first paint (app/deferred.ts).
const getBilling = deferred(() => import('../../api/payments'), 'getBilling');
const confirmCheckout = deferred(() => import('../../api/payments'), 'confirmCheckout');
export const startCheckout = deferred(() => import('../../api/payments'), 'startCheckout');

/** The company's billing (GET /billing). */
export function useBilling(companyId: number): ServerRead<Billing> {
  return useServerRead((context) => getBilling(context, { companyId }), `billing-${companyId}`);
}

/**
 * The return from Stripe's page confirmed with Stripe (POST /billing/confirm): the plan as recorded.
 * Confirming again (a reload, the connection returning) changes nothing on the server.
 */
export function useConfirmedCheckout(companyId: number, sessionId: string): ServerRead<BillingSubscription> {
  return useServerRead((context) => confirmCheckout(context, { companyId, sessionId }), `confirm-${companyId}-${sessionId}`);
}
