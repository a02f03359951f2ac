/**
 * The automations screen's server reads. Rules and their delivery log are read online only
 * (src/api/automations.ts says why: they hold webhook secrets and are never kept on the tablet), so
 * offline these hooks hold nothing: the screen shows no stale copy, and reads again once back online.
 */
import { useCallback, useEffect, useState } from 'react';
import { type Delivery, getDeliveries, getNotifications, type Notification } from '../../api/automations';
import { useApiContext } from '../../app/hooks';
import { useSyncStatus } from '../../sync/sync-store';

export interface ServerRead<T> {
  /** null while offline, before the first answer, or after a failed read. */
  data: T | null;
  loading: boolean;
  error: string | null;
  /** Reads again (after a change, or when the Admin asks). */
  reload: () => void;
}

/** One online read: again whenever `key` changes, the connection returns or `reload` is called; nothing while offline or while `read` is null. */
function useServerRead<T>(read: ((context: NonNullable<ReturnType<typeof useApiContext>>) => Promise<T>) | null, key: string): ServerRead<T> {
  const context = useApiContext();
  const online = useSyncStatus((status) => status.online);
  const [state, setState] = useState<{ data: T | null; loading: boolean; error: string | null }>({ data: null, loading: true, error: null });
  const [round, setRound] = useState(0);
  const reload = useCallback(() => setRound((current) => current + 1), []);
  const enabled = read !== null;
  useEffect(() => {
    if (!online || !read) {
      setState({ data: null, loading: false, error: null });
      return undefined;
    }
    if (!context) return undefined;
    let current = true;
    setState((previous) => ({ ...previous, loading: true, error: null }));
    read(context).then(
      (data) => current && setState({ data, loading: false, error: null }),
      (error: unknown) => current && setState({ data: null, loading: false, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
    // `read` is described by `key`: a new closure each render must not read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [context, online, key, round, enabled]);
  return { ...state, reload };
}

/** The company's rules (get_notifications), as the signed-in Admin reads them. */
export function useAutomationRules(userId: number): ServerRead<Notification[]> {
  return useServerRead((context) => getNotifications(context, { userId }), `rules-${userId}`);
}

/** One rule's delivery log, newest first; read only once `open` (the log is loaded on demand). */
export function useDeliveryLog(notificationId: number, open: boolean): ServerRead<Delivery[]> {
  return useServerRead(open ? (context) => getDeliveries(context, { notificationId }) : null, `deliveries-${notificationId}`);
}
