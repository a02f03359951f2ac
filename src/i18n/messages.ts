/**
 * The spec's messages in the reader's language (issue 18). The server and the client's own rules say
 * them in English, the spec's words (common/messages/*.ts), and that English text is the key: a Spanish
 * or Dutch reader sees it through common/i18n/messages/{es,nl}.json. A message built around a value ("No
 * place named "Delft" was found.") is keyed by its pattern, the value as {{0}}, and read back into it.
 * A text that is no spec message (an outside service's answer) shows as it came.
 */
import { i18next, MESSAGES_NAMESPACE } from './i18n';

export interface Lookup {
  texts: ReadonlyMap<string, string>;
  /** The messages with values, as patterns to match: English pattern → translation. */
  patterns: Array<{ english: string; match: RegExp; order: string[]; translation: string; fixed: number; longest?: RegExp }>;
}

/** A message's value (its placeholder `{{placeholder}}`, of the message whose English pattern is `holder`) in the reader's language. */
export type ValueReader = (holder: string, placeholder: string, value: string) => string;

/** Builds, from a language's messages, the English of the parts among them and how to read them inside values. */
export type PartsReaderFactory = (bundle: Readonly<Record<string, string>>) => { keys: ReadonlySet<string>; read: ValueReader };

interface Catalogue {
  /** The language's resource bundle these were read from. */
  bundle: Readonly<Record<string, string>>;
  messages: Lookup;
  read: ValueReader | undefined;
}

const PLACEHOLDER = /\{\{(\d+)\}\}/g;
const catalogues = new Map<string, Catalogue>();
let partsReaderOf: PartsReaderFactory | undefined;

/**
 * How messages' values are read (message-parts.ts): registered when i18n.ts loads the Spanish or Dutch
 * messages, before it hands them to i18next, so the sign-in page, which may never need it, does
 * not carry it. WARNING: a messages bundle added to i18next another way would be read without it, its
 * parts ("{{0}} recorded") then patterns of their own that take any text.
 */
export function registerPartsReader(factory: PartsReaderFactory) {
  partsReaderOf = factory;
  catalogues.clear();
}

/**
 * The messages of `texts` to look up. `forParts`: the server's words inside a value, whose own values are
 * names a grower typed: a value may be empty (an answer left blank), and a part whose values split two
 * ways ("“x” in Number of thrips of Scouting": which " of "?) is no match, so the value shows as stored.
 * Where two patterns fit, the one with more fixed text is taken, as for messages ("Pests in Veg due …"
 * reads as a form in a room).
 */
export function lookupOf(texts: Readonly<Record<string, string>>, { forParts = false } = {}): Lookup {
  const patterns = Object.keys(texts)
    .filter((english) => english.includes('{{'))
    .map((english) => {
      // Each value is a group, in the order the English says them; a value said twice matches itself.
      const order: string[] = [];
      const pieces = english.split(PLACEHOLDER).map((part, index) => {
        if (index % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const seen = order.indexOf(part);
        if (seen >= 0) return `\\${seen + 1}`;
        order.push(part);
        return null;
      });
      const patternOf = (group: string) => new RegExp(`^${pieces.map((piece) => piece ?? group).join('')}$`);
      const match = patternOf(forParts ? '([\\s\\S]*?)' : '([\\s\\S]+?)');
      const longest = forParts ? patternOf('([\\s\\S]*)') : undefined;
      return { english, match, longest, order, translation: texts[english] ?? english, fixed: english.replace(PLACEHOLDER, '').length };
    })
    // The pattern with the most fixed text first: "Set the colour of {{0}} to {{1}}" before "Set the
    // colour of {{0}}", whichever order the translation files list them in.
    .sort((one, other) => other.fixed - one.fixed);
  return { texts: new Map(Object.entries(texts)), patterns };
}

function catalogueOf(language: string): Catalogue | null {
  const texts = i18next.getResourceBundle(language, MESSAGES_NAMESPACE) as Record<string, string> | undefined;
  if (!texts) return null;
  let catalogue = catalogues.get(language);
  if (catalogue?.bundle !== texts) {
    const parts = partsReaderOf?.(texts);
    // A part is looked for only inside a message: alone, "{{0}} recorded" would take any text.
    const messages = parts ? lookupOf(Object.fromEntries(Object.entries(texts).filter(([english]) => !parts.keys.has(english)))) : lookupOf(texts);
    catalogues.set(language, (catalogue = { bundle: texts, messages, read: parts?.read }));
  }
  return catalogue;
}

/** `message` translated by `lookup`, each of its values read by `read`; null when it is no message there. */
export function translateWith(message: string, lookup: Lookup, read: ValueReader | undefined): string | null {
  const text = lookup.texts.get(message);
  if (text) return text;
  for (const { english, match, longest, order, translation } of lookup.patterns) {
    const found = match.exec(message);
    if (!found) continue;
    // Its values split two ways (see lookupOf).
    if (longest?.exec(message)?.some((value, at) => value !== found[at])) return null;
    return translation.replace(PLACEHOLDER, (_, placeholder: string) => {
      const value = found[order.indexOf(placeholder) + 1] ?? '';
      return read ? read(english, placeholder, value) : value;
    });
  }
  return null;
}

/** `message` (a spec message in English) in the reader's language; as it came when it has no translation. */
export function translateMessage(message: string): string {
  const language = i18next.resolvedLanguage;
  if (!language || language === 'en') return message;
  const catalogue = catalogueOf(language);
  if (!catalogue) return message;
  return translateWith(message, catalogue.messages, catalogue.read) ?? message;
}

/** The message of a failure (an Error's, or the thrown value as text), in the reader's language. */
export function messageOf(error: unknown): string {
  return translateMessage(error instanceof Error ? error.message : String(error));
}
