/**
 * The English keys of a table of spec messages (common/messages/*.ts): each text as it is, and each
 * message built around values by its pattern, the values as {{0}}, {{1}}…. The translation files are
 * keyed by these (src/i18n/messages/{es,nl}.json), and the locales test checks them against this list.
 */
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
