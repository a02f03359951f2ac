/**
 * The automations screen's server reads. Rules and their delivery log are read online only
 * (src/api/automations.ts says why: they hold webhook secrets and are never kept on the tablet), so
 * offline these hooks hold nothing: the screen shows no stale copy, and reads again once back online.
 */
import { type Delivery, getDeliveries, getNotifications, type Notification } from '../../api/automations';
import { type ServerRead, useServerRead } from '../../app/hooks';

/** The company's rules (get_notifications), as the signed-in Admin reads them. */
export function useAutomationRules(userId: number): ServerRead<Notification[]> {
  return useServerRead((context) => getNotifications(context, { userId }), `rules-${userId}`);
}

/** One rule's delivery log, newest first; read only once `open` (the log is loaded on demand). */
export function useDeliveryLog(notificationId: number, open: boolean): ServerRead<Delivery[]> {
  return useServerRead(open ? (context) => getDeliveries(context, { notificationId }) : null, `deliveries-${notificationId}`);
}
