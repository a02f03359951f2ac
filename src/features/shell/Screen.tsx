/**
 * A screen's frame: its title and actions, and the states every screen shows (loading, empty, offline,
 * error) so a grower always knows what is happening.
 */
import type { ReactNode } from 'react';
import { useSyncStatus } from '../../sync/sync-store';
import { Loading } from './Loading';
import { useTranslation } from 'react-i18next';
import { shellTexts } from './texts';
import { translateMessage } from '../../i18n/messages';

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
  const { t } = useTranslation(shellTexts);
  const online = useSyncStatus((status) => status.online);
  return (
    <section className="screen">
      <div className="screen-head">
        <h1>{props.title}</h1>
        {props.actions && <div className="screen-actions">{props.actions}</div>}
      </div>
      {!online && (
        <p className="banner offline" role="status">
          {props.offline ?? t('screen.offline')}
        </p>
      )}
      {props.error && (
        <p className="banner error" role="alert">
          {translateMessage(props.error)}
        </p>
      )}
      {props.loading ? <Loading /> : props.empty ? <p className="empty">{props.empty}</p> : props.children}
    </section>
  );
}
