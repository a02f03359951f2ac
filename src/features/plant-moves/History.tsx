/**
 * The company's movement history (get_company_movement_history) with the spec's filters: batch, room,
 * start and end day, sort column and order, 50 a page. Read through `useMovementHistory`, which
 * answers from the tablet's copy when the server cannot; this section says which it shows.
 */
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MOVEMENT_SORT_COLUMNS } from '../../../common/messages/subgrids';
import { useLocalQuery, type SignedInUser } from '../../app/hooks';
import { type BatchDoc, type CompanyDoc, type RoomDoc, userName, when } from '../rooms/model';
import { ChoiceOptions, FormError, RoomFilter } from '../shell/forms';
import { type HistoryFilters, useMovementHistory } from './hooks';
import { type HistoryRow, PAGE_SIZE, type SortColumn, type SortOrder } from './model';
import { positionName, useBoxNames } from './places';
import { plantMovesTexts } from './texts';

const FIRST_PAGE: HistoryFilters = { roomId: null, batchId: null, startDate: '', endDate: '', sortBy: 'moved_at', sortOrder: 'desc', offset: 0 };

const batchOrder = (a: BatchDoc, b: BatchDoc) => String(a.BatchNumber ?? '').localeCompare(String(b.BatchNumber ?? ''), undefined, { numeric: true, sensitivity: 'base' });

