/**
 * The screens' UI state (spec part 1 §2 and part 2 §2 "screen-level state", part 2 §4 "local state
 * persisted in the browser"), one zustand store for every screen. Data lives in the local database;
 * this holds only what the grower picked on the screens.
 *
 * Persisted in the browser (localStorage key `growroom-ui`), as part 2 §4 lists: language,
 * auto-refresh, sticky-trap render value, scroll page and weather; and the room's box size, a
 * grower's choice for this tablet's screen, and each room's grid ids as last shown (a room's boxes are
 * asked for from the local store at once on the next visit, without waiting for its grids to be read).
 * The rest starts from its default on every page load.
 *
 * Where the spec is silent:
 * - report type starts unset (null): the reports screen asks for one.
 * - scroll page is kept per room (room id → the StartScroll position last shown), since a grower
 *   walks several rooms.
 * - weather keeps the last location asked for and the last answers (today, range), so the screen
 *   shows them offline.
 * - language, auto-refresh and sticky-trap render mirror the company's settings whenever the tablet
 *   reads them (`mirrorCompanySettings`), so a screen shows the company's values offline too.
 */
import { useMemo } from 'react';
import { weekStartDay } from '../../i18n/format';
import { create } from 'zustand';
import { createJSONStorage, persist, type StateStorage } from 'zustand/middleware';

export type DateOption = 'date_range' | 'weeks_ago' | 'batch_related_date';

/** The dates a week-based screen asks for: Monday to Sunday, date-only (spec part 1 §9). */
export interface WeekRange {
  start_date: string;
  end_date: string;
}

export interface WeatherState {
  location: string | null;
  today: unknown;
  range: unknown;
  fetchedAt: string | null;
}

export interface UiValues {
  reportType: string | null;
  chartType: string;
  dateOption: DateOption;
  selectedRoomIds: Array<number | string>;
  selectedPlantProblems: string[];
  /** 0 is this week, -1 last week, 1 next week: the dashboard week range moves 7 days per step. */
  weekOffset: number;
  stickyTrapRender: number;
  autoRefresh: 0 | 1;
  language: string;
  scrollPages: Record<string, number>;
  /** How large a room's boxes are drawn on this tablet: small fits a whole grid, large reads with gloves on. */
  boxSize: BoxSize;
  /** Room id → its grids' ids as last shown, in the screen's order. */
  roomGridIds: Record<string, string[]>;
  weather: WeatherState;
}

export const BOX_SIZES = ['small', 'medium', 'large'] as const;
export type BoxSize = (typeof BOX_SIZES)[number];

export interface UiActions {
  setReportType(reportType: string | null): void;
  setChartType(chartType: string): void;
  setDateOption(dateOption: DateOption): void;
  setSelectedRoomIds(ids: Array<number | string>): void;
  setSelectedPlantProblems(problems: string[]): void;
  /** Moves the week range by `weeks` (negative: back in time). */
  shiftWeek(weeks: number): void;
  resetWeek(): void;
  setStickyTrapRender(value: number): void;
  setAutoRefresh(value: 0 | 1): void;
  setLanguage(language: string): void;
  setScrollPage(roomId: number | string, value: number): void;
  setBoxSize(boxSize: BoxSize): void;
  setRoomGridIds(roomId: string, gridIds: string[]): void;
  setWeather(weather: Partial<WeatherState>): void;
  /** Copies the company's settings the UI state also holds (the tablet's last known values). */
  mirrorCompanySettings(settings: { language?: unknown; auto_refresh?: unknown; stickytrap_render?: unknown }): void;
}

export type UiState = UiValues & UiActions;

/** The spec's defaults (part 1 §2, part 2 §2, §9). */
export const UI_DEFAULTS: UiValues = {
  reportType: null,
  chartType: 'line',
  dateOption: 'date_range',
  selectedRoomIds: [],
  selectedPlantProblems: [],
  weekOffset: 0,
  stickyTrapRender: 1,
  autoRefresh: 0,
  language: 'en',
  scrollPages: {},
  boxSize: 'medium',
  roomGridIds: {},
  weather: { location: null, today: null, range: null, fetchedAt: null },
};

