/**
 * The audit trail (spec part 2 §3, §7): who did what, when, in which room and batch, newest first.
 * It is read reactively from the local `audit_events` collection (the last 90 days, pulled), so it
 * works offline and an event recorded here shows at once; events older than that are the server's and
 * are read through useOlderAuditEvents (hooks.ts) when the filters or paging reach them. Everyone
 * records events by hand; Admins also correct and delete them (the server refuses others), so those
 * buttons are shown to Admins only.
 *
 * Where the spec is silent:
 * - Filters are a room, a batch, a user and a range of days (the tablet's calendar days, both ends
 *   included); they are kept in the address, so a reload or a shared link shows the same.
 * - The trail shows 50 events at a time; "Show more" adds 50. Once the tablet's events are all shown
 *   (or the range starts before its window), the next ones are read from the server, which filters by
 *   room and batch; the user and days are filtered on the tablet.
 * - Offline, events older than the window cannot be read: the screen says so, shows what the tablet
 *   still holds of them, and reads them when the connection returns.
 * - Details are shown as labelled facts in words (names for rooms, batches and grids, counts for
 *   lists), never as JSON; ids a grower cannot use are left out.
 * - A user with no recorded name shows as "User 12"; events of no user (operator commands) as "System".
 * - Deleting asks first, in the event's card (a tablet in a grow room is easy to mis-tap).
 */
import { type ReactNode, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reachedServer } from '../../api/records';
import { useLocalQuery, type SignedInUser } from '../../app/hooks';
import { translateMessage } from '../../i18n/messages';
import type { LocalDocument } from '../../db/schemas';
import { formatDay } from '../batches/model';
import { isDay } from '../observations/model';
import { SignedIn } from '../session/SignedIn';
import { InitialPull, useInitialPull } from '../shell/InitialPull';
import { Screen } from '../shell/Screen';
import { EventCard } from './EventCard';
import { type Correction, RecordEventForm } from './EventForm';
import { type TrailNames, useEventBoxes, useOlderAuditEvents, useTrailNames } from './hooks';
import {
  type AuditEventDoc,
  byWhoAndWhen,
  firstLocalDay,
  inPlace,
  isOlderThanWindow,
  LOCAL_WINDOW_DAYS,
  localEvent,
  newestFirst,
  PAGE_SIZE,
  reachesBeyondWindow,
  scanStart,
  serverEvent,
  type TrailEvent,
  type TrailFilter,
} from './model';
import { RoomFilter } from '../shell/forms';
import { auditTexts } from './texts';
import './audit.css';

/** The filters as the address holds them (`?room=&batch=&user=&from=&to=`). */
export interface AuditTrailSearch {
  room?: string | number;
  batch?: string | number;
  user?: string | number;
  from?: string;
  to?: string;
}

export function AuditTrailScreen(props: { search: AuditTrailSearch; onSearch: (next: AuditTrailSearch) => void }) {
  const { t } = useTranslation(auditTexts);
  return <SignedIn title={t('title')}>{(user) => <AuditTrail user={user} {...props} />}</SignedIn>;
}

function AuditTrail({ user, search, onSearch }: { user: SignedInUser; search: AuditTrailSearch; onSearch: (next: AuditTrailSearch) => void }) {
  const { t } = useTranslation(auditTexts);
  const names = useTrailNames(user.companyId);
  const local = useLocalQuery<AuditEventDoc>('audit_events', { CompanyID: user.companyId }, `audit-${user.companyId}`);
  const [recording, setRecording] = useState(false);
  const pulling = useInitialPull();

  // The address may name a room or batch by its server id (an older link): the filter uses the local id.
  const roomDoc = search.room === undefined ? undefined : names.roomIndex.get(String(search.room));
  const batchDoc = search.batch === undefined ? undefined : names.batchIndex.get(String(search.batch));
  const room = search.room === undefined ? undefined : (roomDoc?.id ?? String(search.room));
  const batch = search.batch === undefined ? undefined : (batchDoc?.id ?? String(search.batch));
  const userId = search.user === undefined || !Number.isInteger(Number(search.user)) ? undefined : Number(search.user);
  const from = isDay(search.from) ? search.from : undefined;
  const to = isDay(search.to) ? search.to : undefined;
  // One object per filter, so what is worked out from it is worked out again only when it changes.
  const filter = useMemo<TrailFilter>(() => ({ room, batch, user: userId, from, to }), [room, batch, userId, from, to]);
  const reversed = !!filter.from && !!filter.to && filter.from > filter.to;
  const filterKey = JSON.stringify(filter);

  const actions = (
    <button type="button" className="button primary" onClick={() => setRecording(true)}>
      {t('recordEvent')}
    </button>
  );

  // A new tablet's first pull: the trail is on its way, not empty.
  if (pulling && local.documents.length === 0) {
    return (
      <Screen title={t('title')} loading={local.loading}>
        <InitialPull progress={pulling} />
      </Screen>
    );
  }

  return (
    <Screen title={t('title')} loading={local.loading || names.loading} actions={actions}>
      {recording && <RecordEventForm names={names} onDone={() => setRecording(false)} />}
      <Filters names={names} filter={filter} localEvents={local.documents} onSearch={(patch) => onSearch({ ...search, ...patch })} onClear={() => onSearch({})} />
      {reversed ? (
        <p className="banner error" role="alert">
          {t('reversed')}
        </p>
      ) : (
        <Trail key={filterKey} user={user} names={names} filter={filter} localEvents={local.documents} filtered={filterKey !== '{}'} />
      )}
    </Screen>
  );
}

