/**
 * The server's words inside a message's values (common/messages/audit-title-parts.ts): a notification
 * rule's description inside its audit title, the schedule inside that, each answer a correction changed.
 * Read only at the places PARTS_AT names, so a grower's own words elsewhere stay as written. Loaded with
 * the Spanish and Dutch messages (i18n.ts), it hands messages.ts its reader when it loads.
 */
import { PART_SEPARATOR, PARTS_AT } from '../../common/messages/audit-title-parts';
import { messageKeys } from './message-patterns';
import { type Lookup, lookupOf, readPartsWith, translated, type ValueReader } from './messages';

const englishOf = (message: (...values: never[]) => string) => [...messageKeys({ message })][0] ?? '';

/** The parts a value may be, by its holder's English and its place there. */
const PLACES = PARTS_AT.map(({ holder, at, parts, list }) => ({ holder: englishOf(holder), place: String(at), keys: messageKeys(parts), list: list ?? false }));
const PART_KEYS: ReadonlySet<string> = new Set(PLACES.flatMap(({ keys }) => [...keys]));

/**
 * A list of parts joined by PART_SEPARATOR, each translated. A grower's value inside a part may hold the
 * separator too ("Notes from blank to "spots; edges""), so each part is the fewest pieces that read as one.
 */
function listIn(value: string, lookup: Lookup, read: ValueReader): string {
  const pieces = value.split(PART_SEPARATOR);
  const shown: string[] = [];
  for (let first = 0; first < pieces.length; ) {
    let last = first;
    let part: string | null = null;
    for (; last < pieces.length && part === null; last += 1) part = translated(pieces.slice(first, last + 1).join(PART_SEPARATOR), lookup, read);
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

readPartsWith((bundle) => {
  const entries = Object.entries(bundle);
  const lookups = new Map<string, { lookup: Lookup; list: boolean }>();
  for (const { holder, place, keys, list } of PLACES) lookups.set(`${holder}\u0000${place}`, { lookup: lookupOf(Object.fromEntries(entries.filter(([english]) => keys.has(english)))), list });
  const read: ValueReader = (holder, place, value) => {
    const part = lookups.get(`${holder}\u0000${place}`);
    if (!part) return value;
    return part.list ? listIn(value, part.lookup, read) : (translated(value, part.lookup, read) ?? value);
  };
  return { keys: PART_KEYS, read };
});
