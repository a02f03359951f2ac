/**
 * One batch on the batches screen: what it is and where it grows, and everything a grower does with
 * it (edit, link, move plants, harvest, problems, delete), one task at a time.
 */
import type { GridOrder } from '../../../common/messages/settings';
import { gridOrderOf } from '../rooms/model';
import { useCompany } from './hooks';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { batchMessages, deleteBatches, harvestBatch } from '../../api/batches';
import { useAction, useApiContext, useToast } from '../../app/hooks';
import { updateBatchOrFail } from './actions';
import { BatchForm } from './BatchForm';
import type { Places } from './hooks';
import { LinkPanel } from './LinkPanel';
import {
  batchFormProblem,
  boxLabel,
  formatDay,
  formatMoment,
  formChanges,
  formOf,
  idsOf,
  reachedServer,
  openProblems,
  paintable,
  roomName,
  gridName,
  type BatchFormValues,
  type LocalBatch,
  type UserLike,
} from './model';
import { MovePanel } from './MovePanel';
import { ProblemsPanel } from './ProblemsPanel';
import { Confirm, Sheet } from './Sheet';
import type { LocalDocument } from '../../db/schemas';
import { FormError } from '../shell/forms';
import { formatNumber } from '../../i18n/format';
import { HistoryEntry } from './Entries';
import { HarvestConfirm } from './HarvestConfirm';
import { batchesTexts, statusName } from './texts';

export type BatchView = 'details' | 'edit' | 'link' | 'move' | 'harvest' | 'problems' | 'delete';

export function BatchSheet(props: {
  batch: LocalBatch;
  batches: LocalBatch[];
  places: Places;
  boxesById: Map<string, LocalDocument>;
  roomIds: string[];
  statuses: { builtIn: string[]; custom: string[] };
  users: UserLike[];
  userId: number | null;
  companyId: number | null;
  isAdmin: boolean;
  knownTypes: string[];
  initialView?: BatchView;
  onClose: () => void;
}) {
  const { t } = useTranslation(batchesTexts);
  const { batch, places } = props;
  const order = gridOrderOf(useCompany(props.companyId).document);
  const [view, setView] = useState<BatchView>(props.initialView ?? 'details');
  const [formError, setFormError] = useState<string | null>(null);
  const toast = useToast();
  const context = useApiContext();
  const update = useAction(updateBatchOrFail, batchMessages.updated);
  const harvest = useAction(harvestBatch, batchMessages.harvested);
  const [deleting, setDeleting] = useState(false);
  const back = () => {
    setFormError(null);
    setView('details');
  };

  async function save(values: BatchFormValues) {
    if (props.companyId === null) return;
    const problem = batchFormProblem(values, props.companyId, props.batches, batch.BatchID);
    setFormError(problem);
    if (problem) return toast(problem, 'danger');
    const changes = formChanges(batch, values);
    if (Object.keys(changes).length === 0) return back();
    if (await update.run({ batchId: batch.BatchID, companyId: props.companyId, ...changes })) back();
  }

  async function remove() {
    if (props.companyId === null || !context) return;
    setDeleting(true);
    // delete_batches answers {status: 'error', message} instead of throwing (spec part 1 §8).
    const answer = await deleteBatches(context, { batchId: batch.BatchID, companyId: props.companyId });
    setDeleting(false);
    if (answer.status === 'error') {
      setFormError(answer.message);
      toast(answer.message, 'danger');
      return;
    }
    toast(batchMessages.deleted, 'success');
    props.onClose();
  }

  const title = t(`sheet.titles.${view}`, { number: batch.BatchNumber });
  const harvested = Boolean(batch.HarvestedAt);

  return (
    <Sheet title={title} onClose={props.onClose} wide={view === 'link'}>
      {view !== 'details' && (
        <button type="button" className="button bt-back" onClick={back}>
          {t('sheet.back')}
        </button>
      )}
      {view === 'details' && (
        <>
          <BatchSummary order={order} {...props} />
          <div className="bt-action-grid">
            <button type="button" className="button" onClick={() => setView('edit')}>
              {t('sheet.edit')}
            </button>
            <button type="button" className="button" onClick={() => setView('link')}>
              {t('sheet.link')}
            </button>
            <button type="button" className="button" onClick={() => setView('move')}>
              {t('sheet.move')}
            </button>
            <button type="button" className="button" onClick={() => setView('harvest')} disabled={harvested}>
              {harvested ? t('sheet.harvested') : t('sheet.harvest')}
            </button>
            <button type="button" className="button" onClick={() => setView('problems')}>
              {t('sheet.problems', { open: openProblems(batch).length })}
            </button>
            <Link className="button" to="/dashboard/batch-info/$batchId" params={{ batchId: batch.id }}>
              {t('sheet.info')}
            </Link>
            {props.isAdmin && (
              <button type="button" className="button danger" onClick={() => setView('delete')}>
                {t('sheet.delete')}
              </button>
            )}
          </div>
        </>
      )}
      {view === 'edit' && (
        <BatchForm
          initial={formOf(batch)}
          statuses={props.statuses}
          submitLabel={t('sheet.saveChanges')}
          busy={update.busy}
          error={formError ?? update.error}
          onSubmit={(values) => void save(values)}
          onCancel={back}
        />
      )}
      {view === 'link' && <LinkPanel batch={batch} places={places} onDone={back} />}
      {view === 'move' && <MovePanel batch={batch} places={places} roomIds={props.roomIds} onDone={back} />}
      {view === 'harvest' &&
        (harvested ? (
          <p className="empty">{t('sheet.harvestedOn', { number: batch.BatchNumber, when: formatMoment(batch.HarvestedAt) })}</p>
        ) : (
          <>
            <HarvestConfirm
              batch={batch}
              busy={harvest.busy}
              onConfirm={() => void harvest.run({ batchId: batch.BatchID, companyId: props.companyId ?? 0, userId: props.userId ?? 0 }).then((done) => done && back())}
              onCancel={back}
            />
            <FormError banner error={harvest.error} />
          </>
        ))}
      {view === 'problems' && (
        <ProblemsPanel batch={batch} places={places} roomIds={props.roomIds} userId={props.userId} companyId={props.companyId} users={props.users} knownTypes={props.knownTypes} />
      )}
      {view === 'delete' && (
        <>
          <Confirm
            question={t('sheet.deleteQuestion', { number: batch.BatchNumber })}
            detail={t('sheet.deleteDetail')}
            confirmLabel={t('sheet.deleteConfirm')}
            danger
            busy={deleting}
            onConfirm={() => void remove()}
            onCancel={back}
          />
          <FormError banner error={formError} />
        </>
      )}
    </Sheet>
  );
}

