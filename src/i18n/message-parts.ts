/**
 * The server's words inside a message's values (common/messages/audit-title-parts.ts): a notification
 * rule's description inside its audit title, the schedule inside that, each answer a correction changed.
 * Read only at the places VALUES_HOLDING_PARTS names, so a grower's own words elsewhere stay as written.
 * i18n.ts loads this with the Spanish and Dutch messages and calls `registerMessageParts` before handing
 * them to i18next.
 */
import { PART_SEPARATOR, VALUES_HOLDING_PARTS } from '../../common/messages/audit-title-parts';
import { messageKeys, patternOf } from '../../common/i18n/message-patterns';
import { type Lookup, lookupOf, type PartsReaderFactory, registerPartsReader, translateWith, type ValueReader } from './messages';

/** Each value holding parts: its holder's English, its placeholder, and the English of the parts it may be. */
const keysOfParts = new Map<object, ReadonlySet<string>>();
const HOLDERS = VALUES_HOLDING_PARTS.map(({ holder, placeholder, parts, list }) => {
  const english = patternOf(holder);
  if (!english.includes(`{{${placeholder}}}`)) throw new Error(`audit-title-parts.ts: "${english}" has no {{${placeholder}}}`);
  let keys = keysOfParts.get(parts);
  if (!keys) keysOfParts.set(parts, (keys = messageKeys(parts)));
  return { english, placeholder: String(placeholder), keys, list: list ?? false };
});
const PART_KEYS: ReadonlySet<string> = new Set(HOLDERS.flatMap(({ keys }) => [...keys]));

/**
 * A list of parts joined by PART_SEPARATOR, each translated. A grower's value inside a part may hold the
 * separator too ("Notes from blank to "spots; edges""), so each part is the fewest pieces that read as
 * one; a piece that reads as none shows as stored.
 */
function listIn(value: string, lookup: Lookup, read: ValueReader): string {
  const pieces = value.split(PART_SEPARATOR);
  const shown: string[] = [];
  let first = 0;
  while (first < pieces.length) {
    let end = first + 1;
    let part = translateWith(pieces.slice(first, end).join(PART_SEPARATOR), lookup, read);
    while (part === null && end < pieces.length) {
      end += 1;
      part = translateWith(pieces.slice(first, end).join(PART_SEPARATOR), lookup, read);
    }
    if (part === null) {
      shown.push(pieces[first] ?? '');
      first += 1;
    } else {
      shown.push(part);
      first = end;
    }
  }
  return shown.join(PART_SEPARATOR);
}

/** Reads the parts of a language's messages (`bundle`). */
const partsReader: PartsReaderFactory = (bundle) => {
  const entries = Object.entries(bundle);
  // One lookup per table of parts: the four notification titles share the rule's.
  const lookups = new Map<ReadonlySet<string>, Lookup>();
  const lookupOfParts = (keys: ReadonlySet<string>) => {
    let lookup = lookups.get(keys);
    if (!lookup) lookups.set(keys, (lookup = lookupOf(Object.fromEntries(entries.filter(([key]) => keys.has(key))), { forParts: true })));
    return lookup;
  };
  // Holder's English → placeholder → the parts it may be.
  const holders = new Map<string, Map<string, { lookup: Lookup; list: boolean }>>();
  for (const { english, placeholder, keys, list } of HOLDERS) {
    const placeholders = holders.get(english) ?? new Map<string, { lookup: Lookup; list: boolean }>();
    placeholders.set(placeholder, { lookup: lookupOfParts(keys), list });
    holders.set(english, placeholders);
  }
  const read: ValueReader = (holder, placeholder, value) => {
    const part = holders.get(holder)?.get(placeholder);
    if (!part) return value;
    return part.list ? listIn(value, part.lookup, read) : (translateWith(value, part.lookup, read) ?? value);
  };
  return { keys: PART_KEYS, read };
};

/** Has translateMessage read the parts inside messages' values from now on. */
export function registerMessageParts() {
  registerPartsReader(partsReader);
}
