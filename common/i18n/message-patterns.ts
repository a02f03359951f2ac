/**
 * The English keys of a table of spec messages (common/messages/*.ts): each text as it is, and each
 * message built around values by its pattern, the values as {{0}}, {{1}}…. The translation files are
 * keyed by these (common/i18n/messages/{es,nl}.json), and the locales test checks them against this list.
 */
import type { Value } from '../messages/audit-title-parts';

/** The English pattern of one message built around values ("Created room {{0}}"). */
export const patternOf = (message: (...values: never[]) => string): string => [...messageKeys({ message })][0] ?? '';

export function messageKeys(table: object): Set<string> {
  const keys = new Set<string>();
  const walk = (value: unknown) => {
    if (typeof value === 'string') keys.add(value);
    else if (typeof value === 'function') {
      // A message built from something other than text (a number it computes with, a choice it looks up,
      // a list) has no pattern: it shows in English.
      try {
        const pattern: unknown = (value as (...values: string[]) => unknown)(...Array.from({ length: value.length }, (_, index) => `{{${index}}}`));
        if (typeof pattern === 'string' && !/NaN|undefined|\[object /.test(pattern)) keys.add(pattern);
      } catch {
        // no pattern
      }
    } else if (value && typeof value === 'object' && !Array.isArray(value)) for (const inner of Object.values(value)) walk(inner);
  };
  walk(table);
  return keys;
}

/** A table of messages: texts, messages built around values, and tables of them. */
type MessageTable = { readonly [key: string]: string | ((...values: never[]) => string) | MessageTable };

/**
 * `table` (English, common/messages/*.ts) in the language of `translations` (its common/i18n/messages
 * file): each text and each message's pattern looked up by its English, the values put back in their
 * places; what has no translation stays English. For the server, which writes a company's mail in its
 * language (server/notifications/words.ts) with the same words the tablet shows.
 */
export function translatedTable<T extends MessageTable>(table: T, translations: Readonly<Record<string, string>>): T {
  const translate = (entry: MessageTable[string]): MessageTable[string] => {
    if (typeof entry === 'string') return translations[entry] ?? entry;
    if (typeof entry === 'function') {
      const translation = translations[patternOf(entry)];
      if (!translation) return entry;
      return (...values: Value[]) => translation.replace(/\{\{(\d+)\}\}/g, (_, at: string) => String(values[Number(at)] ?? ''));
    }
    return Object.fromEntries(Object.entries(entry).map(([key, inner]) => [key, translate(inner)]));
  };
  return translate(table) as T;
}