/** What part 2 §4 persists in the browser. */
export const PERSISTED_KEYS = ['language', 'autoRefresh', 'stickyTrapRender', 'scrollPages', 'boxSize', 'roomGridIds', 'weather'] as const satisfies ReadonlyArray<keyof UiValues>;

export const UI_STORAGE_KEY = 'growroom-ui';

const dateOnly = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * The dashboard week range (spec part 1 §2, §9): the first day of `today`'s week (local time; the
 * reader's language says which day that is, common/i18n/languages.ts: Monday, the spec's) moved by 7 days
 * per `offset`, to the day six days later.
 */
export function weekRange(offset: number, today: Date = new Date(), weekStart: number = 1): WeekRange {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  const sinceWeekStart = (start.getDay() - weekStart + 7) % 7;
  start.setDate(start.getDate() - sinceWeekStart + 7 * offset);
  const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 6);
  return { start_date: dateOnly(start), end_date: dateOnly(end) };
}

/**
 * A UI state store persisted in `storage` (the page's localStorage by default; tests pass their own).
 * Where no storage is available it still works, unpersisted.
 */
export function createUiState(storage: () => StateStorage = () => localStorage) {
  return create<UiState>()(
    persist(
      (set) => ({
        ...UI_DEFAULTS,
        setReportType: (reportType) => set({ reportType }),
        setChartType: (chartType) => set({ chartType }),
        setDateOption: (dateOption) => set({ dateOption }),
        setSelectedRoomIds: (selectedRoomIds) => set({ selectedRoomIds: [...selectedRoomIds] }),
        setSelectedPlantProblems: (selectedPlantProblems) => set({ selectedPlantProblems: [...selectedPlantProblems] }),
        shiftWeek: (weeks) => set((state) => ({ weekOffset: state.weekOffset + weeks })),
        resetWeek: () => set({ weekOffset: 0 }),
        setStickyTrapRender: (stickyTrapRender) => set({ stickyTrapRender }),
        setAutoRefresh: (autoRefresh) => set({ autoRefresh }),
        setLanguage: (language) => set({ language }),
        setScrollPage: (roomId, value) => set((state) => ({ scrollPages: { ...state.scrollPages, [String(roomId)]: value } })),
        setBoxSize: (boxSize) => set({ boxSize }),
        setRoomGridIds: (roomId, gridIds) => set((state) => ({ roomGridIds: { ...state.roomGridIds, [roomId]: [...gridIds] } })),
        setWeather: (weather) => set((state) => ({ weather: { ...state.weather, ...weather } })),
        mirrorCompanySettings: (settings) =>
          set((state) => {
            const next: Partial<UiValues> = {};
            if (typeof settings.language === 'string' && settings.language && settings.language !== state.language) next.language = settings.language;
            if ((settings.auto_refresh === 0 || settings.auto_refresh === 1) && settings.auto_refresh !== state.autoRefresh) next.autoRefresh = settings.auto_refresh;
            if (typeof settings.stickytrap_render === 'number' && Number.isFinite(settings.stickytrap_render) && settings.stickytrap_render !== state.stickyTrapRender) {
              next.stickyTrapRender = settings.stickytrap_render;
            }
            return next;
          }),
      }),
      {
        name: UI_STORAGE_KEY,
        version: 1,
        storage: createJSONStorage(storage),
        partialize: (state) => Object.fromEntries(PERSISTED_KEYS.map((key) => [key, state[key]])) as Pick<UiValues, (typeof PERSISTED_KEYS)[number]>,
      },
    ),
  );
}

/** The page's UI state. */
export const useUiState = createUiState();

/** The current dashboard week range (recomputed when the offset changes). */
export function useWeekRange(): WeekRange {
  const offset = useUiState((state) => state.weekOffset);
  const weekStart = weekStartDay();
  return useMemo(() => weekRange(offset, new Date(), weekStart), [offset, weekStart]);
}
