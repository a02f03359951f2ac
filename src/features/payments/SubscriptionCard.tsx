/** The company's subscription as Stripe last said it: its plan, its status and its renewal date. */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { BillingSubscription } from '../../api/payments';
import { dateText, planName, renewalLabel, subscriptionStatusText } from './model';
import { paymentsTexts } from './texts';

export function SubscriptionCard({ subscription }: { subscription: BillingSubscription }) {
  const { t } = useTranslation(paymentsTexts);
  const heading = useId();
  return (
    <section className="card subscription-card" aria-labelledby={heading}>
      <h2 id={heading}>{t('subscription.heading')}</h2>
      <dl className="subscription-facts">
        <div>
          <dt>{t('subscription.plan')}</dt>
          <dd className="subscription-plan">{planName(subscription.plan)}</dd>
        </div>
        <div>
          <dt>{t('subscription.status')}</dt>
          <dd className="subscription-status">{subscriptionStatusText(subscription.status)}</dd>
        </div>
        <div>
          <dt>{renewalLabel(subscription)}</dt>
          <dd className="subscription-renewal">{subscription.renews_at ? <time dateTime={subscription.renews_at}>{dateText(subscription.renews_at)}</time> : t('subscription.notKnown')}</dd>
        </div>
      </dl>
    </section>
  );
}
