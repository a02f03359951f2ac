/**
 * The interface's languages (issue 18): i18next with react-i18next, English, Spanish and Dutch.
 *
 * - One namespace per feature folder, its texts in src/features/<feature>/locales/{en,es,nl}.json.
 *   A feature registers its English with `registerTexts` when its code loads, so English never waits
 *   for a request and is always there as the fallback; Spanish and Dutch load on demand, one small chunk
 *   per namespace and language (the service worker keeps them all for offline).
 * - The spec's messages (server answers and client rules) are keyed by their English text and looked up
 *   by messages.ts; only a Spanish or Dutch reader loads them.
 * - Which language a reader gets, and how dates and numbers read, are language.ts and format.ts.
 */
import i18next from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import { initReactI18next } from 'react-i18next';
import { startingLanguage } from './choice';
import { LANGUAGES } from '../../common/i18n/languages';
import type { Namespace, Resources } from './resources';

/** The spec messages' namespace (messages.ts): English text → translation, flat. */
export const MESSAGES_NAMESPACE = 'messages';

// English is bundled with each feature's code (registerTexts); these load the rest when a reader needs them.
const translations = import.meta.glob<{ default: Record<string, unknown> }>(['../features/*/locales/*.json', '!../features/*/locales/en.json', '../app/locales/*.json', '!../app/locales/en.json', '../../common/i18n/messages/*.json']);

function loadTranslation(language: string, namespace: string): Promise<Record<string, unknown>> {
  const path = namespace === MESSAGES_NAMESPACE ? `../../common/i18n/messages/${language}.json` : namespace === 'app' ? `../app/locales/${language}.json` : `../features/${namespace}/locales/${language}.json`;
  const load = translations[path];
  // A language or namespace with no file (English messages are their own keys) reads as empty: the
  // English fallback shows.
  if (!load) return Promise.resolve({});
  if (namespace === MESSAGES_NAMESPACE) {
    // The server's words inside messages' values are read by message-parts.ts, registered before the
    // messages reach i18next (without it, they still show, those values as stored).
    const parts = import('./message-parts')
      .then(({ registerMessageParts }) => registerMessageParts())
      .catch(() => undefined);
    return Promise.all([load(), parts]).then(([module]) => module.default);
  }
  return load().then((module) => module.default);
}

// Started when this module loads, before any feature registers its texts, in the language the tablet
// last read (choice.ts): the first screen paints in it without waiting for the local database.
void i18next
  .use(initReactI18next)
  .use(resourcesToBackend(loadTranslation))
  .init({
    lng: startingLanguage(),
    fallbackLng: 'en',
    supportedLngs: LANGUAGES,
    load: 'languageOnly',
    // Bundled English beside loaded Spanish and Dutch; with `resources` given, init does not wait.
    resources: {},
    partialBundledLanguages: true,
    initAsync: false,
    // The spec's messages load with each language (only Spanish and Dutch have a file).
    ns: [MESSAGES_NAMESPACE],
    defaultNS: 'shell',
    // React escapes what it renders.
    interpolation: { escapeValue: false },
    react: { useSuspense: true },
  });

/**
 * Adds a feature's English texts under its namespace and answers the namespace, for `useTranslation`:
 * `const shellTexts = registerTexts('shell', en)` in the feature's texts.ts.
 */
export function registerTexts<N extends Namespace>(namespace: N, english: Resources[N]): N {
  if (!i18next.hasResourceBundle('en', namespace)) i18next.addResourceBundle('en', namespace, english);
  return namespace;
}

export { i18next };

// The page says its language, for screen readers, hyphenation and the browser's own controls.
const markPage = (language: string) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
};
markPage(i18next.language);
i18next.on('languageChanged', markPage);