/** The batch at a glance inside the sheet. */
function BatchSummary(props: { batch: LocalBatch; places: Places; boxesById: Map<string, LocalDocument>; roomIds: string[]; users: UserLike[]; order: GridOrder }) {
  const { t } = useTranslation(batchesTexts);
  const { batch, places } = props;
  const color = paintable(batch.Color);
  const grids = idsOf(batch.GridIDs).map((id) => places.gridsById.get(String(id)));
  const boxes = idsOf(batch.GridBoxIDs).map((id) => props.boxesById.get(String(id)));
  const history = [...(batch.history ?? [])].sort((a, b) => b.created_at.localeCompare(a.created_at));
  return (
    <div className="bt-batch-summary">
      <p className="bt-summary-head">
        {color && <span className="bt-color-dot bt-large" style={{ background: color }} aria-hidden="true" />}
        <span className="bt-status-chip">{statusName(batch.BatchStatus)}</span>
        <span>{batch.StrainName || t('noStrain')}</span>
        {!reachedServer(batch) && <span className="bt-pending-chip">{t('waitingToSync')}</span>}
      </p>
      <dl className="bt-facts">
        <div>
          <dt>{t('facts.plants')}</dt>
          <dd>{formatNumber(batch.NumberOfPlants)}</dd>
        </div>
        <div>
          <dt>{t('facts.start')}</dt>
          <dd>{formatDay(batch.StartDate)}</dd>
        </div>
        <div>
          <dt>{t('facts.end')}</dt>
          <dd>{formatDay(batch.EndDate)}</dd>
        </div>
        {batch.HarvestedAt && (
          <div>
            <dt>{t('facts.harvested')}</dt>
            <dd>{formatMoment(batch.HarvestedAt)}</dd>
          </div>
        )}
      </dl>
      <dl className="bt-where">
        <div>
          <dt>{t('facts.rooms')}</dt>
          <dd>{props.roomIds.length ? props.roomIds.map((id) => roomName(places.roomsById.get(id))).join(', ') : t('notInRoom')}</dd>
        </div>
        <div>
          <dt>{t('facts.grids')}</dt>
          <dd>{grids.length ? grids.map((grid) => gridName(grid)).join(', ') : t('noneLinked')}</dd>
        </div>
        <div>
          <dt>{t('facts.plantPositions')}</dt>
          <dd>
            {boxes.length === 0
              ? t('noneLinked')
              : t(boxes.length > 12 ? 'sheet.positionsListMore' : 'sheet.positionsList', {
                  positions: boxes.length,
                  list: boxes
                    .slice(0, 12)
                    .map((box) => (box ? boxLabel(box, places.gridsById.get(String(box.gridId)), props.order) : t('sheet.boxGone')))
                    .join('; '),
                })}
          </dd>
        </div>
      </dl>
      {history.length > 0 && (
        <details className="bt-history">
          <summary>{t('sheet.history', { entries: history.length })}</summary>
          <ol>
            {history.map((event) => (
              <HistoryEntry key={String(event.event_id)} event={event} users={props.users} places={places} />
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}
