/**
 * /PostPayment (issue 18): where Stripe's payment page returns (`?session_id=…`). The payment is
 * confirmed with Stripe through the server (it may be here before Stripe's own event), and the plan
 * and its renewal date are shown. Offline it waits for the connection; a grower is told that Admins
 * manage billing.
 */
import { paymentClientMessages as cm, paymentMessages as m } from '../../../common/messages/payments';
import type { SignedInUser } from '../../app/hooks';
import { SignedIn } from '../session/SignedIn';
import { Screen } from '../shell/Screen';
import { useConfirmedCheckout } from './hooks';
import { AdminsOnly, BackLinks } from './PaymentsScreen';
import { SubscriptionCard } from './SubscriptionCard';
import './payments.css';

const TITLE = 'Payment';

export function PostPaymentScreen({ sessionId }: { sessionId: string | undefined }) {
  return (
    <main className="page payments-page">
      <SignedIn title={TITLE}>
        {(user) =>
          !user.isAdmin ? (
            <AdminsOnly title={TITLE} />
          ) : sessionId ? (
            <Confirmation user={user} sessionId={sessionId} />
          ) : (
            <Screen title={TITLE}>
              <div className="payments">
                <p className="banner">{cm.noSession}</p>
                <BackLinks payments />
              </div>
            </Screen>
          )
        }
      </SignedIn>
    </main>
  );
}

function Confirmation({ user, sessionId }: { user: SignedInUser; sessionId: string }) {
  const confirmed = useConfirmedCheckout(user.companyId, sessionId);
  const subscription = confirmed.data;
  return (
    <Screen title={TITLE} error={confirmed.error} offline={cm.needsConnection}>
      <div className="payments">
        {confirmed.loading && (
          <p role="status" aria-live="polite">
            Confirming the payment with Stripe…
          </p>
        )}
        {subscription && (
          <>
            <p className="banner done" role="status">
              {m.subscribed(subscription.plan)}
            </p>
            <SubscriptionCard subscription={subscription} />
          </>
        )}
        {confirmed.error && (
          <p>
            <button type="button" className="button" onClick={confirmed.reload}>
              Try again
            </button>
          </p>
        )}
        <BackLinks payments />
      </div>
    </Screen>
  );
}
