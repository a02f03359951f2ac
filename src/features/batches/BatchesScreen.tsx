/**
 * The company's batches (spec part 1 §3–§5, part 2 §5 batch problems), read from the tablet's copy:
 * filter by crop status, create, and open one to edit, link, move, harvest, report and resolve
 * problems or delete it; select several to give them a status; manage the company's own statuses.
 * Every change goes through the domain functions (src/api/batches.ts) and shows at once, online or
 * offline; the sync indicator tells when it reached the server.
 */
import { useNavigate } from '@tanstack/react-router';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { assignStatusToBatches, batchMessages } from '../../api/batches';
import { useAction, useToast } from '../../app/hooks';
import { InitialPull, useInitialPull } from '../shell/InitialPull';
import { Screen } from '../shell/Screen';
import { ScanLabelSheet } from '../label-scan/ScanLabelSheet';
import { createBatchOrFail } from './actions';
import { BatchForm } from './BatchForm';
import { BatchSheet } from './BatchSheet';
import { useBatches, useBoxes, useCompany, usePlaces, useSignedIn } from './hooks';
import {
  batchFormProblem,
  byCurrentThenNewest,
  companyStatuses,
  emptyBatchForm,
  formatDay,
  idsOf,
  reachedServer,
  openProblems,
  paintable,
  roomName,
  roomsOfBatch,
  type BatchFormValues,
  type LocalBatch,
  type UserLike,
} from './model';
import { Sheet } from './Sheet';
import { StatusesPanel } from './StatusesPanel';
import './batches.css';
import { batchesTexts, statusName } from './texts';

const ALL = '';

