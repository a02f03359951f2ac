/**
 * What the fill screen works out from the local store, as pure functions: which boxes are meant and how
 * they are called (numbers by the company's grid order), the boxes of a range, the order templates are
 * offered in, and the answers a submission sends.
 */
import { FORM_CATEGORIES } from '../../../../common/messages/forms';
import type { GridOrder } from '../../../../common/messages/settings';
import { boxNumber } from '../../../../common/grid-order';
import type { FormTemplateRecord } from '../../../../common/schemas/forms';
import type { Answer, Photo } from '../../../api/form-responses';
import { i18next } from '../../../i18n/i18n';
import { type BoxDoc, boxLabel, type GridDoc, gridSize } from '../../rooms/model';
import { shownFields } from '../FormFields';
import { formsTexts } from '../texts';

/** A box with its grid, its number and what the screens call it. */
export interface PlacedBox {
  box: BoxDoc;
  grid: GridDoc | null;
  number: number;
  label: string;
}

/** The boxes placed in their grids (numbered as the company numbers them), by grid then number. */
export function placeBoxes(boxes: BoxDoc[], grids: GridDoc[], allBoxesOfGrids: BoxDoc[], order: GridOrder): PlacedBox[] {
  const gridById = new Map(grids.map((grid) => [grid.id, grid]));
  const placed = boxes.map((box) => {
    const grid = gridById.get(box.gridId) ?? null;
    const { nx, ny } = grid ? gridSize(grid, allBoxesOfGrids.filter((each) => each.gridId === grid.id)) : { nx: 1, ny: 1 };
    const number = boxNumber(order, Number(box.X) || 1, Number(box.Y) || 1, nx, ny);
    return { box, grid, number, label: boxLabel(box, number) };
  });
  const gridOrder = grids.map((grid) => grid.id);
  return placed.sort((a, b) => gridOrder.indexOf(a.box.gridId) - gridOrder.indexOf(b.box.gridId) || a.number - b.number);
}

/** Whether a box is called by its number only (no name of its own): "Box 3". */
export const numberedOnly = (each: PlacedBox) => each.label === boxLabel({ ...each.box, CustomName: null }, each.number);

/**
 * "Bench A: box 3" / "Bench A: boxes 3, 4 (Mother 1), 5; Bench B: box 1" — what a Coordinates field
 * records, in the reader's language (called at render or submit, never kept from an earlier language).
 */
export function describeBoxes(placed: PlacedBox[]): string {
  const byGrid = new Map<string, PlacedBox[]>();
  for (const each of placed) {
    const name = each.grid?.Name ?? i18next.t('coordinates.unnamedGrid', { ns: formsTexts });
    byGrid.set(name, [...(byGrid.get(name) ?? []), each]);
  }
  return [...byGrid.entries()]
    .map(([grid, boxes]) => {
      const names = boxes.map((each) => (numberedOnly(each) ? String(each.number) : `${each.number} (${each.label})`));
      return i18next.t('coordinates.boxes', { ns: formsTexts, count: boxes.length, grid, boxes: names.join(', ') });
    })
    .join('; ');
}

/**
 * The boxes of a range (decision: a range runs from the start box to the end box in the company's box
 * numbering, both included, as growers count plants along a bench), within the start box's grid.
 * Culled positions are left out: there is no plant to observe. Empty when the two are in different grids.
 */
export function boxesInRange(start: PlacedBox, end: PlacedBox, gridBoxes: PlacedBox[]): PlacedBox[] {
  if (start.box.gridId !== end.box.gridId) return [];
  const [low, high] = start.number <= end.number ? [start.number, end.number] : [end.number, start.number];
  return gridBoxes.filter((each) => each.box.gridId === start.box.gridId && each.number >= low && each.number <= high && each.box.culled !== true);
}

/** Templates as they are offered: by category (the app's order), the category's default first, then by name. */
export function templatesInOrder<T extends Pick<FormTemplateRecord, 'FormCategory' | 'IsDefault' | 'TemplateName'>>(templates: T[]): T[] {
  const rank = (category: string) => {
    const index = (FORM_CATEGORIES as readonly string[]).indexOf(category);
    return index === -1 ? FORM_CATEGORIES.length : index;
  };
  return [...templates].sort(
    (a, b) =>
      rank(a.FormCategory) - rank(b.FormCategory) ||
      Number(Boolean(b.IsDefault)) - Number(Boolean(a.IsDefault)) ||
      a.TemplateName.localeCompare(b.TemplateName, undefined, { numeric: true, sensitivity: 'base' }),
  );
}

/**
 * What a submission sends: an answer for every field that shows (blank ones as null, so the response
 * records the question was asked), a Coordinates field answered with the boxes being filled when the
 * screen knows them, and the photos of the Image fields that show.
 */
export function submissionOf(template: FormTemplateRecord, answers: Record<string, string>, photos: Record<string, Blob>, coordinates: string | null): { fieldResponses: Answer[]; photos: Photo[] } {
  const fields = shownFields(template, answers, photos);
  const fieldResponses = fields.map((field): Answer => {
    const fieldId = String(field.FieldID);
    const typed = field.FieldType === 'Coordinates' && coordinates ? coordinates : (answers[fieldId] ?? '');
    return { fieldId: field.FieldID, inputData: typed.trim() === '' ? null : typed };
  });
  const photoList = fields
    .filter((field) => field.FieldType === 'Image' && photos[String(field.FieldID)])
    .map((field): Photo => {
      const image = photos[String(field.FieldID)]!;
      return { fieldId: field.FieldID, image, ...(image instanceof File && image.name ? { fileName: image.name } : {}) };
    });
  return { fieldResponses, photos: photoList };
}
