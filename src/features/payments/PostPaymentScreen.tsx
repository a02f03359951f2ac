/**
 * /PostPayment (issue 18): where Stripe's payment page returns (`?session_id=…`). The payment is
 * confirmed with Stripe through the server (it may be here before Stripe's own event), and the plan
 * and its renewal date are shown. Offline it waits for the connection; a grower is told that Admins
 * manage billing.
 */
import { useTranslation } from 'react-i18next';
import { paymentClientMessages as cm } from '../../../common/messages/payments';
import type { SignedInUser } from '../../app/hooks';
import { translateMessage } from '../../i18n/messages';
import { SignedIn } from '../session/SignedIn';
import { Screen } from '../shell/Screen';
import { useConfirmedCheckout } from './hooks';
import { AdminsOnly, BackLinks } from './PaymentsScreen';
import { SubscriptionCard } from './SubscriptionCard';
import { paymentsTexts } from './texts';
import './payments.css';

export function PostPaymentScreen({ sessionId }: { sessionId: string | undefined }) {
  const { t } = useTranslation(paymentsTexts);
  const title = t('title.payment');
  return (
    <main className="page payments-page">
      <SignedIn title={title}>
        {(user) =>
          !user.isAdmin ? (
            <AdminsOnly title={title} />
          ) : sessionId ? (
            <Confirmation user={user} sessionId={sessionId} />
          ) : (
            <Screen title={title}>
              <div className="payments">
                <p className="banner">{translateMessage(cm.noSession)}</p>
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
  const { t } = useTranslation(paymentsTexts);
  const confirmed = useConfirmedCheckout(user.companyId, sessionId);
  const subscription = confirmed.data;
  return (
    <Screen title={t('title.payment')} error={confirmed.error} offline={translateMessage(cm.needsConnection)}>
      <div className="payments">
        {confirmed.loading && (
          <p role="status" aria-live="polite">
            {t('confirming')}
          </p>
        )}
        {subscription && (
          <>
            <p className="banner done" role="status">
              {t(`plan.${subscription.plan}.paid`)}
            </p>
            <SubscriptionCard subscription={subscription} />
          </>
        )}
        {confirmed.error && (
          <p>
            <button type="button" className="button" onClick={confirmed.reload}>
              {t('tryAgain')}
            </button>
          </p>
        )}
        <BackLinks payments />
      </div>
    </Screen>
  );
}
