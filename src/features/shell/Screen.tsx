/**
 * A screen's frame: its title and actions, and the states every screen shows (loading, empty, offline,
 * error) so a grower always knows what is happening.
 */
import type { ReactNode } from 'react';
import { useSyncStatus } from '../../sync/sync-store';
import { Loading } from './Loading';

export function Screen(props: {
  title: string;
  actions?: ReactNode;
  loading?: boolean;
  error?: string | null;
  /** Shown instead of the children when there is nothing yet (e.g. "No rooms yet. Create the first one."). */
  empty?: string | null;
  /** The offline banner's text, for a screen that works online only (the default speaks of the tablet's copy). */
  offline?: string;
  children?: ReactNode;
}) {
  const online = useSyncStatus((status) => status.online);
  return (
    <section className="screen">
      <div className="screen-head">
        <h1>{props.title}</h1>
        {props.actions && <div className="screen-actions">{props.actions}</div>}
      </div>
      {!online && (
        <p className="banner offline" role="status">
          {props.offline ?? 'Offline: you see this tablet’s copy, and changes are kept until the connection returns.'}
        </p>
      )}
      {props.error && (
        <p className="banner error" role="alert">
          {props.error}
        </p>
      )}
      {props.loading ? <Loading /> : props.empty ? <p className="empty">{props.empty}</p> : props.children}
    </section>
  );
}
