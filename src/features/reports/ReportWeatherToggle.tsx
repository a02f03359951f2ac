/**
 * The "Outdoor weather" toggle of a report's trend chart (issue 18), what it shows in words (where,
 * fetched when, offline, clipped, failed, no location), and the weather drawn, by day, as a table for
 * screen readers and anyone who wants the numbers (folded: a year is 366 rows).
 */
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { WEATHER_SERIES_NAMES, type WeatherSeriesKey } from '../../../common/charts/weather-overlay';
import { formatNumber } from '../../i18n/format';
import { translateMessage } from '../../i18n/messages';
import { when } from '../rooms/model';
import { placeName } from '../weather/kept-weather';
import type { ReportWeather } from './report-weather';
import { reportsTexts } from './texts';

export function ReportWeatherToggle({ weather }: { weather: ReportWeather }) {
  const { t } = useTranslation(reportsTexts);
  const stateId = useId();
  const noLocation = weather.status === 'no-location';
  return (
    <div className="report-weather">
      <label className="report-weather-toggle no-print">
        <input type="checkbox" checked={weather.on && !noLocation} disabled={noLocation} aria-describedby={stateId} onChange={(event) => weather.setOn(event.target.checked)} /> {t('weather.toggle')}
      </label>
      <p id={stateId} className="report-weather-state" role="status">
        <StateText weather={weather} />
      </p>
      {weather.status === 'failed' && (
        <button type="button" className="button no-print" onClick={weather.reload}>
          {t('weather.retry')}
        </button>
      )}
    </div>
  );
}

/** What the weather shows now and why, in words. */
function StateText({ weather }: { weather: ReportWeather }) {
  const { t } = useTranslation(reportsTexts);
  const { shown } = weather;
  // A sentence naming where the weather shown is for and when it was fetched (its <time> element kept).
  const fetched = (key: 'weather.refreshing' | 'weather.current' | 'weather.offlineShown' | 'weather.failedShown') =>
    shown && <Trans t={t} i18nKey={key} values={{ place: placeName(shown.place), fetched: when(shown.fetchedAt) }} components={{ time: <time dateTime={shown.fetchedAt} /> }} />;
  const noteList = weather.notes.map(translateMessage);
  const notes = noteList.length > 0 && shown ? ` ${noteList.join(' ')}` : '';
  switch (weather.status) {
    case 'off':
      return null;
    case 'no-location':
      return <Trans t={t} i18nKey="weather.noLocation" components={{ profileLink: <Link to="/dashboard/profile" /> }} />;
    case 'no-days':
      return <>{noteList.join(' ')}</>;
    case 'loading':
      return <>{t('weather.loading')}</>;
    case 'refreshing':
      return (
        <>
          {fetched('weather.refreshing')}
          {notes}
        </>
      );
    case 'current':
      return (
        <>
          {fetched('weather.current')}
          {notes}
        </>
      );
    case 'offline':
      return shown ? (
        <>
          {fetched('weather.offlineShown')}
          {notes}
        </>
      ) : (
        <>{t('weather.offlineNone')}</>
      );
    case 'failed':
      return (
        <span className="error-text">
          {weather.error && translateMessage(weather.error)} {fetched('weather.failedShown')}
        </span>
      );
  }
}

/** A value to one decimal, as the reader writes numbers (+ 0: a value rounded to -0 reads 0). */
const valueText = (value: number | null | undefined) => (value === null || value === undefined ? '–' : formatNumber(Math.round(value * 10) / 10 + 0, { maximumFractionDigits: 1 }));

/** The days the overlay draws, as a table (folded); days without any value are left out. */
export function WeatherTable({ weather }: { weather: ReportWeather }) {
  const { t } = useTranslation(reportsTexts);
  const { overlay, shown } = weather;
  if (!overlay || !shown) return null;
  const { high, low, humidity, rain } = overlay.values;
  const rows = overlay.days.flatMap((day, index) => {
    const values = [high[index], low[index], humidity[index], rain[index]];
    return values.some((value) => value !== null && value !== undefined) ? [{ day, values }] : [];
  });
  if (rows.length === 0) return null;
  return (
    <details className="report-weather-days">
      <summary>{t('weather.byDay')}</summary>
      <div className="report-table-scroll">
        <table className="report-table">
          <caption>{t('weather.at', { place: placeName(shown.place) })}</caption>
          <thead>
            <tr>
              <th scope="col">{t('weather.day')}</th>
              {(Object.keys(WEATHER_SERIES_NAMES) as WeatherSeriesKey[]).map((key) => (
                <th key={key} scope="col">
                  {t(`weather.columns.${key}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.day}>
                <th scope="row">{row.day}</th>
                {row.values.map((value, index) => (
                  <td key={index}>{valueText(value)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
