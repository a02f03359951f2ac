/**
 * The question before a harvest. A batch whose plants were sprayed with a product whose pre-harvest
 * interval is still running is not refused (the grower may know better: a crop destroyed, a lab
 * result), but warned first, with the date it becomes safe, and asked to confirm: from the sprays in
 * the local store, so the warning shows offline too.
 */
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useLocalQuery } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { type LocalSpray, preharvestBoxIds, preharvestHold, SPRAY_SELECTOR } from '../treatments/intervals';
import { useBoxes } from './hooks';
import { formatMoment, idsOf, type LocalBatch } from './model';
import { Confirm } from './Sheet';
import { batchesTexts } from './texts';

export function HarvestConfirm(props: { batch: LocalBatch; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation(batchesTexts);
  const { batch } = props;
  // When the question is asked: an interval ending while it stays open still warned when it was read.
  const [now] = useState(() => Date.now());
  const sprays = useLocalQuery<LocalDocument & LocalSpray>('operations', SPRAY_SELECTOR, 'sprays');
  // Sprayed boxes' grids, for a batch linked to a whole grid (only the boxes of running intervals).
  const sprayedBoxes = useBoxes(idsOf(batch.GridIDs).length ? preharvestBoxIds(sprays.documents, now) : []);
  const hold = preharvestHold(
    sprays.documents,
    { boxIds: idsOf(batch.GridBoxIDs).map(String), gridIds: idsOf(batch.GridIDs).map(String) },
    (boxId) => {
      const gridId = sprayedBoxes.boxesById.get(boxId)?.gridId;
      return gridId === undefined ? undefined : String(gridId);
    },
    now,
  );
  // Until the sprays are read, harvesting waits: a warning must not arrive after the tap.
  const reading = sprays.loading || sprayedBoxes.loading;
  const plants = hold ? t('harvest.positions', { count: hold.boxes }) : '';
  return (
    <>
      {hold && (
        <div className="bt-preharvest" role="alert">
          <p className="bt-preharvest-title">{t('harvest.holdTitle')}</p>
          <p>
            <Trans
              t={t}
              i18nKey="harvest.sprayed"
              count={Math.max(1, hold.products.length)}
              values={{ products: hold.products.length ? hold.products.join(', ') : t('harvest.aProduct'), positions: plants, date: formatMoment(hold.safeFrom) }}
              components={{ time: <time dateTime={hold.safeFrom} /> }}
            />
          </p>
        </div>
      )}
      <Confirm
        question={hold ? t('harvest.questionAnyway', { number: batch.BatchNumber }) : t('harvest.questionNow', { number: batch.BatchNumber })}
        detail={batch.EndDate ? t('harvest.detail') : t('harvest.detailWithEndDate')}
        confirmLabel={hold ? t('harvest.confirmAnyway') : t('harvest.confirm')}
        danger={hold !== null}
        busy={props.busy || reading}
        onConfirm={props.onConfirm}
        onCancel={props.onCancel}
      />
    </>
  );
}
