/**
 * Open-Meteo's three services, as the weather calls use them: geocoding (a place name to coordinates),
 * the forecast (today, recent and coming days) and the archive (older days). Each answer is read
 * through a schema of the documented shape; anything else is a failure of the service (502).
 *
 * The base addresses are the operator's settings (OPEN_METEO_*_URL, server/config.ts), never a user's:
 * a user only chooses the place name or coordinates, which travel URL-encoded in the query string and
 * cannot change the host. The calls still go through server/http/outbound.ts `getBytes`, for its
 * deadline, its limit on the answer's size and its pinned DNS answer; the address check, which is
 * there for addresses users type (webhooks, cameras), is off (`allowPrivate`): an operator may run
 * Open-Meteo on the private network without opening webhooks to it (ALLOW_PRIVATE_WEBHOOKS).
 */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { weatherMessages as m } from '../../../common/messages/weather';
import type { WeatherDay } from '../../../common/schemas/weather';
import type { ServerConfig } from '../../config';
import { HttpError } from '../../http/errors';
import { getBytes, OutboundRefusedError, type OutboundPolicy } from '../../http/outbound';

/** One call, DNS to the answer's last byte: the tablet waits for it. */
const CALL_TIMEOUT_MS = 10_000;
/** A year of daily values is some 25 kB; an answer many times that is not what was asked for. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** The daily variables asked for, by their names in Open-Meteo's forecast and archive APIs. */
const DAILY_VARIABLES = ['temperature_2m_max', 'temperature_2m_min', 'temperature_2m_mean', 'relative_humidity_2m_mean', 'precipitation_sum', 'weather_code'] as const;

/** A daily variable's values, one per day of `time`; null where the service has none. */
const series = z.array(z.number().nullable());

/** The documented answer of /v1/forecast and /v1/archive with `daily=` (other fields are not read). */
const dailyAnswer = z.object({
  timezone: z.string(),
  daily: z.object({
    time: z.array(z.string()),
    temperature_2m_max: series,
    temperature_2m_min: series,
    temperature_2m_mean: series,
    relative_humidity_2m_mean: series,
    precipitation_sum: series,
    weather_code: series,
  }),
});

/** The documented answer of /v1/search: `results` is left out when nothing matched. */
const geocodingAnswer = z.object({
  results: z
    .array(
      z.object({
        name: z.string(),
        latitude: z.number(),
        longitude: z.number(),
        country: z.string().optional(),
        timezone: z.string().optional(),
      }),
    )
    .optional(),
});

/** A base address as `…/v1/…` is appended to it, whether or not the setting ends in a slash. */
const withoutSlash = (base: string) => base.replace(/\/+$/, '');

/** A WMO code is a whole number; one sent as 3.0 is 3. */
const codeOf = (value: number | null | undefined) => (value === null || value === undefined ? null : Math.round(value));

/** The body of an Open-Meteo refusal: `{error: true, reason}`. */
const refusal = z.object({ reason: z.string() });

export type OpenMeteoSource = 'forecast' | 'archive';

export interface GeocodedPlace {
  name: string;
  country: string | null;
  latitude: number;
  longitude: number;
  timezone: string | null;
}

/** A day as Open-Meteo answered it: the answer's own shape (common/schemas/weather.ts). */
export type FetchedDay = WeatherDay;

export interface OpenMeteoClient {
  /** The best match of a place name, or null when there is none. */
  geocode(name: string): Promise<GeocodedPlace | null>;
  /** The days from `start` to `end` (local days at the point, in its time zone) and that time zone. */
  daily(source: OpenMeteoSource, point: { latitude: number; longitude: number }, start: string, end: string): Promise<{ timezone: string; days: FetchedDay[] }>;
}

export function openMeteoClient(config: ServerConfig, log: FastifyBaseLogger): OpenMeteoClient {
  const policy: OutboundPolicy = { allowPrivate: true, timeoutMs: CALL_TIMEOUT_MS, maxResponseBytes: MAX_ANSWER_BYTES };
  const failed = (url: URL, why: string, cause?: unknown) => {
    log.warn({ err: cause, service: `${url.origin}${url.pathname}` }, `Open-Meteo call failed: ${why}`);
    return new HttpError(502, m.serviceFailed(why));
  };

  /** GETs `url` and answers its JSON body read through `schema`; throws the 502 that says why not. */
  async function getJson<T>(url: URL, schema: z.ZodType<T>): Promise<T> {
    let answer;
    try {
      answer = await getBytes(url.toString(), { accept: 'application/json', 'user-agent': 'GrowRoom-Weather' }, policy);
    } catch (error) {
      throw failed(url, error instanceof OutboundRefusedError ? 'its address is refused by the server’s outbound rules' : 'no answer', error);
    }
    if (answer.tooLarge) throw failed(url, 'its answer was too large');
    let body: unknown;
    try {
      body = JSON.parse(answer.bytes.toString('utf8'));
    } catch (error) {
      throw failed(url, answer.status === 200 ? 'its answer could not be read' : `it answered HTTP ${answer.status}`, error);
    }
    if (answer.status !== 200) {
      const reason = refusal.safeParse(body);
      throw failed(url, `it answered HTTP ${answer.status}${reason.success ? `: ${reason.data.reason}` : ''}`);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw failed(url, 'its answer could not be read', parsed.error);
    return parsed.data;
  }

  return {
    async geocode(name) {
      // Open-Meteo matches "Westland, NL" as the place, narrowed to the country after the comma.
      const url = new URL(`${withoutSlash(config.openMeteoGeocodingUrl)}/v1/search`);
      url.search = new URLSearchParams({ name, count: '1', language: 'en', format: 'json' }).toString();
      const [best] = (await getJson(url, geocodingAnswer)).results ?? [];
      if (!best) return null;
      return { name: best.name, country: best.country ?? null, latitude: best.latitude, longitude: best.longitude, timezone: best.timezone ?? null };
    },

    async daily(source, point, start, end) {
      const base = source === 'archive' ? config.openMeteoArchiveUrl : config.openMeteoForecastUrl;
      // A base with a path of its own (a self-hosted Open-Meteo behind a prefix) keeps it.
      const url = new URL(`${withoutSlash(base)}/v1/${source === 'archive' ? 'archive' : 'forecast'}`);
      // Daily values only: the answer is per day (hourly values would be 24 times the bytes, unread).
      // timezone=auto: the point's own local days, as a grower there counts them.
      url.search = new URLSearchParams({
        latitude: String(point.latitude),
        longitude: String(point.longitude),
        daily: DAILY_VARIABLES.join(','),
        timezone: 'auto',
        start_date: start,
        end_date: end,
      }).toString();
      const { timezone, daily } = await getJson(url, dailyAnswer);
      const days = daily.time.map((date, index) => ({
        date,
        temperature_max: daily.temperature_2m_max[index] ?? null,
        temperature_min: daily.temperature_2m_min[index] ?? null,
        temperature_mean: daily.temperature_2m_mean[index] ?? null,
        humidity_mean: daily.relative_humidity_2m_mean[index] ?? null,
        precipitation: daily.precipitation_sum[index] ?? null,
        weather_code: codeOf(daily.weather_code[index]),
      }));
      return { timezone, days };
    },
  };
}
