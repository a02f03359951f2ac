/**
 * The re-entry and pre-harvest rules the tablet applies to the sprays in its local store (the
 * `operations` collection, kind `spray_application`; common/schemas/treatments.ts). A spray carries its
 * own ends (`reentry_until`, `preharvest_until`), fixed when it was recorded (sprayIntervalEnds), so
 * these rules only compare them with now: they work offline and never need the product. Pure: no
 * React, no store.
 */
import type { SprayApplicationRecord } from '../../../common/schemas/treatments';
import { formatDate } from '../../i18n/format';

/**
 * A spray as the local store holds it. `Grid_boxIDs` are the boxes' client ids (the local `grid_boxes`
 * keys); a document the store has not checked is read defensively.
 */
export type LocalSpray = Partial<Pick<SprayApplicationRecord, 'ProductName' | 'reentry_until' | 'preharvest_until'>> & { Grid_boxIDs?: unknown };

/** The local query of every spray (one per screen, not one per box). */
export const SPRAY_SELECTOR = { kind: 'spray_application' } as const;

const boxIdsOf = (spray: LocalSpray): string[] => (Array.isArray(spray.Grid_boxIDs) ? spray.Grid_boxIDs.map(String) : []);

/** The time an interval ends, or null for none (or a value that is not a time). */
function endOf(value: string | null | undefined): number | null {
  if (!value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/** Where a box stands in its re-entry interval: until when (the latest end of the sprays on it) and what was sprayed. */
export interface Reentry {
  /** ISO time the last running interval ends. */
  until: string;
  /** The products whose interval is running on the box, A–Z. */
  products: string[];
}

/**
 * The boxes inside a re-entry interval at `now`, each with the latest end of the sprays on it (a box
 * sprayed twice stays closed until the later one ends). A box whose intervals have all ended is not in
 * the map; an interval ends at its end time exactly.
 */
export function reentryByBox(sprays: readonly LocalSpray[], now: number): Map<string, Reentry> {
  const byBox = new Map<string, { end: number; until: string; products: Set<string> }>();
  for (const spray of sprays) {
    const end = endOf(spray.reentry_until);
    if (end === null || end <= now) continue;
    for (const boxId of boxIdsOf(spray)) {
      const entry = byBox.get(boxId) ?? { end, until: spray.reentry_until as string, products: new Set<string>() };
      if (end > entry.end) Object.assign(entry, { end, until: spray.reentry_until as string });
      if (spray.ProductName) entry.products.add(spray.ProductName);
      byBox.set(boxId, entry);
    }
  }
  return new Map([...byBox].map(([boxId, entry]) => [boxId, { until: entry.until, products: [...entry.products].sort((a, b) => a.localeCompare(b)) }]));
}

/** The first moment a marker of `byBox` goes away (ms), or null when none shows: a screen redraws then. */
export function nextReentryEnd(byBox: ReadonlyMap<string, Reentry>): number | null {
  let next: number | null = null;
  for (const { until } of byBox.values()) {
    const end = endOf(until);
    if (end !== null && (next === null || end < next)) next = end;
  }
  return next;
}

/** Where a batch grows: the boxes linked to it, and the grids it is linked to as a whole. */
export interface BatchPlaces {
  boxIds: readonly string[];
  gridIds: readonly string[];
}

/** Why a harvest should wait: when it becomes safe, and the sprays that hold it back. */
export interface PreharvestHold {
  /** ISO time the last pre-harvest interval on the batch's boxes ends. */
  safeFrom: string;
  /** The products whose interval is running, A–Z. */
  products: string[];
  /** How many of the batch's boxes are inside an interval. */
  boxes: number;
}

/**
 * Whether harvesting a batch at `now` falls inside a pre-harvest interval: a spray on one of its boxes
 * (or on any box of a grid it is linked to as a whole, `gridOfBox` naming a sprayed box's grid) whose
 * `preharvest_until` is still ahead. The batch is safe from the latest such end; null when nothing
 * holds it back. Room links do not count: a room holds other batches' benches too.
 */
export function preharvestHold(sprays: readonly LocalSpray[], places: BatchPlaces, gridOfBox: (boxId: string) => string | undefined, now: number): PreharvestHold | null {
  const boxes = new Set(places.boxIds.map(String));
  const grids = new Set(places.gridIds.map(String));
  const ofBatch = (boxId: string) => boxes.has(boxId) || grids.has(gridOfBox(boxId) ?? '\u0000');
  let latest: { end: number; until: string } | null = null;
  const products = new Set<string>();
  const held = new Set<string>();
  for (const spray of sprays) {
    const end = endOf(spray.preharvest_until);
    if (end === null || end <= now) continue;
    const touched = boxIdsOf(spray).filter(ofBatch);
    if (touched.length === 0) continue;
    for (const boxId of touched) held.add(boxId);
    if (spray.ProductName) products.add(spray.ProductName);
    if (!latest || end > latest.end) latest = { end, until: spray.preharvest_until as string };
  }
  return latest ? { safeFrom: latest.until, products: [...products].sort((a, b) => a.localeCompare(b)), boxes: held.size } : null;
}

/** The box ids of the sprays whose pre-harvest interval is still running at `now` (to look up their grids). */
export function preharvestBoxIds(sprays: readonly LocalSpray[], now: number): string[] {
  const ids = new Set<string>();
  for (const spray of sprays) {
    const end = endOf(spray.preharvest_until);
    if (end !== null && end > now) for (const boxId of boxIdsOf(spray)) ids.add(boxId);
  }
  return [...ids].sort();
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * When a re-entry interval ends, as short as a box can show it: "14:30" (24-hour, the tablet's time)
 * when it ends today, else the day first ("Sat 3 May 08:00", the reader's language for the day; its
 * formatter is made on first use, src/i18n/format.ts, not when the room's module loads).
 */
export function reentryEndText(until: string, now: number): string {
  const end = new Date(until);
  const time = `${twoDigits(end.getHours())}:${twoDigits(end.getMinutes())}`;
  return end.toDateString() === new Date(now).toDateString() ? time : `${formatDate(end, { weekday: 'short', day: 'numeric', month: 'short' })} ${time}`;
}
