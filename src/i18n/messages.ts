/**
 * The spec's messages in the reader's language (issue 18). The server and the client's own rules say
 * them in English, the spec's words (common/messages/*.ts), and that English text is the key: a Spanish
 * or Dutch reader sees it through src/i18n/messages/{es,nl}.json. A message built around a value ("No
 * place named "Delft" was found.") is keyed by its pattern, the value as {{0}}, and read back into it.
 * A text that is no spec message (an outside service's answer) shows as it came.
 */
import { i18next, MESSAGES_NAMESPACE } from './i18n';

interface Catalogue {
  texts: Readonly<Record<string, string>>;
  /** The messages with values, as patterns to match: English pattern → translation. */
  patterns: Array<{ match: RegExp; order: string[]; translation: string; fixed: number }>;
}

const PLACEHOLDER = /\{\{(\d+)\}\}/g;
const catalogues = new Map<string, Catalogue>();

function catalogueOf(language: string): Catalogue | null {
  const texts = i18next.getResourceBundle(language, MESSAGES_NAMESPACE) as Record<string, string> | undefined;
  if (!texts) return null;
  let catalogue = catalogues.get(language);
  if (catalogue?.texts !== texts) {
    const patterns = Object.keys(texts)
      .filter((english) => english.includes('{{'))
      .map((english) => {
        // Each value is a group, in the order the English says them; a value said twice matches itself.
        const order: string[] = [];
        const source = english
          .split(PLACEHOLDER)
          .map((part, index) => {
            if (index % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            const seen = order.indexOf(part);
            if (seen >= 0) return `\\${seen + 1}`;
            order.push(part);
            return '([\\s\\S]+?)';
          })
          .join('');
        return { match: new RegExp(`^${source}$`), order, translation: texts[english] ?? english, fixed: english.replace(PLACEHOLDER, '').length };
      })
      // The pattern with the most fixed text first: "Set the colour of {{0}} to {{1}}" before "Set the
      // colour of {{0}}", whichever order the translation files list them in.
      .sort((one, other) => other.fixed - one.fixed);
    catalogues.set(language, (catalogue = { texts, patterns }));
  }
  return catalogue;
}

/** `message` (a spec message in English) in the reader's language; as it came when it has no translation. */
export function translateMessage(message: string): string {
  const language = i18next.resolvedLanguage;
  if (!language || language === 'en') return message;
  const catalogue = catalogueOf(language);
  if (!catalogue) return message;
  const text = catalogue.texts[message];
  if (text) return text;
  for (const { match, order, translation } of catalogue.patterns) {
    const found = match.exec(message);
    if (found) return translation.replace(PLACEHOLDER, (_, index: string) => found[order.indexOf(index) + 1] ?? '');
  }
  return message;
}

/** The message of a failure (an Error's, or the thrown value as text), in the reader's language. */
export function messageOf(error: unknown): string {
  return translateMessage(error instanceof Error ? error.message : String(error));
}
