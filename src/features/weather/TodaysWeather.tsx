/**
 * Today's weather on the dashboards (issue 18): the day's high and low, humidity, rain and what the
 * weather is, at the signed-in user's location (`update_location`, kept in the company's local
 * document with its users). Loading, offline and failure are said in words; offline, the weather last
 * fetched on this tablet shows with the time it was fetched (hooks.ts).
 *
 * Where the spec is silent: a user without a location is offered the field here, saved as the profile
 * saves it (a queued `update_location`); a location the weather cannot find says so and offers the
 * field again. An outside consultant, who may not set a location (read-only), sees no card.
 */
import { Link } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { sessionMessages } from '../../../common/messages/session';
import { weatherCodeText } from '../../../common/messages/weather';
import { deferred } from '../../app/deferred';
import { type SignedInUser, useAction, useSignedInUser } from '../../app/hooks';
import { useCompany } from '../company/useCompany';
import { when } from '../rooms/model';
import { type TodaysWeatherRead, useTodaysWeather } from './hooks';
import { type KeptWeather, placeName } from './kept-weather';
import './weather.css';

// A write of the profile's, loaded on first use: the dashboard paints without the request schemas.
const updateLocation = deferred(() => import('../../api/users'), 'updateLocation');

/** A measured value as Open-Meteo gives it (one decimal at most), with its unit; a value not known yet says so. */
function measured(value: number | null, unit: string): string {
  return value === null ? 'not known yet' : `${Math.round(value * 10) / 10} ${unit}`;
}

/** A day as the tablet's locale writes it ("3 May 2026"). */
function dayText(date: string): string {
  const day = new Date(`${date}T12:00:00`);
  return Number.isNaN(day.getTime()) ? date : day.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

export function TodaysWeather() {
  const user = useSignedInUser();
  const company = useCompany(user?.companyId);
  const me = user ? company.document?.users?.find((candidate) => candidate.user_id === user.userId) : undefined;
  // Saved from this card: the user's location until the company's document shows it (a SuperAdmin
  // reading another company is not among its users, so it never would).
  const [savedHere, setSavedHere] = useState<string | null>(null);
  const location = me?.location?.trim() || savedHere;
  const weather = useTodaysWeather(user?.userId ?? null, location ?? null);
  // Until the company's document is read, a missing location is only not known yet: no field offered.
  const read: TodaysWeatherRead = user && !company.loading ? weather : { ...weather, status: 'loading' };
  const [editing, setEditing] = useState(false);

  // The weather is at the user's own location, which an outside consultant (read-only) cannot set.
  if (user?.role === 'Consultant') return null;

  return (
    <section className="card weather-card" aria-labelledby="todays-weather">
      <div className="weather-head">
        <h2 id="todays-weather">Today’s weather</h2>
        {read.weather && <p className="weather-place">{placeName(read.weather.place)}</p>}
      </div>
      {read.weather && <WeatherFigures weather={read.weather} today={read.today} />}
      <p className="weather-state" role="status">
        <StateText read={read} />
      </p>
      {user && (read.status === 'no-location' || editing) ? (
        <LocationForm
          user={user}
          current={location ?? ''}
          onSaved={(saved) => {
            setSavedHere(saved);
            setEditing(false);
          }}
          onCancel={read.status === 'no-location' ? undefined : () => setEditing(false)}
        />
      ) : (
        <div className="weather-actions">
          {(read.status === 'current' || read.status === 'failed') && (
            <button type="button" className="button" onClick={read.reload}>
              Refresh
            </button>
          )}
          <button type="button" className="button" onClick={() => setEditing(true)}>
            Change location
          </button>
        </div>
      )}
    </section>
  );
}

function WeatherFigures({ weather, today }: { weather: KeptWeather; today: string }) {
  const { weather: day } = weather;
  const description = weatherCodeText(day.weather_code);
  return (
    <>
      {weather.date !== today && <p className="weather-day">Weather of {dayText(weather.date)}</p>}
      {description && <p className="weather-description">{description}</p>}
      <dl className="weather-figures">
        <div>
          <dt>High</dt>
          <dd>{measured(day.temperature_max, '°C')}</dd>
        </div>
        <div>
          <dt>Low</dt>
          <dd>{measured(day.temperature_min, '°C')}</dd>
        </div>
        <div>
          <dt>Humidity</dt>
          <dd>{measured(day.humidity_mean, '%')}</dd>
        </div>
        <div>
          <dt>Rain</dt>
          <dd>{measured(day.precipitation, 'mm')}</dd>
        </div>
      </dl>
    </>
  );
}

/** What the card can and cannot do now, in words. */
function StateText({ read }: { read: TodaysWeatherRead }) {
  const fetched = read.weather && (
    <>
      fetched <time dateTime={read.weather.fetchedAt}>{when(read.weather.fetchedAt)}</time>
    </>
  );
  switch (read.status) {
    case 'no-location':
      return <>Set your location to see today’s weather here.</>;
    case 'loading':
      return <>Loading today’s weather…</>;
    case 'refreshing':
      return <>Refreshing… Showing the weather {fetched}.</>;
    case 'current':
      return <>Weather {fetched}.</>;
    case 'offline':
      return fetched ? (
        <>Offline: showing the weather {fetched}. It cannot be refreshed until the connection returns.</>
      ) : (
        <>Offline: today’s weather cannot be fetched until the connection returns.</>
      );
    case 'failed':
      return (
        <span className="error-text">
          {read.error} {fetched && <>Showing the weather {fetched}.</>}
        </span>
      );
  }
}

function LocationForm({ user, current, onSaved, onCancel }: { user: SignedInUser; current: string; onSaved: (location: string) => void; onCancel?: () => void }) {
  const [draft, setDraft] = useState(current);
  const save = useAction(updateLocation, sessionMessages.locationUpdated, { inlineErrors: true });
  const inputId = useId();
  const hintId = useId();
  async function submit(event: FormEvent) {
    event.preventDefault();
    const location = draft.trim();
    if (await save.run({ userId: user.userId, location })) onSaved(location);
  }
  return (
    <form className="weather-location" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor={inputId}>Your location</label>
      <p id={hintId} className="muted">
        A place name, such as “Westland, NL”, or coordinates, such as “52.0,4.2”. It is your <Link to="/dashboard/profile">profile</Link>’s location.
      </p>
      <div className="weather-location-row">
        <input id={inputId} aria-describedby={hintId} value={draft} onChange={(event) => setDraft(event.target.value)} autoComplete="off" enterKeyHint="done" />
        <button className="button primary" type="submit" disabled={save.busy}>
          Save location
        </button>
        {onCancel && (
          <button className="button" type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {save.error && (
        <p className="error-text" role="alert">
          {save.error}
        </p>
      )}
    </form>
  );
}
