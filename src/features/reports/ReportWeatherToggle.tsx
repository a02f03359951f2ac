/**
 * The "Outdoor weather" toggle of a report's trend chart (issue 18), what it shows in words (where,
 * fetched when, offline, clipped, failed, no location), and the weather drawn, by day, as a table for
 * screen readers and anyone who wants the numbers (folded: a year is 366 rows).
 */
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { WEATHER_SERIES_NAMES } from '../../../common/charts/weather-overlay';
import { when } from '../rooms/model';
import { placeName } from '../weather/kept-weather';
import type { ReportWeather } from './report-weather';

export function ReportWeatherToggle({ weather }: { weather: ReportWeather }) {
  const stateId = useId();
  const noLocation = weather.status === 'no-location';
  return (
    <div className="report-weather">
      <label className="report-weather-toggle no-print">
        <input type="checkbox" checked={weather.on && !noLocation} disabled={noLocation} aria-describedby={stateId} onChange={(event) => weather.setOn(event.target.checked)} /> Outdoor weather
      </label>
      <p id={stateId} className="report-weather-state" role="status">
        <StateText weather={weather} />
      </p>
      {weather.status === 'failed' && (
        <button type="button" className="button no-print" onClick={weather.reload}>
          Try the weather again
        </button>
      )}
    </div>
  );
}

/** What the weather shows now and why, in words. */
function StateText({ weather }: { weather: ReportWeather }) {
  const { shown } = weather;
  const fetched = shown && (
    <>
      at {placeName(shown.place)}, fetched <time dateTime={shown.fetchedAt}>{when(shown.fetchedAt)}</time>
    </>
  );
  const notes = weather.notes.length > 0 && shown ? ` ${weather.notes.join(' ')}` : '';
  switch (weather.status) {
    case 'off':
      return null;
    case 'no-location':
      return (
        <>
          Outdoor weather needs your location: set it in your <Link to="/dashboard/profile">profile</Link>.
        </>
      );
    case 'no-days':
      return <>{weather.notes.join(' ')}</>;
    case 'loading':
      return <>Loading the outdoor weather…</>;
    case 'refreshing':
      return (
        <>
          Refreshing… Showing the outdoor weather {fetched}.{notes}
        </>
      );
    case 'current':
      return (
        <>
          Outdoor weather {fetched}.{notes}
        </>
      );
    case 'offline':
      return shown ? (
        <>
          Offline: showing the outdoor weather {fetched}. It refreshes when the connection returns.{notes}
        </>
      ) : (
        <>Offline: the outdoor weather needs a connection, and none for this period is kept on this tablet.</>
      );
    case 'failed':
      return (
        <span className="error-text">
          {weather.error} {shown && <>Showing the outdoor weather {fetched}.</>}
        </span>
      );
  }
}

const valueText = (value: number | null | undefined) => (value === null || value === undefined ? '–' : String(Math.round(value * 10) / 10));

/** The days the overlay draws, as a table (folded); days without any value are left out. */
export function WeatherTable({ weather }: { weather: ReportWeather }) {
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
      <summary>Outdoor weather by day</summary>
      <div className="report-table-scroll">
        <table className="report-table">
          <caption>Outdoor weather at {placeName(shown.place)}</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              {Object.values(WEATHER_SERIES_NAMES).map((name) => (
                <th key={name} scope="col">
                  {name.replace(/^Outdoor /, '').replace(/^./, (first) => first.toUpperCase())}
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
