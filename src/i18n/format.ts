/**
 * Dates and numbers as the reader reads them (issue 18): in the interface's language, with the
 * browser's region when it shares that language (an "en-US" tablet reading English keeps its month-first
 * dates, an "en-GB" one its day-first dates; a Spanish reader on an English browser gets Spanish
 * forms). Formatters are made once per language and options: a first Intl call loads the browser's
 * locale data, which a tablet pays for once.
 */
import { i18next } from './i18n';
import { type Language, supportedLanguage, WEEK_STARTS } from '../../common/i18n/languages';

/** The locale for Intl: the reader's language, with the browser's region when it is the same language. */
export function readerLocale(): string {
  const language: Language = supportedLanguage(i18next.resolvedLanguage) ?? 'en';
  const browser = typeof navigator === 'undefined' ? undefined : navigator.language;
  return browser && supportedLanguage(browser) === language ? browser : language;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function cached<F>(formats: Map<string, F>, options: object, make: (locale: string) => F): F {
  const locale = readerLocale();
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = make(locale)));
  return format;
}

/** A moment or day as the reader writes it; '' for a missing or unreadable value. */
export function formatDate(value: Date | string | number | null | undefined, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return cached(dateFormats, options, (locale) => new Intl.DateTimeFormat(locale, options)).format(date);
}

/** A number as the reader writes it (1,234.5 in English, 1.234,5 in Spanish and Dutch). */
export function formatNumber(value: number, options: Intl.NumberFormatOptions = {}): string {
  return cached(numberFormats, options, (locale) => new Intl.NumberFormat(locale, options)).format(value);
}

/** The day the reader's week starts on, 0 Sunday to 6 Saturday (languages.ts says why Monday for all three). */
export function weekStartDay(): number {
  return WEEK_STARTS[supportedLanguage(i18next.resolvedLanguage) ?? 'en'];
}