export function BatchesScreen(props: { openBatch?: string }) {
  const { t } = useTranslation(batchesTexts);
  const signedIn = useSignedIn();
  const navigate = useNavigate();
  const toast = useToast();
  const { documents: batches, loading } = useBatches(signedIn.companyId);
  const { document: company } = useCompany(signedIn.companyId);
  const places = usePlaces();
  const linkedBoxIds = useMemo(() => [...new Set(batches.flatMap((batch) => idsOf(batch.GridBoxIDs).map(String)))], [batches]);
  const { boxesById } = useBoxes(linkedBoxIds);
  const statuses = useMemo(() => companyStatuses(company), [company]);
  const users = (Array.isArray(company?.users) ? company.users : []) as UserLike[];

  const [status, setStatus] = useState(ALL);
  const [search, setSearch] = useState('');
  const [withProblems, setWithProblems] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [sheet, setSheet] = useState<'create' | 'statuses' | 'scan' | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [bulkStatus, setBulkStatus] = useState('');
  const create = useAction(createBatchOrFail, batchMessages.created);
  const assign = useAction(assignStatusToBatches, batchMessages.statusAssigned);
  const pulling = useInitialPull();

  const sorted = useMemo(() => [...batches].sort(byCurrentThenNewest), [batches]);
  const counts = useMemo(() => {
    const map = new Map<string, number>();
    for (const batch of batches) map.set(batch.BatchStatus, (map.get(batch.BatchStatus) ?? 0) + 1);
    return map;
  }, [batches]);
  // Statuses batches still carry after their custom status was deleted stay filterable.
  const filterStatuses = useMemo(() => {
    const known = [...statuses.builtIn, ...statuses.custom];
    const orphans = [...counts.keys()].filter((name) => !known.includes(name)).sort();
    return [...known, ...orphans];
  }, [statuses, counts]);
  const needle = search.trim().toLowerCase();
  const withOpenProblems = batches.filter((batch) => openProblems(batch).length > 0).length;
  const shown = sorted.filter(
    (batch) =>
      (status === ALL || batch.BatchStatus === status) &&
      (!withProblems || openProblems(batch).length > 0) &&
      (!needle || batch.BatchNumber.toLowerCase().includes(needle) || (batch.StrainName ?? '').toLowerCase().includes(needle)),
  );
  const knownTypes = useMemo(() => [...new Set(batches.flatMap((batch) => (batch.problems ?? []).map((problem) => problem.problem_type)))].sort(), [batches]);

  // The batch open in its sheet, by its client id (the same before and after it syncs).
  const wanted = props.openBatch ?? null;
  const open = wanted === null ? null : (batches.find((batch) => batch.id === wanted) ?? null);
  const openBatch = (id: string | null) => void navigate({ to: '/dashboard/batches', search: id ? { batch: id } : {}, replace: id === null });

  const selectedBatches = batches.filter((batch) => selected.has(batch.id));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  async function createOne(values: BatchFormValues) {
    if (signedIn.companyId === null) return;
    const problem = batchFormProblem(values, signedIn.companyId, batches);
    setFormError(problem);
    if (problem) return toast(problem, 'danger');
    const done = await create.run({
      companyId: signedIn.companyId,
      batchNumber: values.batchNumber.trim(),
      numberOfPlants: Number(values.numberOfPlants),
      strainName: values.strainName.trim() || null,
      batchStatus: values.batchStatus,
      color: values.color || null,
      startDate: values.startDate || null,
      endDate: values.endDate || null,
    });
    if (done) setSheet(null);
  }

  async function assignStatus() {
    const chosen = bulkStatus || statuses.builtIn[0];
    const done = await assign.run({ companyId: signedIn.companyId, batchStatus: chosen, batchIds: selectedBatches.map((batch) => batch.BatchID) });
    if (done) setSelected(new Set());
  }

  const noSession = signedIn.ready && signedIn.companyId === null ? t('screen.noSession') : null;

  // A new tablet's first pull: the batches are on their way, not missing.
  if (pulling && batches.length === 0) {
    return (
      <Screen title={t('screen.title')} loading={!signedIn.ready || loading}>
        <InitialPull progress={pulling} />
      </Screen>
    );
  }

  // The sheets sit beside the frame, not in it: the frame shows its empty state instead of its children.
  return (
    <>
      <Screen
        title={t('screen.title')}
        loading={!signedIn.ready || loading}
        error={noSession}
        actions={
          <>
            <button type="button" className="button" onClick={() => setSheet('scan')}>
              {t('screen.scanLabel')}
            </button>
            <button type="button" className="button" onClick={() => setSheet('statuses')}>
              {t('screen.statuses')}
            </button>
            <button
              type="button"
              className="button primary"
              onClick={() => {
                setFormError(null);
                setSheet('create');
              }}
            >
              {t('screen.newBatch')}
            </button>
          </>
        }
        empty={batches.length === 0 ? t('screen.empty') : null}
      >
        <div className="bt-batch-toolbar">
          <div className="bt-toolbar-row">
            <label className="bt-search">
              <span className="bt-visually-hidden">{t('screen.findBatch')}</span>
              <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder={t('screen.findPlaceholder')} />
            </label>
            <button type="button" className="bt-filter-chip bt-problems-filter" aria-pressed={withProblems} onClick={() => setWithProblems((value) => !value)}>
              {t('screen.withOpenProblems')} <span className="bt-count">{withOpenProblems}</span>
            </button>
          </div>
          <div className="bt-status-filter" role="group" aria-label={t('screen.filterByStatus')}>
            <button type="button" className="bt-filter-chip" aria-pressed={status === ALL} onClick={() => setStatus(ALL)}>
              {t('screen.all')} <span className="bt-count">{batches.length}</span>
            </button>
            {filterStatuses.map((name) => (
              <button key={name} type="button" className="bt-filter-chip" aria-pressed={status === name} onClick={() => setStatus(status === name ? ALL : name)}>
                {statusName(name)} <span className="bt-count">{counts.get(name) ?? 0}</span>
              </button>
            ))}
          </div>
        </div>

        {selectedBatches.length > 0 && (
          <div className="bt-selection-bar" role="region" aria-label={t('screen.selectedBatches')}>
            <strong>{t('screen.selectedCount', { selected: selectedBatches.length })}</strong>
            <label>
              <span className="bt-visually-hidden">{t('screen.statusForSelected')}</span>
              <select className="control" value={bulkStatus || statuses.builtIn[0]} onChange={(event) => setBulkStatus(event.target.value)} aria-label={t('screen.statusForSelected')}>
                <optgroup label={t('form.stages')}>
                  {statuses.builtIn.map((name) => (
                    <option key={name} value={name}>
                      {statusName(name)}
                    </option>
                  ))}
                </optgroup>
                {statuses.custom.length > 0 && (
                  <optgroup label={t('form.yourStatuses')}>
                    {statuses.custom.map((name) => (
                      <option key={name} value={name}>
                        {name}
                      </option>
                    ))}
                  </optgroup>
                )}
              </select>
            </label>
            <button type="button" className="button primary" disabled={assign.busy} onClick={() => void assignStatus()}>
              {assign.busy ? t('screen.setting') : t('screen.setStatus')}
            </button>
            <button type="button" className="button" onClick={() => setSelected(new Set())}>
              {t('screen.clearSelection')}
            </button>
          </div>
        )}

        {shown.length === 0 ? (
          <p className="empty">{t('screen.noMatch')}</p>
        ) : (
          <ul className="bt-batch-list" aria-label={t('screen.title')}>
            {shown.map((batch) => (
              <BatchCard
                key={batch.id}
                batch={batch}
                roomNames={roomsOfBatch(batch, places.gridsById, boxesById).map((id) => roomName(places.roomsById.get(id)))}
                selected={selected.has(batch.id)}
                onToggle={() => toggle(batch.id)}
                onOpen={() => openBatch(batch.id)}
              />
            ))}
          </ul>
        )}
      </Screen>

      {sheet === 'create' && (
        <Sheet title={t('screen.newBatch')} onClose={() => setSheet(null)}>
          <BatchForm
            initial={emptyBatchForm()}
            statuses={statuses}
            submitLabel={t('screen.createBatch')}
            busy={create.busy}
            error={formError ?? create.error}
            onSubmit={(values) => void createOne(values)}
            onCancel={() => setSheet(null)}
          />
        </Sheet>
      )}
      {sheet === 'statuses' && (
        <Sheet title={t('screen.statusesTitle')} onClose={() => setSheet(null)}>
          <StatusesPanel companyId={signedIn.companyId} statuses={statuses} inUse={counts} isAdmin={signedIn.isAdmin} />
        </Sheet>
      )}
      {sheet === 'scan' && <ScanLabelSheet onClose={() => setSheet(null)} />}
      {open && (
        <BatchSheet
          key={wanted ?? open.id}
          batch={open}
          batches={batches}
          places={places}
          boxesById={boxesById}
          roomIds={roomsOfBatch(open, places.gridsById, boxesById)}
          statuses={statuses}
          users={users}
          userId={signedIn.userId}
          companyId={signedIn.companyId}
          isAdmin={signedIn.isAdmin}
          knownTypes={knownTypes}
          onClose={() => openBatch(null)}
        />
      )}
    </>
  );
}

