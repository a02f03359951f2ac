/**
 * The audit screen's reads. The trail itself is the local `audit_events` collection (read by the
 * screen with useLocalQuery); what is older than the tablet's window is the server's, read here, in
 * the one query hook of this domain (STYLE.md: "Server-only reads go through one query hook per
 * domain, with the offline fallback inside it"), and the names the trail shows (rooms, batches,
 * grids, users, boxes) come from the local store.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuditEventRecord } from '../../../common/schemas/audit';
import { getAuditEvents } from '../../api/audit';
import { unanswered } from '../../api/context';
import { useApiContext, useLocalDocument, useLocalQuery } from '../../app/hooks';
import { messageOf } from '../../i18n/messages';
import type { LocalDocument } from '../../db/schemas';
import { useSyncStatus } from '../../sync/sync-store';
import { userName } from '../company/useCompany';
import type { CompanyDocument } from '../company/useCompany';
import type { BoxDoc, GridDoc, RoomDoc } from '../rooms/model';
import { byName } from '../rooms/model';
import type { LocalBatch } from '../batches/model';
import { type Names, recordIndex, type ScanState, scanPage, SERVER_PAGE_SIZE, type TrailFilter } from './model';
import { auditTexts } from './texts';

export interface OlderQuery {
  companyId: number;
  filter: TrailFilter;
  /** The filter's room and batch as the server names them; null when the server does not know it yet (so it has no older events). */
  roomServerId?: number | null;
  batchServerId?: number | null;
  /** The first day the tablet holds every event of (model.ts firstLocalDay). */
  firstDay: string;
  /** How many older events the screen wants now; 0 asks the server nothing. */
  wanted: number;
  /** Where to start reading the server's list (model.ts scanStart), taken when the filter changes. */
  start: number;
  /** What the tablet itself holds of those older events: shown when the server cannot answer. */
  fallback: readonly AuditEventRecord[];
}

export interface OlderEvents {
  /** The older events that pass the filter, newest first: the server's, or the tablet's own while it cannot answer. */
  events: readonly AuditEventRecord[];
  source: 'server' | 'tablet';
  loading: boolean;
  /** True when more are wanted but there is no connection to read them. */
  needsConnection: boolean;
  /** The server's refusal, if any (a network failure is `needsConnection` instead). */
  error: string | null;
  /** True once the server has no more older events for this filter. */
  complete: boolean;
  retry(): void;
  /** Reflects an Admin's correction (changes) or deletion (null) of an event read from the server, until it is read again. */
  adjust(eventId: number, changes: Partial<AuditEventRecord> | null): void;
}

interface Progress extends ScanState {
  key: string;
  events: AuditEventRecord[];
  loading: boolean;
  /** A failed read, for the attempt (connection state and retries) it failed in. */
  failure: { message: string | null; attempt: string } | null;
}

const fresh = (key: string, start: number): Progress => ({ key, events: [], offset: start, checked: false, complete: false, loading: false, failure: null });

/**
 * The trail's events older than the tablet's window, read page by page from the server
 * (GET /get_audit_events with the room and batch; user and days filtered here) as the screen asks
 * for more. Offline, or while the server gives no answer, it says a connection is needed and gives the
 * tablet's own older events; it reads again when the connection returns.
 */
