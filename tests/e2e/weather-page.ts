/** The dashboards' weather card (src/features/weather/TodaysWeather.tsx), named once, for the end-to-end tests. */
import type { Locator, Page } from 'playwright-core';
import { weatherCodeText } from '../../common/messages/weather';
import type { weatherAt } from '../support/open-meteo';
import { AppPage } from './app-page';

export type WeatherFigure = 'High' | 'Low' | 'Humidity' | 'Rain';

/** What the card shows of a day: its place, what the weather is and its four figures, as text. */
export interface CardWeather {
  place: string;
  description: string;
  figures: Record<WeatherFigure, string>;
}

/** A value as the card writes it: Open-Meteo's (one decimal at most) and its unit. */
const measured = (value: number, unit: string) => `${Math.round(value * 10) / 10} ${unit}`;

/** What the card must show for the stand-in's values (`weatherAt`) at `place`. */
export function expectedCard(place: string, values: ReturnType<typeof weatherAt>): CardWeather {
  return {
    place,
    description: weatherCodeText(values.weather_code) ?? '',
    figures: {
      High: measured(values.temperature_2m_max, '°C'),
      Low: measured(values.temperature_2m_min, '°C'),
      Humidity: measured(values.relative_humidity_2m_mean, '%'),
      Rain: measured(values.precipitation_sum, 'mm'),
    },
  };
}

export class WeatherPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  card() {
    return this.page.getByRole('region', { name: 'Today’s weather' });
  }

  /** What the card says it can and cannot do now (loading, fetched when, offline, failed). */
  status() {
    return this.card().getByRole('status');
  }

  /** The time the weather shown was fetched, as the card marks it up (ISO), or null when it shows none. */
  fetchedAt() {
    return this.status().locator('time').getAttribute('datetime');
  }

  figure(name: WeatherFigure) {
    return this.card().locator('.weather-figures > div').filter({ has: this.page.locator('dt', { hasText: name }) }).locator('dd');
  }

  /** What the card shows now; empty texts where it shows no weather. */
  async weatherShown(): Promise<CardWeather> {
    const text = async (locator: Locator) => ((await locator.count()) > 0 ? (await locator.innerText()).trim() : '');
    const figures = {} as Record<WeatherFigure, string>;
    for (const name of ['High', 'Low', 'Humidity', 'Rain'] as const) figures[name] = await text(this.figure(name));
    return { place: await text(this.card().locator('.weather-place')), description: await text(this.card().locator('.weather-description')), figures };
  }

  /** Types a location into the card's field and saves it. */
  async setLocation(location: string) {
    await this.card().getByLabel('Your location').fill(location);
    await this.card().getByRole('button', { name: 'Save location' }).click();
  }

  /** The tablet's today (yyyy-mm-dd in its time zone), the day the card asks for. */
  tabletToday(): Promise<string> {
    return this.page.evaluate(() => {
      const now = new Date();
      return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    });
  }

  /** The weather kept on the tablet for a user (local storage `growroom.weather.<userId>`), parsed, or null. */
  kept(userId: number): Promise<{ location: string; fetchedAt: string; date: string; place: { name: string } } | null> {
    return this.page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? 'null') as { location: string; fetchedAt: string; date: string; place: { name: string } } | null, `growroom.weather.${userId}`);
  }
}