function BatchCard(props: { batch: LocalBatch; roomNames: string[]; selected: boolean; onToggle: () => void; onOpen: () => void }) {
  const { t } = useTranslation(batchesTexts);
  const { batch } = props;
  const color = paintable(batch.Color);
  const problems = openProblems(batch).length;
  const grids = idsOf(batch.GridIDs).length;
  const boxes = idsOf(batch.GridBoxIDs).length;
  return (
    <li className={`bt-batch-card${props.selected ? ' bt-selected' : ''}`} style={color ? { borderLeftColor: color } : undefined}>
      <label className="bt-select-box">
        <input type="checkbox" checked={props.selected} onChange={props.onToggle} aria-label={t('card.select', { number: batch.BatchNumber })} />
      </label>
      {/* Named by what it shows, batch number first (no aria-label: voice control says what it sees). */}
      <button type="button" className="bt-batch-open" onClick={props.onOpen}>
        <span className="bt-batch-line">
          <span className="bt-batch-number">{batch.BatchNumber}</span>
          <span className="bt-status-chip">{statusName(batch.BatchStatus)}</span>
          {problems > 0 && <span className="bt-problem-chip">{t('card.openProblems', { count: problems })}</span>}
          {!reachedServer(batch) && <span className="bt-pending-chip">{t('waitingToSync')}</span>}
        </span>
        <span className="bt-batch-line bt-strain">{batch.StrainName || t('noStrain')}</span>
        <span className="bt-batch-line bt-meta">{t('card.plants', { count: batch.NumberOfPlants, dates: datesOf(t, batch) })}</span>
        <span className="bt-batch-line bt-meta">
          {props.roomNames.length ? props.roomNames.join(', ') : t('notInRoom')}
          {grids > 0 && ` · ${t('card.grids', { count: grids })}`}
          {boxes > 0 && ` · ${t('card.positions', { count: boxes })}`}
        </span>
      </button>
    </li>
  );
}

/** The batch's dates in a few words: "2 Mar 2026 → ongoing", "until 1 Jun 2026", "No dates yet". */
function datesOf(t: TFunction<typeof batchesTexts>, batch: LocalBatch) {
  if (batch.StartDate) return t('card.dates', { start: formatDay(batch.StartDate), end: batch.EndDate ? formatDay(batch.EndDate) : t('card.ongoing') });
  return batch.EndDate ? t('card.until', { end: formatDay(batch.EndDate) }) : t('card.noDates');
}
