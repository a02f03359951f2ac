/** The screens' UI state (src/features/ui-state): the spec's defaults, the week range rule, and what the browser keeps. */
import { describe, expect, it } from 'vitest';
import type { StateStorage } from 'zustand/middleware';
import { createUiState, PERSISTED_KEYS, UI_DEFAULTS, UI_STORAGE_KEY, weekRange } from '../../src/features/ui-state/ui-state';

/** A localStorage stand-in. */
function memoryStorage(items = new Map<string, string>()): StateStorage & { items: Map<string, string> } {
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}

describe('UI state defaults (spec part 1 §2, part 2 §2)', () => {
  it('starts with chart type line, date option date_range, nothing selected, this week, sticky-trap render 1 and auto refresh 0', () => {
    const state = createUiState(() => memoryStorage()).getState();
    expect(state).toMatchObject({
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
      weather: { location: null, today: null, range: null, fetchedAt: null },
    });
    expect(UI_DEFAULTS.chartType).toBe('line');
  });
});

describe('weekRange (spec part 1 §2, §9: Monday to Sunday, 7 days per offset)', () => {
  it('runs from the Monday of the week to the Sunday six days later, whatever the day', () => {
    // 2024-05-13 is a Monday.
    for (let day = 13; day <= 19; day += 1) {
      expect(weekRange(0, new Date(2024, 4, day, 15, 30))).toEqual({ start_date: '2024-05-13', end_date: '2024-05-19' });
    }
  });

  it('moves 7 days per offset, across months and years', () => {
    const wednesday = new Date(2024, 4, 15);
    expect(weekRange(-1, wednesday)).toEqual({ start_date: '2024-05-06', end_date: '2024-05-12' });
    expect(weekRange(1, wednesday)).toEqual({ start_date: '2024-05-20', end_date: '2024-05-26' });
    expect(weekRange(3, wednesday)).toEqual({ start_date: '2024-06-03', end_date: '2024-06-09' });
    // Sunday 2023-12-31 belongs to the week starting Monday 2023-12-25; the next week crosses the year.
    expect(weekRange(0, new Date(2023, 11, 31))).toEqual({ start_date: '2023-12-25', end_date: '2023-12-31' });
    expect(weekRange(1, new Date(2023, 11, 31))).toEqual({ start_date: '2024-01-01', end_date: '2024-01-07' });
  });

  it('starts on the day the reader’s language starts its week on (Sunday, say)', () => {
    // 2024-05-12 is a Sunday: the Sunday week holding Wednesday 2024-05-15 runs to Saturday the 18th.
    expect(weekRange(0, new Date(2024, 4, 15), 0)).toEqual({ start_date: '2024-05-12', end_date: '2024-05-18' });
    expect(weekRange(0, new Date(2024, 4, 12), 0)).toEqual({ start_date: '2024-05-12', end_date: '2024-05-18' });
    expect(weekRange(-1, new Date(2024, 4, 11), 0)).toEqual({ start_date: '2024-04-28', end_date: '2024-05-04' });
  });

  it('is what the store’s week offset gives: shiftWeek moves it, resetWeek brings it back', () => {
    const store = createUiState(() => memoryStorage());
    store.getState().shiftWeek(-2);
    store.getState().shiftWeek(1);
    expect(store.getState().weekOffset).toBe(-1);
    store.getState().resetWeek();
    expect(store.getState().weekOffset).toBe(0);
  });
});

describe('what the browser keeps (spec part 2 §4)', () => {
  it('persists language, auto refresh, sticky-trap render, scroll page, box size, room grid ids and weather, and nothing else', () => {
    const storage = memoryStorage();
    const store = createUiState(() => storage);
    const state = store.getState();
    state.setLanguage('pt-BR');
    state.setAutoRefresh(1);
    state.setStickyTrapRender(3);
    state.setScrollPage(12, 4);
    state.setBoxSize('large');
    state.setRoomGridIds('room-a', ['grid-1', 'grid-2']);
    state.setWeather({ location: 'Leamington', fetchedAt: '2024-05-15T10:00:00Z' });
    state.setChartType('bar');
    state.setDateOption('weeks_ago');
    state.setSelectedRoomIds([1, 2]);
    state.shiftWeek(1);

    const kept = JSON.parse(storage.items.get(UI_STORAGE_KEY) ?? '{}') as { state: Record<string, unknown> };
    expect(Object.keys(kept.state).sort()).toEqual([...PERSISTED_KEYS].sort());
    expect(kept.state).toEqual({
      language: 'pt-BR',
      autoRefresh: 1,
      stickyTrapRender: 3,
      scrollPages: { '12': 4 },
      boxSize: 'large',
      roomGridIds: { 'room-a': ['grid-1', 'grid-2'] },
      weather: { location: 'Leamington', today: null, range: null, fetchedAt: '2024-05-15T10:00:00Z' },
    });

    // A new page load: the kept values come back, the others start from their defaults.
    const reloaded = createUiState(() => storage).getState();
    expect(reloaded).toMatchObject({ language: 'pt-BR', autoRefresh: 1, stickyTrapRender: 3, scrollPages: { '12': 4 }, boxSize: 'large', chartType: 'line', dateOption: 'date_range', selectedRoomIds: [], weekOffset: 0 });
  });

  it('mirrors the company’s language, auto refresh and sticky-trap render, ignoring values it cannot use', () => {
    const store = createUiState(() => memoryStorage());
    store.getState().mirrorCompanySettings({ language: 'es', auto_refresh: 1, stickytrap_render: 2.5 });
    expect(store.getState()).toMatchObject({ language: 'es', autoRefresh: 1, stickyTrapRender: 2.5 });
    store.getState().mirrorCompanySettings({ language: '', auto_refresh: 7, stickytrap_render: 'x' });
    expect(store.getState()).toMatchObject({ language: 'es', autoRefresh: 1, stickyTrapRender: 2.5 });
  });
});
