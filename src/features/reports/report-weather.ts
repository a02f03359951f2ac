/**
 * A report's outdoor weather (issue 18, "the report overlay"): whether it is shown, and what it shows.
 *
 * Decision: the choice is remembered per report on this tablet (local storage
 * `growroom.report-weather.<reportId>`), not in the saved report's filters, though they keep any field
 * sent: a report's filters change only through save_report, a queued write of the whole report that
 * its author or an Admin may make, and a grower who turns the weather on to look at it is neither
 * changing the report nor, usually, allowed to. The builder's preview starts off and hands its choice
 * to the report it saves.
 *
 * The weather is read only while the overlay is on, for the report's weeks (clipped to what
 * weather_range can answer), at the signed-in user's location; the read itself loads with the weather's
 * domain functions on first use (features/weather/hooks.ts), so a report's first paint is unchanged.
 */
import { useCallback, useMemo, useState } from 'react';
import type { ChartModel } from '../../../common/charts/chart-model';
import { clipWeatherPeriod, isWeekly, type WeatherOverlay, weatherOverlayOf, weatherPeriodOf } from '../../../common/charts/weather-overlay';
import type { ChartType } from '../../../common/messages/reports';
import { type ReportPeriod, todayUtc } from '../../../common/schemas/report-dates';
import { useMyLocation, useWeatherRange, type WeatherStatus } from '../weather/hooks';
import type { KeptWeatherRange } from '../weather/kept-weather-range';

const KEY_PREFIX = 'growroom.report-weather.';

/** Whether the report's outdoor weather was left on on this tablet (off by default). */
export function weatherRemembered(reportId: string): boolean {
  try {
    return localStorage.getItem(`${KEY_PREFIX}${reportId}`) === '1';
  } catch {
    return false;
  }
}

export function rememberWeather(reportId: string, on: boolean): void {
  try {
    if (on) localStorage.setItem(`${KEY_PREFIX}${reportId}`, '1');
    else localStorage.removeItem(`${KEY_PREFIX}${reportId}`);
  } catch {
    // Storage refused (a private window): the choice holds while the report is open.
  }
}

/** The overlay's choice for a saved report: remembered on this tablet. */
export function useRememberedWeather(reportId: string): [boolean, (on: boolean) => void] {
  const [choice, setChoice] = useState<{ reportId: string; on: boolean } | null>(null);
  // Read once per report, not on every render (a dashboard re-renders with each sync status).
  const remembered = useMemo(() => weatherRemembered(reportId), [reportId]);
  const on = choice?.reportId === reportId ? choice.on : remembered;
  const choose = useCallback(
    (next: boolean) => {
      rememberWeather(reportId, next);
      setChoice({ reportId, on: next });
    },
    [reportId],
  );
  return [on, choose];
}

/**
 * - `off`: not asked for.
 * - `no-location`: the user has none (on or off): the toggle says to set one.
 * - `no-days`: no day of the report's period has weather (all of it beyond the forecast, say).
 * - the others as a weather read's (features/weather/hooks.ts `WeatherStatus`).
 */
export type ReportWeatherStatus = WeatherStatus | 'off' | 'no-days';

/** What a report's chart needs of its weather: the toggle's state, what it says, and the overlay to draw. */
export interface ReportWeather {
  on: boolean;
  setOn: (on: boolean) => void;
  status: ReportWeatherStatus;
  /** Where clipping left days out, in words. */
  notes: string[];
  /** The range shown (just read or kept), with its place and when it was fetched. */
  shown: KeptWeatherRange | null;
  error: string | null;
  overlay: WeatherOverlay | null;
  reload: () => void;
}

/**
 * The outdoor weather of a report's chart, or null when the chart takes none (not a weekly trend, or a
 * heat map). `period`: the report's own dates, when it has some (weather-overlay.ts `weatherPeriodOf`).
 */
export function useReportWeather(input: { model: ChartModel; kind: ChartType; period: ReportPeriod | null; on: boolean; setOn: (on: boolean) => void }): ReportWeather | null {
  const { model, kind, on, setOn } = input;
  const offered = kind !== 'heatmap' && isWeekly(model.categories);
  const periodKey = `${model.categories.join(',')}|${input.period?.start ?? ''}|${input.period?.end ?? ''}`;
  const clipped = useMemo(() => {
    const period = offered ? weatherPeriodOf(model.categories, input.period) : null;
    return period ? clipWeatherPeriod(period, todayUtc()) : { period: null, notes: [] };
    // The period is described by its text (periodKey): a new model object of the same weeks asks nothing anew.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [offered, periodKey]);
  const place = useMyLocation();
  const read = useWeatherRange(place.userId, place.location, on && offered ? clipped.period : null);
  const overlay = useMemo(() => (on && offered && read.weather ? weatherOverlayOf(model.categories, read.weather.days) : null), [on, offered, read.weather, model.categories]);
  if (!offered) return null;
  let status: ReportWeatherStatus;
  if (!place.loading && !place.location) status = 'no-location';
  else if (!on) status = 'off';
  else if (place.loading) status = 'loading';
  else if (!clipped.period) status = 'no-days';
  else status = read.status;
  return { on, setOn, status, notes: clipped.notes, shown: on ? read.weather : null, error: read.error, overlay, reload: read.reload };
}