function Filters(props: { names: TrailNames; filter: TrailFilter; localEvents: AuditEventDoc[]; onSearch: (patch: AuditTrailSearch) => void; onClear: () => void }) {
  const { t } = useTranslation(auditTexts);
  const { names, filter } = props;
  const ids = useId();
  // The company's users, and anyone else the trail names (a user since removed).
  const users = useMemo(() => {
    const all = new Map(names.users);
    for (const event of props.localEvents) if (event.UserID !== null && !all.has(event.UserID)) all.set(event.UserID, event.UserName || t('userNumber', { id: event.UserID }));
    return [...all.entries()].sort(([, a], [, b]) => a.localeCompare(b, undefined, { sensitivity: 'base' }));
  }, [names.users, props.localEvents, t]);
  const any = Object.values(filter).some((value) => value !== undefined);

  return (
    <section className="card audit-filters" aria-label={t('filters.label')}>
      {/* Labels beside (not around) their controls: a wrapped select or date would put its value into the control's name. */}
      <RoomFilter id={`${ids}-room`} rooms={names.rooms} value={filter.room ?? ''} onChange={(room) => props.onSearch({ room: room || undefined })} />
      <div>
        <label htmlFor={`${ids}-batch`}>{t('filters.batch')}</label>
        <select id={`${ids}-batch`} className="control" value={filter.batch ?? ''} onChange={(event) => props.onSearch({ batch: event.target.value || undefined })}>
          <option value="">{t('filters.allBatches')}</option>
          {names.batches.map((batch) => (
            <option key={batch.id} value={batch.id}>
              {batch.BatchNumber || t('unnamedBatch')}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${ids}-user`}>{t('filters.user')}</label>
        <select id={`${ids}-user`} className="control" value={filter.user === undefined ? '' : String(filter.user)} onChange={(event) => props.onSearch({ user: event.target.value ? Number(event.target.value) : undefined })}>
          <option value="">{t('filters.everyone')}</option>
          {users.map(([id, name]) => (
            <option key={id} value={String(id)}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${ids}-from`}>{t('filters.from')}</label>
        <input id={`${ids}-from`} className="control" type="date" value={filter.from ?? ''} max={filter.to} onChange={(event) => props.onSearch({ from: isDay(event.target.value) ? event.target.value : undefined })} />
      </div>
      <div>
        <label htmlFor={`${ids}-to`}>{t('filters.to')}</label>
        <input id={`${ids}-to`} className="control" type="date" value={filter.to ?? ''} min={filter.from} onChange={(event) => props.onSearch({ to: isDay(event.target.value) ? event.target.value : undefined })} />
      </div>
      {any && (
        <div className="audit-clear">
          <button type="button" className="button" onClick={props.onClear}>
            {t('filters.clear')}
          </button>
        </div>
      )}
    </section>
  );
}

/** The events that pass the filter, 50 at a time: the tablet's first, then older ones from the server as they are asked for. */
function Trail({ user, names, filter, localEvents, filtered }: { user: SignedInUser; names: TrailNames; filter: TrailFilter; localEvents: AuditEventDoc[]; filtered: boolean }) {
  const { t } = useTranslation(auditTexts);
  const [shown, setShown] = useState(PAGE_SIZE);
  const [askedOlder, setAskedOlder] = useState(false);
  const firstDay = firstLocalDay();
  const beyond = reachesBeyondWindow(filter, firstDay);
  // A range that starts (or ends) before the window asks for the older events itself; without one,
  // they are read once the grower has gone through the tablet's events and asks for older ones.
  const asked = beyond && (askedOlder || filter.from !== undefined || (filter.to !== undefined && filter.to < firstDay));

  const { recent, olderHere, onServerInWindow } = useMemo(() => {
    const inPlaceEvents = localEvents.filter((event) => inPlace(event, filter, names.roomIndex, names.batchIndex));
    const matching = inPlaceEvents.filter((event) => byWhoAndWhen(event, filter));
    return {
      // Events older than the window are the server's when it can be asked; the tablet may still hold some.
      recent: matching.filter((event) => !beyond || !isOlderThanWindow(event, firstDay) || !reachedServer(event)),
      olderHere: matching.filter((event) => beyond && isOlderThanWindow(event, firstDay) && reachedServer(event)),
      onServerInWindow: inPlaceEvents.filter((event) => reachedServer(event) && !isOlderThanWindow(event, firstDay)).length,
    };
  }, [localEvents, filter, names.roomIndex, names.batchIndex, beyond, firstDay]);

  // The server names the filter's room and batch by their server ids; one it does not know yet (made offline) has no older events.
  const serverIdOf = (document: LocalDocument | undefined) => (typeof document?.serverId === 'number' ? document.serverId : null);
  const older = useOlderAuditEvents({
    companyId: user.companyId,
    filter,
    roomServerId: filter.room === undefined ? undefined : (serverIdOf(names.roomIndex.get(filter.room)) ?? null),
    batchServerId: filter.batch === undefined ? undefined : (serverIdOf(names.batchIndex.get(filter.batch)) ?? null),
    firstDay,
    wanted: asked ? Math.max(0, shown - recent.length) : 0,
    start: scanStart(onServerInWindow),
    fallback: olderHere,
  });

  const events = useMemo(() => {
    // An event read from the server that the tablet also holds is shown from the tablet's copy (it knows what is pending here).
    const byServerId = new Map(localEvents.filter((event) => typeof event.serverId === 'number').map((event) => [String(event.serverId), event]));
    const seen = new Set<string>();
    const all: TrailEvent[] = [];
    for (const event of recent) {
      seen.add(event.id);
      all.push(localEvent(event));
    }
    for (const event of beyond ? older.events : []) {
      const here = byServerId.get(String(event.EventID)) ?? ('id' in event && typeof event.id === 'string' ? (event as AuditEventDoc) : undefined);
      if (here && seen.has(here.id)) continue;
      if (here) seen.add(here.id);
      all.push(here ? localEvent(here) : serverEvent(event));
    }
    return all.sort(newestFirst);
  }, [recent, older.events, beyond, localEvents]);

  const visible = events.slice(0, shown);
  const boxOf = useEventBoxes(
    visible.map((item) => item.event.GridBoxID),
    names.grid,
  );
  const moreHere = events.length > shown;
  const moreOnServer = beyond && !older.complete;
  const more = moreHere
    ? { label: t('more.showMore'), busy: false, run: () => setShown((count) => count + PAGE_SIZE) }
    : !moreOnServer || older.needsConnection || older.error !== null
      ? null
      : !asked
        ? { label: t('more.showOlder'), busy: false, run: () => setAskedOlder(true) }
        : { label: t('more.showMore'), busy: older.loading, run: () => setShown((count) => count + PAGE_SIZE) };

  function changed(item: TrailEvent, changes: Correction | null) {
    if (item.document || typeof item.event.EventID !== 'number') return;
    older.adjust(item.event.EventID, changes === null ? null : { ...changes });
  }

  const windowNote: ReactNode = (
    <div className={`audit-window${older.needsConnection || older.error ? ' attention' : ''}`} role="status">
      <p>
        {t('window.keeps', { days: LOCAL_WINDOW_DAYS, since: formatDay(firstDay) })}
        {older.source === 'server' && older.events.length > 0 && ` ${t('window.readFromServer', { count: older.events.length })}`}
      </p>
      {older.loading && <p>{t('window.loading')}</p>}
      {older.needsConnection && <p>{t(older.events.length > 0 ? 'window.needsConnectionHeld' : 'window.needsConnection', { since: formatDay(firstDay) })}</p>}
      {older.error && (
        <>
          <p className="error-text" role="alert">
            {t('window.failed', { error: translateMessage(older.error) })}
          </p>
          <button type="button" className="button" onClick={older.retry}>
            {t('window.tryAgain')}
          </button>
        </>
      )}
    </div>
  );

  const moreButton = more && (
    <div className="audit-more">
      <button type="button" className="button" disabled={more.busy} onClick={more.run}>
        {more.busy ? t('more.loadingOlder') : more.label}
      </button>
    </div>
  );

  if (events.length === 0) {
    const here = moreOnServer && !older.complete;
    const none = filtered ? (here ? t('empty.noMatchHere') : t('empty.noMatch')) : here ? t('empty.noneHere') : t('empty.none');
    return (
      <>
        {windowNote}
        {!older.loading && (
          <p className="empty">
            {none}
            {!filtered && ` ${t('empty.hint')}`}
          </p>
        )}
        {moreButton}
      </>
    );
  }

  return (
    <>
      {windowNote}
      <p className="audit-count" data-shown={visible.length}>
        {t('count.showing', { shown: visible.length, count: events.length })}
        {moreOnServer && !moreHere ? ` ${t('count.maybeOlder')}` : ''}
      </p>
      <ol className="audit-list" aria-label={t('listLabel')}>
        {visible.map((item) => (
          <EventCard key={item.key} item={item} names={names} box={boxOf(item.event.GridBoxID)} isAdmin={user.isAdmin} onChanged={changed} />
        ))}
      </ol>
      {moreButton}
    </>
  );
}
