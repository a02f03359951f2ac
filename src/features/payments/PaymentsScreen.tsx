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
import { paymentClientMessages as cm, paymentMessages as m, type Plan } from '../../../common/messages/payments';
import { type SignedInUser, useAction } from '../../app/hooks';
import { SignedIn } from '../session/SignedIn';
import { FormError } from '../shell/forms';
import { Screen } from '../shell/Screen';
import { startCheckout, useBilling } from './hooks';
import { PLAN_DESCRIPTIONS, PLAN_LABELS } from './model';
import { SubscriptionCard } from './SubscriptionCard';
import './payments.css';

export function PaymentsScreen({ title, plans }: { title: string; plans: readonly Plan[] }) {
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
        <p className="banner">{cm.adminsOnly}</p>
        <BackLinks />
      </div>
    </Screen>
  );
}

export function BackLinks({ payments = false }: { payments?: boolean }) {
  return (
    <p className="payments-links">
      <Link to="/dashboard" className="button">
        Back to the dashboard
      </Link>
      {payments && (
        <Link to="/Payments" className="button">
          Payments
        </Link>
      )}
    </p>
  );
}

function BillingView({ user, title, plans }: { user: SignedInUser; title: string; plans: readonly Plan[] }) {
  const billing = useBilling(user.companyId);
  const data = billing.data;
  return (
    <Screen title={title} loading={billing.loading && !data} error={billing.error} offline={cm.needsConnection}>
      <div className="payments">
        {billing.error && (
          <p>
            <button type="button" className="button" onClick={billing.reload}>
              Try again
            </button>
          </p>
        )}
        {data?.subscription && <SubscriptionCard subscription={data.subscription} />}
        {data && !data.configured && (
          <p className="banner" role="status">
            {m.notConfigured}
          </p>
        )}
        {data?.configured && !data.subscription?.current && <PlanChoices companyId={user.companyId} plans={plans} />}
        {data?.configured && data.subscription?.current && <p className="muted">The plan renews on its own. Stripe mails each invoice to the address it was paid with.</p>}
        <BackLinks />
      </div>
    </Screen>
  );
}

function PlanChoices({ companyId, plans }: { companyId: number; plans: readonly Plan[] }) {
  const [chosen, setChosen] = useState<Plan | null>(null);
  // Set once the tablet is on its way to Stripe's page: the buttons stay busy until it has left.
  const [leaving, setLeaving] = useState(false);
  const checkout = useAction(
    async (context, plan: Plan) => {
      const started = await startCheckout(context, { companyId, plan });
      setLeaving(true);
      window.location.assign(started.url);
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
      <h2 id="payment-plans-heading">{plans.length === 1 ? `The ${PLAN_LABELS[plans[0]!].toLowerCase()} plan` : 'Choose a plan'}</h2>
      <p className="muted">You pay on Stripe’s secure payment page, which shows the price before anything is paid, then come back here.</p>
      <div className="plan-cards">
        {plans.map((plan) => (
          <div key={plan} className="card plan-card">
            <h3>{PLAN_LABELS[plan]}</h3>
            <p>{PLAN_DESCRIPTIONS[plan]}</p>
            <button type="button" className="button primary" disabled={busy} onClick={() => choose(plan)}>
              {busy && chosen === plan ? 'Opening the payment page…' : `Pay ${PLAN_LABELS[plan].toLowerCase()}`}
            </button>
          </div>
        ))}
      </div>
      <FormError error={checkout.error} banner />
      {plans.length === 1 && (
        <p>
          <Link to="/Payments">See both plans</Link>
        </p>
      )}
    </section>
  );
}
