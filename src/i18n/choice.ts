/**
 * Which language a reader gets (issue 18): the company's language applies to everyone on its tablets
 * (`set_company_language`, the settings screen), and a tablet may override it for whoever uses it (a
 * kiosk in a team that reads another language). Kept on the tablet, so the first screen of a cold
 * start, or an offline one, reads in the right language before the local database opens:
 *
 * 1. the tablet's own choice, if one was made here;
 * 2. else the company's language as this tablet last read it (languages the interface does not speak,
 *    which the server accepts, read as English);
 * 3. else, before any sign-in on this tablet, the browser's language when the interface speaks it;
 * 4. else English.
 */
import { readKept, writeKept } from '../app/kept';
import { type Language, supportedLanguage } from '../../common/i18n/languages';

const CHOICE_KEY = 'growroom-language';

interface KeptChoice {
  /** The tablet's override, or null to follow the company. */
  tablet: Language | null;
  /** The company's language code as last read, or null before any. */
  company: string | null;
}

const isKeptChoice = (value: unknown): value is KeptChoice =>
  typeof value === 'object' && value !== null && 'tablet' in value && 'company' in value && (value.tablet === null || supportedLanguage(value.tablet) === value.tablet) && (value.company === null || typeof value.company === 'string');

export function keptChoice(): KeptChoice {
  return readKept(CHOICE_KEY, isKeptChoice) ?? { tablet: null, company: null };
}

export function keepChoice(choice: KeptChoice): void {
  writeKept(CHOICE_KEY, choice);
}

/** The browser's first language the interface speaks (navigator is absent outside a browser). */
function browserLanguage(): Language | null {
  const languages = typeof navigator === 'undefined' ? [] : navigator.languages;
  for (const code of languages) {
    const language = supportedLanguage(code);
    if (language) return language;
  }
  return null;
}

/** The reader's language for a choice (the rules above). */
export function readerLanguage(choice: KeptChoice): Language {
  if (choice.tablet) return choice.tablet;
  if (choice.company !== null) return supportedLanguage(choice.company) ?? 'en';
  return browserLanguage() ?? 'en';
}

/** The language the app starts in on this tablet. */
export function startingLanguage(): Language {
  return readerLanguage(keptChoice());
}
