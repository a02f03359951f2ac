/** The company's subscription as Stripe last said it: its plan, its status and its renewal date. */
import { useId } from 'react';
import type { BillingSubscription } from '../../api/payments';
import { dateText, PLAN_LABELS, renewalLabel, subscriptionStatusText } from './model';

export function SubscriptionCard({ subscription }: { subscription: BillingSubscription }) {
  const heading = useId();
  return (
    <section className="card subscription-card" aria-labelledby={heading}>
      <h2 id={heading}>Your subscription</h2>
      <dl className="subscription-facts">
        <div>
          <dt>Plan</dt>
          <dd className="subscription-plan">{PLAN_LABELS[subscription.plan]}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd className="subscription-status">{subscriptionStatusText(subscription.status)}</dd>
        </div>
        <div>
          <dt>{renewalLabel(subscription)}</dt>
          <dd className="subscription-renewal">{subscription.renews_at ? <time dateTime={subscription.renews_at}>{dateText(subscription.renews_at)}</time> : 'Not known yet'}</dd>
        </div>
      </dl>
    </section>
  );
}