export function History({ user, rooms, company }: { user: SignedInUser; rooms: RoomDoc[]; company: CompanyDoc | null }) {
  const { t } = useTranslation(plantMovesTexts);
  const ids = useId();
  const sortLabels: Record<SortColumn, string> = {
    moved_at: t('history.sort.moved_at'),
    plant_uid: t('history.sort.plant_uid'),
    movement_reason: t('history.sort.movement_reason'),
    from_parent_gridbox_id: t('history.sort.from_parent_gridbox_id'),
    to_parent_gridbox_id: t('history.sort.to_parent_gridbox_id'),
  };
  const [filters, setFilters] = useState<HistoryFilters>(FIRST_PAGE);
  const history = useMovementHistory(user.companyId, filters);
  const batchList = useLocalQuery<BatchDoc>('batches', { CompanyID: user.companyId }, `batches-${user.companyId}`);
  const batches = useMemo(() => [...batchList.documents].sort(batchOrder), [batchList.documents]);
  const shown = useMemo(() => [...history.waiting, ...history.rows], [history.waiting, history.rows]);
  const boxName = useBoxNames(
    shown.flatMap((row) => [row.fromBox, row.toBox]),
    company,
  );
  // Any change of filter or order starts again at the first page.
  const set = (patch: Partial<HistoryFilters>) => setFilters((current) => ({ ...current, offset: 0, ...patch }));
  const page = (offset: number) => setFilters((current) => ({ ...current, offset }));

  const first = history.total === 0 ? 0 : filters.offset + 1;
  const last = Math.min(filters.offset + PAGE_SIZE, history.total);
  const paged = filters.offset > 0 || history.total > PAGE_SIZE;
  const filtered = filters.roomId !== null || filters.batchId !== null || filters.startDate !== '' || filters.endDate !== '';

  return (
    <section className="move-history" aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`}>{t('history.heading')}</h2>
      <div className="history-filters" role="group" aria-label={t('history.filters')}>
        <div>
          <label htmlFor={`${ids}-batch`}>{t('history.batch')}</label>
          <select id={`${ids}-batch`} className="control" value={filters.batchId ?? ''} onChange={(event) => set({ batchId: event.target.value || null })}>
            <option value="">{t('history.allBatches')}</option>
            {batches.map((batch) => (
              <option key={batch.id} value={batch.id}>
                {batch.BatchNumber || t('history.unnamedBatch')}
                {batch.StrainName ? ` · ${batch.StrainName}` : ''}
              </option>
            ))}
          </select>
        </div>
        <RoomFilter id={`${ids}-room`} rooms={rooms} value={filters.roomId ?? ''} onChange={(room) => set({ roomId: room || null })} />
        <div>
          <label htmlFor={`${ids}-start`}>{t('history.fromDay')}</label>
          <input id={`${ids}-start`} className="control" type="date" value={filters.startDate} onChange={(event) => set({ startDate: event.target.value })} />
        </div>
        <div>
          <label htmlFor={`${ids}-end`}>{t('history.toDay')}</label>
          <input id={`${ids}-end`} className="control" type="date" value={filters.endDate} onChange={(event) => set({ endDate: event.target.value })} />
        </div>
        <div>
          <label htmlFor={`${ids}-sort`}>{t('history.sortBy')}</label>
          <select id={`${ids}-sort`} className="control" value={filters.sortBy} onChange={(event) => set({ sortBy: event.target.value as SortColumn })}>
            <ChoiceOptions choices={MOVEMENT_SORT_COLUMNS} labels={sortLabels} />
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-order`}>{t('history.order')}</label>
          <select id={`${ids}-order`} className="control" value={filters.sortOrder} onChange={(event) => set({ sortOrder: event.target.value as SortOrder })}>
            <option value="desc">{filters.sortBy === 'moved_at' ? t('history.newestFirst') : t('history.descending')}</option>
            <option value="asc">{filters.sortBy === 'moved_at' ? t('history.oldestFirst') : t('history.ascending')}</option>
          </select>
        </div>
      </div>
      {filtered && (
        <button type="button" className="button" onClick={() => setFilters(FIRST_PAGE)}>
          {t('history.clearFilters')}
        </button>
      )}
      <p className="muted">{t('history.utcDays')}</p>

      {history.source === 'tablet' && (
        <p className="banner history-source" role="status">
          {history.why === 'offline'
            ? t('history.offline')
            : history.why === 'no-answer'
              ? t('history.noAnswer')
              : t('history.notSynced')}
        </p>
      )}
      <FormError error={history.error} banner />

      {history.waiting.length > 0 && (
        <>
          <h3 className="history-subhead">{t('waitingToSync')}</h3>
          <MoveList label={t('history.waitingLabel')} rows={history.waiting} boxName={boxName} company={company} />
        </>
      )}

      {history.error ? null : history.loading && history.rows.length === 0 ? (
        <p className="muted" role="status">
          {t('history.loading')}
        </p>
      ) : history.total === 0 ? (
        <p className="empty">{filtered ? t('history.noMatch') : t('history.noMoves')}</p>
      ) : (
        <>
          <p className="history-count" role="status" data-total={history.total}>
            {paged ? t('history.range', { first, last, total: history.total }) : t('history.count', { count: history.total })}
            {history.loading ? ` · ${t('history.updating')}` : ''}
          </p>
          <MoveList label={t('history.heading')} rows={history.rows} boxName={boxName} company={company} />
          {paged && (
            <div className="form-actions history-paging">
              <button type="button" className="button" disabled={filters.offset === 0} onClick={() => page(Math.max(0, filters.offset - PAGE_SIZE))}>
                {t('history.previous', { size: PAGE_SIZE })}
              </button>
              <button type="button" className="button" disabled={last >= history.total} onClick={() => page(filters.offset + PAGE_SIZE)}>
                {t('history.next', { size: PAGE_SIZE })}
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function MoveList({ label, rows, boxName, company }: { label: string; rows: HistoryRow[]; boxName: (id: string | number | null) => string; company: CompanyDoc | null }) {
  const { t } = useTranslation(plantMovesTexts);
  return (
    <ul className="move-list" aria-label={label}>
      {rows.map((row) => {
        const by = userName(company, row.userId);
        return (
          <li key={row.key} className={`card move-item${row.waiting ? ' waiting' : ''}`} aria-label={t('history.plant', { plant: row.plantUid })}>
            <div className="move-head">
              <h3>{row.plantUid}</h3>
              <span className="muted">{when(row.movedAt)}</span>
              {row.waiting && <span className="chip waiting">{t('waitingToSync')}</span>}
            </div>
            <dl className="move-facts">
              <div>
                <dt>{t('history.from')}</dt>
                <dd>{row.fromBox === null ? boxName(null) : `${boxName(row.fromBox)}${row.fromPosition ? ` · ${positionName(row.fromPosition)}` : ''}`}</dd>
              </div>
              <div>
                <dt>{t('history.to')}</dt>
                <dd>
                  {boxName(row.toBox)}
                  {` · ${row.toPosition ? positionName(row.toPosition) : t('history.firstFreePosition')}`}
                </dd>
              </div>
              {row.reason && (
                <div>
                  <dt>{t('history.reason')}</dt>
                  <dd>{row.reason}</dd>
                </div>
              )}
              {row.notes && (
                <div>
                  <dt>{t('history.notes')}</dt>
                  <dd>{row.notes}</dd>
                </div>
              )}
              {by && (
                <div>
                  <dt>{t('history.by')}</dt>
                  <dd>{by}</dd>
                </div>
              )}
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