export function useOlderAuditEvents(query: OlderQuery): OlderEvents {
  const context = useApiContext();
  const online = useSyncStatus((status) => status.online);
  const { companyId, filter, roomServerId, batchServerId, firstDay, wanted, start } = query;
  const key = JSON.stringify([companyId, filter.room, filter.batch, filter.user, filter.from, filter.to, roomServerId, batchServerId, firstDay]);
  const [stored, setStored] = useState<Progress>(() => fresh(key, start));
  const [retries, setRetries] = useState(0);
  const progress = stored.key === key ? stored : fresh(key, start);
  // A room or batch the server does not know yet has no older events there.
  const unknownPlace = roomServerId === null || batchServerId === null;
  const attempt = `${retries}:${online}`;
  const failedNow = progress.failure !== null && progress.failure.attempt === attempt;
  const hungry = wanted > progress.events.length && !progress.complete && !unknownPlace && !failedNow;

  useEffect(() => {
    if (!context || !hungry || progress.loading || !online) return;
    const requested = { ...progress, loading: true, failure: null };
    setStored(requested);
    // No cancelling: an answer for a filter no longer shown is dropped by its key, and a page asked is never asked twice.
    getAuditEvents(context, { companyId, roomId: roomServerId ?? undefined, batchId: batchServerId ?? undefined, limit: SERVER_PAGE_SIZE, offset: progress.offset }).then(
      (page) =>
        setStored((current) => {
          if (current.key !== requested.key) return current;
          const { found, next } = scanPage(page, current, filter, firstDay);
          const known = new Set(current.events.map((event) => String(event.EventID)));
          return { ...current, ...next, events: [...current.events, ...found.filter((event) => !known.has(String(event.EventID)))], loading: false };
        }),
      (error: unknown) =>
        setStored((current) =>
          current.key !== requested.key ? current : { ...current, loading: false, failure: { message: unanswered(error) ? null : messageOf(error), attempt } },
        ),
    );
    // `progress` and `filter` are described by `key` and the offset; the effect runs again after each page while more are wanted.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [context, key, hungry, progress.loading, progress.offset, online, attempt]);

  const retry = useCallback(() => setRetries((count) => count + 1), []);
  const adjust = useCallback(
    (eventId: number, changes: Partial<AuditEventRecord> | null) =>
      setStored((current) => ({
        ...current,
        events: current.events.flatMap((event) => (String(event.EventID) !== String(eventId) ? [event] : changes === null ? [] : [{ ...event, ...changes }])),
      })),
    [],
  );

  const fromServer = progress.events.length > 0 || progress.complete || unknownPlace;
  const waitingForConnection = wanted > progress.events.length && !progress.complete && !unknownPlace && (!online || (failedNow && progress.failure?.message === null));
  return {
    events: fromServer ? progress.events : query.fallback,
    source: fromServer ? 'server' : 'tablet',
    loading: progress.loading || (hungry && online && !!context),
    needsConnection: waitingForConnection,
    error: failedNow ? (progress.failure?.message ?? null) : null,
    complete: progress.complete || unknownPlace,
    retry,
    adjust,
  };
}

export interface TrailNames extends Names {
  rooms: RoomDoc[];
  batches: LocalBatch[];
  roomIndex: Map<string, RoomDoc>;
  batchIndex: Map<string, LocalBatch>;
  /** The company's users by id, named as people read them. */
  users: Map<number, string>;
  loading: boolean;
}

/** The company's rooms, batches, grids and users on this tablet, by both ids, for the trail's names and filters. */
export function useTrailNames(companyId: number): TrailNames {
  const { t } = useTranslation(auditTexts);
  const key = String(companyId);
  const rooms = useLocalQuery<RoomDoc>('rooms', { CompanyID: companyId }, key);
  const batches = useLocalQuery<LocalBatch>('batches', { CompanyID: companyId }, key);
  const grids = useLocalQuery<GridDoc>('grids', { CompanyID: companyId }, key);
  const company = useLocalDocument<CompanyDocument>('company', key);
  return useMemo(() => {
    const roomIndex = recordIndex(rooms.documents);
    const batchIndex = recordIndex(batches.documents);
    const gridIndex = recordIndex(grids.documents);
    const users = new Map((company.document?.users ?? []).map((user) => [user.user_id, userName(user)]));
    const name = <T extends LocalDocument>(index: Map<string, T>, of: (document: T) => string) => (id: unknown) => {
      const document = id === null || id === undefined ? undefined : index.get(String(id));
      return document ? of(document) : null;
    };
    return {
      rooms: [...rooms.documents].sort(byName),
      batches: [...batches.documents].sort((a, b) => String(a.BatchNumber ?? '').localeCompare(String(b.BatchNumber ?? ''), undefined, { numeric: true, sensitivity: 'base' })),
      roomIndex,
      batchIndex,
      users,
      room: name(roomIndex, (room) => room.Name || t('unnamedRoom')),
      batch: name(batchIndex, (batch) => batch.BatchNumber || t('unnamedBatch')),
      grid: name(gridIndex, (grid) => grid.Name || t('unnamedGrid')),
      loading: rooms.loading || batches.loading || company.loading,
    };
  }, [rooms, batches, grids, company, t]);
}

/**
 * The boxes the shown events name (client ids for the tablet's events, server ids for events read from
 * the server), by both ids, with their grid's name: only those, since a company may have 100,000 boxes.
 */
export function useEventBoxes(references: readonly unknown[], grids: Names['grid']): (reference: unknown) => string | null {
  const { t } = useTranslation(auditTexts);
  const texts = [...new Set(references.filter((reference) => reference !== null && reference !== undefined).map(String))].sort();
  const clientIds = texts.filter((text) => !/^\d+$/.test(text));
  const serverIds = texts.filter((text) => /^\d+$/.test(text)).map(Number);
  const boxes = useLocalQuery<BoxDoc>('grid_boxes', { $or: [{ id: { $in: clientIds } }, { serverId: { $in: serverIds } }] }, texts.join(','));
  return useMemo(() => {
    const index = recordIndex(boxes.documents);
    return (reference: unknown) => {
      const box = reference === null || reference === undefined ? undefined : index.get(String(reference));
      if (!box) return reference === null || reference === undefined ? null : t('boxNotHere');
      const place = box.CustomName?.trim() || t('boxPosition', { x: String(box.X), y: String(box.Y) });
      const grid = grids(box.gridId);
      return grid ? `${grid} · ${place}` : place;
    };
  }, [boxes, grids, t]);
}
