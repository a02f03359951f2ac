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
import { Trans, useTranslation } from 'react-i18next';
import { sessionMessages } from '../../../common/messages/session';
import { weatherCodeText } from '../../../common/messages/weather';
import { deferred } from '../../app/deferred';
import { type SignedInUser, useAction, useSignedInUser } from '../../app/hooks';
import { formatDate, formatNumber } from '../../i18n/format';
import { i18next } from '../../i18n/i18n';
import { translateMessage } from '../../i18n/messages';
import { useCompany } from '../company/useCompany';
import { when } from '../rooms/model';
import { type TodaysWeatherRead, useTodaysWeather } from './hooks';
import { type KeptWeather, placeName } from './kept-weather';
import './weather.css';
import { weatherTexts } from './texts';

// A write of the profile's, loaded on first use: the dashboard paints without the request schemas.
const updateLocation = deferred(() => import('../../api/users'), 'updateLocation');

/** A measured value as Open-Meteo gives it (one decimal at most), with its unit; a value not known yet says so. */
function measured(value: number | null, unit: 'celsius' | 'percent' | 'millimetres'): string {
  if (value === null) return i18next.t('notKnownYet', { ns: weatherTexts });
  // `+ 0`: a rounded -0.04 is -0, which Intl would write "-0".
  return i18next.t(`units.${unit}`, { ns: weatherTexts, value: formatNumber(Math.round(value * 10) / 10 + 0, { maximumFractionDigits: 1, useGrouping: false }) });
}

/** A day as the reader writes it ("3 May 2026"); the stored text when it is no date. */
function dayText(date: string): string {
  return formatDate(`${date}T12:00:00`, { dateStyle: 'medium' }) || date;
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
  const { t } = useTranslation(weatherTexts);

  // The weather is at the user's own location, which an outside consultant (read-only) cannot set.
  if (user?.role === 'Consultant') return null;

  return (
    <section className="card weather-card" aria-labelledby="todays-weather">
      <div className="weather-head">
        <h2 id="todays-weather">{t('heading')}</h2>
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
              {t('refresh')}
            </button>
          )}
          <button type="button" className="button" onClick={() => setEditing(true)}>
            {t('changeLocation')}
          </button>
        </div>
      )}
    </section>
  );
}

function WeatherFigures({ weather, today }: { weather: KeptWeather; today: string }) {
  const { t } = useTranslation(weatherTexts);
  const { weather: day } = weather;
  const description = weatherCodeText(day.weather_code);
  return (
    <>
      {weather.date !== today && <p className="weather-day">{t('dayOf', { day: dayText(weather.date) })}</p>}
      {description && <p className="weather-description">{translateMessage(description)}</p>}
      <dl className="weather-figures">
        <div>
          <dt>{t('high')}</dt>
          <dd>{measured(day.temperature_max, 'celsius')}</dd>
        </div>
        <div>
          <dt>{t('low')}</dt>
          <dd>{measured(day.temperature_min, 'celsius')}</dd>
        </div>
        <div>
          <dt>{t('humidity')}</dt>
          <dd>{measured(day.humidity_mean, 'percent')}</dd>
        </div>
        <div>
          <dt>{t('rain')}</dt>
          <dd>{measured(day.precipitation, 'millimetres')}</dd>
        </div>
      </dl>
    </>
  );
}

/** What the card can and cannot do now, in words. */
function StateText({ read }: { read: TodaysWeatherRead }) {
  const { t } = useTranslation(weatherTexts);
  const { weather } = read;
  // A sentence saying when the weather shown was fetched (its <time> element kept).
  const fetched = (key: 'state.refreshing' | 'state.current' | 'state.offlineShown' | 'state.failedShown') => (
    <Trans t={t} i18nKey={key} values={{ fetched: when(weather?.fetchedAt) }} components={{ time: <time dateTime={weather?.fetchedAt} /> }} />
  );
  switch (read.status) {
    case 'no-location':
      return <>{t('state.noLocation')}</>;
    case 'loading':
      return <>{t('state.loading')}</>;
    case 'refreshing':
      return fetched('state.refreshing');
    case 'current':
      return fetched('state.current');
    case 'offline':
      return weather ? fetched('state.offlineShown') : <>{t('state.offline')}</>;
    case 'failed':
      return (
        <span className="error-text">
          {read.error} {weather && fetched('state.failedShown')}
        </span>
      );
  }
}

function LocationForm({ user, current, onSaved, onCancel }: { user: SignedInUser; current: string; onSaved: (location: string) => void; onCancel?: () => void }) {
  const [draft, setDraft] = useState(current);
  const { t } = useTranslation(weatherTexts);
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
      <label htmlFor={inputId}>{t('location.label')}</label>
      <p id={hintId} className="muted">
        <Trans t={t} i18nKey="location.hint" components={{ profileLink: <Link to="/dashboard/profile" /> }} />
      </p>
      <div className="weather-location-row">
        <input id={inputId} aria-describedby={hintId} value={draft} onChange={(event) => setDraft(event.target.value)} autoComplete="off" enterKeyHint="done" />
        <button className="button primary" type="submit" disabled={save.busy}>
          {t('location.save')}
        </button>
        {onCancel && (
          <button className="button" type="button" onClick={onCancel}>
            {t('location.cancel')}
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
