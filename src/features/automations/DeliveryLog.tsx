/**
 * One rule's delivery log (get_notification_deliveries), newest first: each message sent, failed with
 * its reason, or waiting for its next try. Read on demand (the rule's "Delivery log" button), and again
 * every few seconds while a message still waits, so a test just sent shows as sent without a tap.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Delivery } from '../../api/automations';
import type { ServerRead } from '../../app/hooks';
import { translateMessage } from '../../i18n/messages';
import { deliveryStatusLabel, deliveryText } from './model';
import { when } from '../rooms/model';
import { automationsTexts } from './texts';

/** How often an open log with a waiting message is read again (ours: deliveries usually take a second or two). */
const WAITING_REREAD_MS = 3_000;

export function DeliveryLog({ log, ruleName, highlight }: { log: ServerRead<Delivery[]>; ruleName: string; highlight: number | null }) {
  const { t } = useTranslation(automationsTexts);
  const waiting = log.data?.some((delivery) => delivery.status === 'queued') ?? false;
  const { reload, loading } = log;
  useEffect(() => {
    if (!waiting || loading) return undefined;
    const timer = setTimeout(reload, WAITING_REREAD_MS);
    return () => clearTimeout(timer);
  }, [waiting, loading, reload]);

  return (
    <section className="delivery-log" aria-label={t('log.label', { rule: ruleName })}>
      <div className="delivery-log-head">
        <h4>{t('log.heading')}</h4>
        <button type="button" className="button" disabled={log.loading} onClick={log.reload}>
          {log.loading ? t('log.reading') : t('log.refresh')}
        </button>
      </div>
      {log.error && (
        <p className="error-text" role="alert">
          {translateMessage(log.error)}
        </p>
      )}
      {log.data?.length === 0 && <p className="muted">{t('log.nothing')}</p>}
      {log.data && log.data.length > 0 && (
        <ul className="delivery-list">
          {log.data.map((delivery) => (
            <li key={delivery.id} className={`delivery ${delivery.status}${delivery.id === highlight ? ' latest-test' : ''}`}>
              <span className={`chip delivery-status ${delivery.status}`}>{deliveryStatusLabel(delivery.status)}</span>
              <span className="delivery-subject">{delivery.subject}</span>
              <span className="muted delivery-meta">
                {delivery.attachment_name
                  ? t('log.metaWithAttachment', { recipient: delivery.recipient, time: when(delivery.created_at), attachment: delivery.attachment_name })
                  : t('log.meta', { recipient: delivery.recipient, time: when(delivery.created_at) })}
              </span>
              <span className="delivery-state">{deliveryText(delivery)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
