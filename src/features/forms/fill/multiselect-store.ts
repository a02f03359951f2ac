/**
 * The multi-select form's state (spec part 2 §2 "Multi-select form state"): the page (1 picks boxes,
 * 2 is the form), page-one data (the chosen boxes), page-two data (the answers and photos), the
 * selected range start and end, the selected rows and columns, and how boxes are picked
 * (multiSelectType, initially 'Coordinates').
 *
 * Decisions where the spec is silent:
 * - Every way of picking feeds one set of chosen boxes: a tapped box, a range, a row or a column adds
 *   its boxes (and taking a row or column off again removes its boxes), so switching the way of picking
 *   keeps what was chosen.
 * - A row or column is a grid's row or column (`gridId:number`): a room's grids differ in size.
 * - The fill screen resets the state whenever it opens (a form is filled from the start), so one zustand
 *   store serves every fill screen; the fill screen also keeps the answers of a single-box or room form
 *   here (page-two data), so all answers live in one place.
 */
import { create } from 'zustand';

export const MULTI_SELECT_TYPES = ['Coordinates', 'Rows', 'Columns'] as const;
export type MultiSelectType = (typeof MULTI_SELECT_TYPES)[number];

export interface PageOneData {
  /** Chosen box ids (their client ids, the local store's keys), in the order chosen. */
  gridBoxIds: string[];
}

export interface PageTwoData {
  answers: Record<string, string>;
  photos: Record<string, Blob>;
}

export interface MultiSelectState {
  page: 1 | 2;
  pageOneData: PageOneData;
  pageTwoData: PageTwoData;
  /** Box ids of the range being picked: the start is set by the first tap, the end by the second. */
  rangeStart: string | null;
  rangeEnd: string | null;
  /** `gridId:y` of each selected row. */
  selectedRows: string[];
  /** `gridId:x` of each selected column. */
  selectedColumns: string[];
  multiSelectType: MultiSelectType;

  setPage(page: 1 | 2): void;
  setMultiSelectType(type: MultiSelectType): void;
  /** Adds a box when not chosen, removes it when it is. */
  toggleBox(boxId: string): void;
  addBoxes(boxIds: string[]): void;
  removeBoxes(boxIds: string[]): void;
  setRange(start: string | null, end: string | null): void;
  /** Selects or unselects a row (`gridId:y`) with its boxes. */
  toggleRow(rowKey: string, boxIds: string[]): void;
  /** Selects or unselects a column (`gridId:x`) with its boxes. */
  toggleColumn(columnKey: string, boxIds: string[]): void;
  clearBoxes(): void;
  answer(fieldId: string, value: string): void;
  photo(fieldId: string, photo: Blob | null): void;
  reset(): void;
}

const initial = () => ({
  page: 1 as const,
  pageOneData: { gridBoxIds: [] },
  pageTwoData: { answers: {}, photos: {} },
  rangeStart: null,
  rangeEnd: null,
  selectedRows: [],
  selectedColumns: [],
  multiSelectType: 'Coordinates' as const,
});

const withBoxes = (chosen: string[], boxIds: string[]) => [...chosen, ...boxIds.filter((id) => !chosen.includes(id))];
const withoutBoxes = (chosen: string[], boxIds: string[]) => chosen.filter((id) => !boxIds.includes(id));

export const useMultiSelect = create<MultiSelectState>((set) => ({
  ...initial(),
  setPage: (page) => set({ page }),
  setMultiSelectType: (multiSelectType) => set({ multiSelectType, rangeStart: null, rangeEnd: null }),
  toggleBox: (boxId) =>
    set((state) => ({
      pageOneData: { gridBoxIds: state.pageOneData.gridBoxIds.includes(boxId) ? withoutBoxes(state.pageOneData.gridBoxIds, [boxId]) : withBoxes(state.pageOneData.gridBoxIds, [boxId]) },
    })),
  addBoxes: (boxIds) => set((state) => ({ pageOneData: { gridBoxIds: withBoxes(state.pageOneData.gridBoxIds, boxIds) } })),
  removeBoxes: (boxIds) => set((state) => ({ pageOneData: { gridBoxIds: withoutBoxes(state.pageOneData.gridBoxIds, boxIds) } })),
  setRange: (rangeStart, rangeEnd) => set({ rangeStart, rangeEnd }),
  toggleRow: (rowKey, boxIds) =>
    set((state) =>
      state.selectedRows.includes(rowKey)
        ? { selectedRows: state.selectedRows.filter((key) => key !== rowKey), pageOneData: { gridBoxIds: withoutBoxes(state.pageOneData.gridBoxIds, boxIds) } }
        : { selectedRows: [...state.selectedRows, rowKey], pageOneData: { gridBoxIds: withBoxes(state.pageOneData.gridBoxIds, boxIds) } },
    ),
  toggleColumn: (columnKey, boxIds) =>
    set((state) =>
      state.selectedColumns.includes(columnKey)
        ? { selectedColumns: state.selectedColumns.filter((key) => key !== columnKey), pageOneData: { gridBoxIds: withoutBoxes(state.pageOneData.gridBoxIds, boxIds) } }
        : { selectedColumns: [...state.selectedColumns, columnKey], pageOneData: { gridBoxIds: withBoxes(state.pageOneData.gridBoxIds, boxIds) } },
    ),
  clearBoxes: () => set({ pageOneData: { gridBoxIds: [] }, selectedRows: [], selectedColumns: [], rangeStart: null, rangeEnd: null }),
  answer: (fieldId, value) => set((state) => ({ pageTwoData: { ...state.pageTwoData, answers: { ...state.pageTwoData.answers, [fieldId]: value } } })),
  photo: (fieldId, photo) =>
    set((state) => {
      const photos = { ...state.pageTwoData.photos };
      if (photo) photos[fieldId] = photo;
      else delete photos[fieldId];
      return { pageTwoData: { ...state.pageTwoData, photos } };
    }),
  reset: () => set(initial()),
}));
