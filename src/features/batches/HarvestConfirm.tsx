/**
 * The question before a harvest. A batch whose plants were sprayed with a product whose pre-harvest
 * interval is still running is not refused (the grower may know better: a crop destroyed, a lab
 * result), but warned first, with the date it becomes safe, and asked to confirm: from the sprays in
 * the local store, so the warning shows offline too.
 */
import { useState } from 'react';
import { useLocalQuery } from '../../app/hooks';
import type { LocalDocument } from '../../db/schemas';
import { type LocalSpray, preharvestBoxIds, preharvestHold, SPRAY_SELECTOR } from '../treatments/intervals';
import { useBoxes } from './hooks';
import { formatMoment, idsOf, type LocalBatch } from './model';
import { Confirm } from './Sheet';

export function HarvestConfirm(props: { batch: LocalBatch; busy: boolean; onConfirm: () => void; onCancel: () => void }) {
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
  const plants = hold ? `${hold.boxes} of its plant position${hold.boxes === 1 ? '' : 's'}` : '';
  return (
    <>
      {hold && (
        <div className="bt-preharvest" role="alert">
          <p className="bt-preharvest-title">Inside a pre-harvest interval</p>
          <p>
            {hold.products.length ? hold.products.join(', ') : 'A product'} {hold.products.length > 1 ? 'were' : 'was'} sprayed on {plants}: safe to harvest from{' '}
            <time dateTime={hold.safeFrom}>{formatMoment(hold.safeFrom)}</time>.
          </p>
        </div>
      )}
      <Confirm
        question={hold ? `Harvest batch ${batch.BatchNumber} anyway?` : `Harvest batch ${batch.BatchNumber} now?`}
        detail={`Its status becomes Harvested, harvested now${batch.EndDate ? '' : ', with today as its end date'}. A batch is harvested once.`}
        confirmLabel={hold ? 'Harvest anyway' : 'Harvest'}
        danger={hold !== null}
        busy={props.busy || reading}
        onConfirm={props.onConfirm}
        onCancel={props.onCancel}
      />
    </>
  );
}
