/** The languages the interface speaks (issue 18). */
export const LANGUAGES = ['en', 'es', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language in its own words, as a picker offers it. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { en: 'English', es: 'Español', nl: 'Nederlands' };

/** The language a code names when the interface speaks it ("es-ES" → "es"), else null. */
export function supportedLanguage(code: unknown): Language | null {
  const primary = typeof code === 'string' ? code.trim().toLowerCase().split(/[-_]/)[0] : undefined;
  return LANGUAGES.find((language) => language === primary) ?? null;
}

/**
 * The day each language's week starts on, 0 Sunday to 6 Saturday. Spanish and Dutch: Monday, as their
 * CLDR data says. English: Monday too, the spec's week (part 1 §9, "Monday to Sunday"), not the United
 * States' Sunday: the company's reports count weeks from Monday on the server for every reader, and a
 * grower's "this week" on the dashboard must be the same week as the report beside it.
 */
export const WEEK_STARTS: Readonly<Record<Language, number>> = { en: 1, es: 1, nl: 1 };
