/**
 * What the treatments screen works out from the local store, as pure functions: product facts as the
 * grower reads them, the treatment of a type for a product, the re-entry state of a spray, and the
 * date-time field's text (the boxes inside a running interval: intervals.ts, shared with the room screen).
 * The texts are in the reader's language (treatmentsTexts), so these are called at render.
 */
import type { TreatmentType } from '../../../common/messages/treatments';
import type { SprayApplicationDocument, SprayProductDocument, TreatmentDocument } from '../../api/treatments';
import { formatNumber } from '../../i18n/format';
import { i18next } from '../../i18n/i18n';
import { when } from '../rooms/model';
import { treatmentsTexts } from './texts';

/** Names sort as growers number things: "Mix 2" before "Mix 10", any case. */
export const byProductName = (a: SprayProductDocument, b: SprayProductDocument) => a.ProductName.localeCompare(b.ProductName, undefined, { numeric: true, sensitivity: 'base' });

/** Newest spray first (the time it was sprayed, then when it was recorded). */
export const byNewestSpray = (a: SprayApplicationDocument, b: SprayApplicationDocument) => b.ApplicationDate.localeCompare(a.ApplicationDate) || b.created_at.localeCompare(a.created_at);

/** A product's facts, each "label: value"; an interval the product does not have says so (it matters for re-entry). */
export function productFacts(product: SprayProductDocument): Array<[string, string]> {
  const t = i18next.getFixedT(null, treatmentsTexts);
  // The rate as typed, in the reader's digits (every decimal kept).
  const rate = product.Rate === null ? '—' : `${formatNumber(product.Rate, { maximumFractionDigits: 20, useGrouping: false })}${product.RateUnit ? ` ${product.RateUnit}` : ''}`;
  return [
    [t('facts.activeIngredient'), product.ActiveIngredient || '—'],
    [t('facts.rate'), rate],
    [t('facts.reentry'), product.ReentryHours === null ? t('facts.none') : t('facts.hours', { count: product.ReentryHours })],
    [t('facts.preharvest'), product.PreharvestDays === null ? t('facts.none') : t('facts.days', { count: product.PreharvestDays })],
  ];
}

/** The company's treatment of `type` for a product (removed ones too: they can be restored). */
export function treatmentOf(treatments: readonly TreatmentDocument[], productId: string, type: TreatmentType): TreatmentDocument | null {
  return treatments.find((treatment) => treatment.treatment_type === type && String(treatment.product_id) === productId) ?? null;
}

/** The screen keeps a treatment's notes in its data's `notes` (the spec leaves `data` open); other fields stay as they are. */
export const notesOf = (treatment: TreatmentDocument | null) => (typeof treatment?.data.notes === 'string' ? treatment.data.notes : '');

/** "Re-entry until 3 May 2025, 22:10" while it runs; "Re-entry ended …" after; "No re-entry interval" without one. */
export function reentryText(spray: SprayApplicationDocument, now: number): string {
  const t = i18next.getFixedT(null, treatmentsTexts);
  if (!spray.reentry_until) return t('intervals.noReentry');
  return t(Date.parse(spray.reentry_until) > now ? 'intervals.reentryUntil' : 'intervals.reentryEnded', { time: when(spray.reentry_until) });
}

export function preharvestText(spray: SprayApplicationDocument, now: number): string | null {
  if (!spray.preharvest_until) return null;
  return i18next.t(Date.parse(spray.preharvest_until) > now ? 'intervals.harvestSafeFrom' : 'intervals.harvestSafeSince', { ns: treatmentsTexts, time: when(spray.preharvest_until) });
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A moment as a datetime-local field's text, in the tablet's zone, to the minute. */
export function localInputValue(moment: Date): string {
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}T${pad(moment.getHours())}:${pad(moment.getMinutes())}`;
}

/** A datetime-local field's text (the tablet's zone) as ISO 8601 with its zone; the text itself when it is no date (the check then says so). */
export function isoFromLocalInput(value: string): string {
  const moment = new Date(value);
  return value && !Number.isNaN(moment.getTime()) ? moment.toISOString() : value;
}

/**
 * Boxes named "Room · Grid · Box 3", written with each grid once: "Flower room · Bench A: Box 1, Box 2
 * and 4 more; Veg room · Bench C: Box 7". `shown`: how many boxes of a grid are named before "and N more".
 */
export function boxList(names: readonly string[], shown = 6): string {
  const byGrid = new Map<string, string[]>();
  for (const name of names) {
    const cut = name.lastIndexOf(' · ');
    const [grid, box] = cut === -1 ? ['', name] : [name.slice(0, cut), name.slice(cut + 3)];
    byGrid.set(grid, [...(byGrid.get(grid) ?? []), box]);
  }
  return [...byGrid.entries()]
    .map(([grid, boxes]) => {
      const listed = boxes.length <= shown ? boxes.join(', ') : i18next.t('boxList.andMore', { ns: treatmentsTexts, boxes: boxes.slice(0, shown).join(', '), more: boxes.length - shown });
      return grid ? `${grid}: ${listed}` : listed;
    })
    .join('; ');
}
