/**
 * /Payments and /YearPayment (issue 18): the company's subscription for its Admins, and, while it has
 * none that goes on, the plans to pay for on Stripe's page (/YearPayment offers the yearly plan alone).
 * A grower is told that Admins manage billing; an installation without Stripe says billing is not set
 * up and offers nothing to pay; offline, the screen says billing needs a connection.
 *
 * Where the spec is silent: the prices are Stripe's (the operator's prices), shown on Stripe's page
 * before anything is paid; changing or cancelling a plan that goes on is not offered here.
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paymentClientMessages as cm, paymentMessages as m, type Plan } from '../../../common/messages/payments';
import { type SignedInUser, useAction } from '../../app/hooks';
import { leaveOnPurpose } from '../../app/leaving';
import { translateMessage } from '../../i18n/messages';
import { SignedIn } from '../session/SignedIn';
import { FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { startCheckout, useBilling } from './hooks';
import { SubscriptionCard } from './SubscriptionCard';
import { paymentsTexts } from './texts';
import './payments.css';

/** The screen names itself in the reader's language: "Yearly payment" for the yearly plan alone, else "Payments". */
export function PaymentsScreen({ plans }: { plans: readonly Plan[] }) {
  const { t } = useTranslation(paymentsTexts);
  const title = plans.length === 1 && plans[0] === 'yearly' ? t('title.yearly') : t('title.payments');
  return (
    <main className="page payments-page">
      <SignedIn title={title}>{(user) => (user.isAdmin ? <BillingView user={user} title={title} plans={plans} /> : <AdminsOnly title={title} />)}</SignedIn>
    </main>
  );
}

/** What a grower sees: who manages billing, and the way back. */
export function AdminsOnly({ title }: { title: string }) {
  return (
    <Screen title={title}>
      <div className="payments">
        <p className="banner">{translateMessage(cm.adminsOnly)}</p>
        <BackLinks />
      </div>
    </Screen>
  );
}

export function BackLinks({ payments = false }: { payments?: boolean }) {
  const { t } = useTranslation(paymentsTexts);
  return (
    <p className="payments-links">
      <Link to="/dashboard" className="button">
        {t('backToDashboard')}
      </Link>
      {payments && (
        <Link to="/Payments" className="button">
          {t('payments')}
        </Link>
      )}
    </p>
  );
}

function BillingView({ user, title, plans }: { user: SignedInUser; title: string; plans: readonly Plan[] }) {
  const { t } = useTranslation(paymentsTexts);
  const billing = useBilling(user.companyId);
  const data = billing.data;
  return (
    <Screen title={title} loading={billing.loading && !data} error={billing.error} offline={translateMessage(cm.needsConnection)}>
      <div className="payments">
        {billing.error && (
          <p>
            <button type="button" className="button" onClick={billing.reload}>
              {t('tryAgain')}
            </button>
          </p>
        )}
        {data?.subscription && <SubscriptionCard subscription={data.subscription} />}
        {data && !data.configured && (
          <p className="banner" role="status">
            {translateMessage(m.notConfigured)}
          </p>
        )}
        {data?.configured && !data.subscription?.current && <PlanChoices companyId={user.companyId} plans={plans} />}
        {data?.configured && data.subscription?.current && <p className="muted">{t('renewsOnItsOwn')}</p>}
        <BackLinks />
      </div>
    </Screen>
  );
}

function PlanChoices({ companyId, plans }: { companyId: number; plans: readonly Plan[] }) {
  const { t } = useTranslation(paymentsTexts);
  const [chosen, setChosen] = useState<Plan | null>(null);
  // Set once the tablet is on its way to Stripe's page: the buttons stay busy until it has left.
  const [leaving, setLeaving] = useState(false);
  const checkout = useAction(
    async (context, plan: Plan) => {
      const started = await startCheckout(context, { companyId, plan });
      setLeaving(true);
      leaveOnPurpose(started.url);
    },
    undefined,
    { inlineErrors: true },
  );
  useEffect(() => {
    // Back from Stripe's page through the browser's history (the page kept as it was): choosing again is possible.
    const shown = (event: PageTransitionEvent) => event.persisted && setLeaving(false);
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, []);
  const busy = checkout.busy || leaving;
  const choose = (plan: Plan) => {
    setChosen(plan);
    void checkout.run(plan);
  };
  return (
    <section className="payment-plans" aria-labelledby="payment-plans-heading">
      <h2 id="payment-plans-heading">{plans.length === 1 ? t(`plan.${plans[0]!}.heading`) : t('plans.choose')}</h2>
      <p className="muted">{t('plans.stripePage')}</p>
      <div className="plan-cards">
        {plans.map((plan) => (
          <div key={plan} className="card plan-card">
            <h3>{t(`plan.${plan}.name`)}</h3>
            <p>{t(`plan.${plan}.description`)}</p>
            <button type="button" className="button primary" disabled={busy} onClick={() => choose(plan)}>
              {busy && chosen === plan ? t('plans.opening') : t(`plan.${plan}.pay`)}
            </button>
          </div>
        ))}
      </div>
      <FormError error={checkout.error} banner />
      {plans.length === 1 && (
        <p>
          <Link to="/Payments">{t('plans.seeBoth')}</Link>
        </p>
      )}
    </section>
  );
}
