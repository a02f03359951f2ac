/**
 * The spec's messages in the reader's language (issue 18). The server and the client's own rules say
 * them in English, the spec's words (common/messages/*.ts), and that English text is the key: a Spanish
 * or Dutch reader sees it through src/i18n/messages/{es,nl}.json. A message built around a value ("No
 * place named "Delft" was found.") is keyed by its pattern, the value as {{0}}, and read back into it.
 * A text that is no spec message (an outside service's answer) shows as it came.
 */
import { PART_SEPARATOR, PARTS_AT } from '../../common/messages/audit-title-parts';
import { i18next, MESSAGES_NAMESPACE } from './i18n';
import { messageKeys } from './message-patterns';

interface Lookup {
  texts: Readonly<Record<string, string>>;
  /** The messages with values, as patterns to match: English pattern → translation. */
  patterns: Array<{ english: string; match: RegExp; order: string[]; translation: string; fixed: number }>;
}

interface Catalogue {
  /** The language's resource bundle these were read from. */
  bundle: Readonly<Record<string, string>>;
  messages: Lookup;
  /** The values that are the server's words in turn (common/messages/audit-title-parts.ts): holder's English → its value's place → the parts it may be. */
  parts: Map<string, Map<string, { lookup: Lookup; list: boolean }>>;
}

const PLACEHOLDER = /\{\{(\d+)\}\}/g;
const catalogues = new Map<string, Catalogue>();

const englishOf = (message: (...values: never[]) => string) => [...messageKeys({ message })][0] ?? '';

function lookupOf(texts: Readonly<Record<string, string>>): Lookup {
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
      return { english, match: new RegExp(`^${source}$`), order, translation: texts[english] ?? english, fixed: english.replace(PLACEHOLDER, '').length };
    })
    // The pattern with the most fixed text first: "Set the colour of {{0}} to {{1}}" before "Set the
    // colour of {{0}}", whichever order the translation files list them in.
    .sort((one, other) => other.fixed - one.fixed);
  return { texts, patterns };
}

function catalogueOf(language: string): Catalogue | null {
  const texts = i18next.getResourceBundle(language, MESSAGES_NAMESPACE) as Record<string, string> | undefined;
  if (!texts) return null;
  let catalogue = catalogues.get(language);
  if (catalogue?.bundle !== texts) {
    const entries = Object.entries(texts);
    const partKeys = new Set(PARTS_AT.flatMap(({ parts }) => [...messageKeys(parts)]));
    // A part is looked for only where PARTS_AT puts one: alone, "{{0}} recorded" would take any text.
    const messages = lookupOf(Object.fromEntries(entries.filter(([english]) => !partKeys.has(english))));
    const parts = new Map<string, Map<string, { lookup: Lookup; list: boolean }>>();
    for (const { holder, at, parts: table, list } of PARTS_AT) {
      const keys = messageKeys(table);
      const places = parts.get(englishOf(holder)) ?? new Map<string, { lookup: Lookup; list: boolean }>();
      places.set(String(at), { lookup: lookupOf(Object.fromEntries(entries.filter(([english]) => keys.has(english)))), list: list ?? false });
      parts.set(englishOf(holder), places);
    }
    catalogues.set(language, (catalogue = { bundle: texts, messages, parts }));
  }
  return catalogue;
}

/** `message` translated by `lookup`, with each value that is a part of the server's words translated too; null when it is no message there. */
function translated(message: string, lookup: Lookup, catalogue: Catalogue): string | null {
  const text = lookup.texts[message];
  if (text) return text;
  for (const { english, match, order, translation } of lookup.patterns) {
    const found = match.exec(message);
    if (!found) continue;
    const places = catalogue.parts.get(english);
    return translation.replace(PLACEHOLDER, (_, place: string) => {
      const value = found[order.indexOf(place) + 1] ?? '';
      const part = places?.get(place);
      if (!part) return value;
      return part.list ? listIn(value, part.lookup, catalogue) : (translated(value, part.lookup, catalogue) ?? value);
    });
  }
  return null;
}

/**
 * A list of parts joined by PART_SEPARATOR, each translated. A grower's value inside a part may hold the
 * separator too ("Notes from blank to "spots; edges""), so each part is the fewest pieces that read as one.
 */
function listIn(value: string, lookup: Lookup, catalogue: Catalogue): string {
  const pieces = value.split(PART_SEPARATOR);
  const shown: string[] = [];
  for (let first = 0; first < pieces.length; ) {
    let last = first;
    let part: string | null = null;
    for (; last < pieces.length && part === null; last += 1) part = translated(pieces.slice(first, last + 1).join(PART_SEPARATOR), lookup, catalogue);
    if (part === null) {
      shown.push(pieces[first] ?? '');
      first += 1;
    } else {
      shown.push(part);
      first = last;
    }
  }
  return shown.join(PART_SEPARATOR);
}

/** `message` (a spec message in English) in the reader's language; as it came when it has no translation. */
export function translateMessage(message: string): string {
  const language = i18next.resolvedLanguage;
  if (!language || language === 'en') return message;
  const catalogue = catalogueOf(language);
  if (!catalogue) return message;
  return translated(message, catalogue.messages, catalogue) ?? message;
}

/** The message of a failure (an Error's, or the thrown value as text), in the reader's language. */
export function messageOf(error: unknown): string {
  return translateMessage(error instanceof Error ? error.message : String(error));
}
