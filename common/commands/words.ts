/**
 * The command parser's reading of words (parse.ts): a command cut into words, the words grouped into
 * items by what they are in the command's language (a phrase such as "and then", a number, a name the
 * tablet knows), and names matched the forgiving way (small typos, "did you mean").
 */
import { BUILT_IN_BATCH_STATUSES } from '../batch-statuses';
import type { CommandLanguage, CommandVocabulary } from './actions';
import { COMMAND_PHRASES, type CommandNameKind, type CommandPhrases, type CommandRole } from './phrases';

/** The kinds of names the vocabulary holds. */
export type NameKind = Exclude<CommandNameKind, 'place'>;

/** Lower case without accents: how commands and names are compared. */
const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** A word or phrase without spaces, hyphens or other marks ("t/m" → "tm", "B-001" → "b001"); a lone "&" stays. */
const keyOf = (text: string) => fold(text).replace(/[^\p{L}\p{N}]/gu, '') || fold(text).trim();

/** Leading zeros dropped from every run of digits ("b001" → "b1"), so "B-001" is also "b 1". */
const plainDigits = (key: string) => key.replace(/\d+/g, (run) => run.replace(/^0+(?=\d)/, ''));

type Punct = ',' | ';' | ':' | '-';

export interface Token {
  from: number;
  to: number;
  /** The word folded (see `fold`), marks inside kept ("3.5", "b-001"). */
  text: string;
  key: string;
  punct: Punct | null;
}

/** The command's words and marks, each with where it stands in the text (notes and answers quote the text as typed). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const push = (from: number, word: string) => {
    const folded = fold(word);
    tokens.push({ from, to: from + word.length, text: folded, key: keyOf(folded), punct: null });
  };
  for (const match of text.matchAll(/[,;:]|[^\s,;:]+/gu)) {
    const raw = match[0];
    const at = match.index;
    if (raw === ',' || raw === ';' || raw === ':') {
      tokens.push({ from: at, to: at + 1, text: raw, key: '', punct: raw });
      continue;
    }
    if (/^[-–—]+$/u.test(raw)) {
      tokens.push({ from: at, to: at + raw.length, text: '-', key: '', punct: '-' });
      continue;
    }
    if (raw === '&') {
      push(at, raw);
      continue;
    }
    // Quotes, brackets and sentence marks around a word go; marks inside stay ("B-001", "t/m", "-2").
    const lead = /^[^\p{L}\p{N}-]*/u.exec(raw)?.[0].length ?? 0;
    const trail = /[^\p{L}\p{N}]*$/u.exec(raw.slice(lead))?.[0].length ?? 0;
    const word = raw.slice(lead, raw.length - trail);
    if (!/[\p{L}\p{N}]/u.test(word)) continue;
    const run = /^(\d+)[-–—](\d+)$/u.exec(word);
    if (run) {
      const [, low = '', high = ''] = run;
      push(at + lead, low);
      tokens.push({ from: at + lead + low.length, to: at + lead + low.length + 1, text: '-', key: '', punct: '-' });
      push(at + lead + low.length + 1, high);
    } else push(at + lead, word);
  }
  return tokens;
}

// ——— The language's words, indexed once ———

export interface Language {
  code: CommandLanguage;
  phrases: CommandPhrases;
  roles: ReadonlyMap<string, ReadonlySet<CommandRole>>;
  numbers: ReadonlyMap<string, number>;
}

const languages = new Map<CommandLanguage, Language>();

export function languageOf(code: CommandLanguage): Language {
  let language = languages.get(code);
  if (!language) {
    const phrases = COMMAND_PHRASES[code];
    const roles = new Map<string, Set<CommandRole>>();
    for (const [role, words] of Object.entries(phrases.words) as [CommandRole, readonly string[]][]) {
      for (const word of words) {
        const key = keyOf(word);
        roles.set(key, (roles.get(key) ?? new Set()).add(role));
      }
    }
    language = { code, phrases, roles, numbers: phrases.numbers };
    languages.set(code, language);
  }
  return language;
}

/** A single word as a number: digits ("12", "3.5", "-1") or the language's number word. */
function numberOf(token: Token, language: Language): number | null {
  if (/^-?\d+(?:\.\d+)?$/u.test(token.text)) return Number(token.text);
  return language.numbers.get(token.key) ?? null;
}

/** A run of words as a name's keys: as said, digits plain, and number words as digits ("flower one" → "flower1"). */
function keysOf(words: readonly string[], language: Language): string[] {
  const said = words.join('');
  const spelled = words.map((word) => (language.numbers.has(word) ? String(language.numbers.get(word)) : word)).join('');
  return [...new Set([said, plainDigits(said), plainDigits(spelled)])];
}

const wordsOf = (name: string) => fold(name).split(/\s+/u).map(keyOf).filter(Boolean);

// ——— The vocabulary, indexed per reading ———

export interface Known {
  kind: NameKind;
  /** As the vocabulary spells it. */
  name: string;
  /** The words it is matched by (a status may be said in the language's own words). */
  words: string[];
}

export interface Names {
  byKey: Map<string, Known[]>;
  all: Known[];
  /**
   * The most words a name may be said in: a name's letters and digits, one word each at most ("b 0 0 1"
   * for "B-001"), up to 12.
   */
  longest: number;
}

/** The vocabulary's names by every key they may be said as (`keysOf`), built-in statuses in the language's words too. */
export function indexNames(vocabulary: CommandVocabulary, language: Language): Names {
  const all: Known[] = [];
  const add = (kind: NameKind, name: string, said: string = name) => {
    const words = wordsOf(said);
    if (words.length > 0) all.push({ kind, name, words });
  };
  vocabulary.rooms.forEach((name) => add('room', name));
  vocabulary.grids.forEach((name) => add('grid', name));
  vocabulary.batches.forEach((name) => add('batch', name));
  vocabulary.forms.forEach((name) => add('form', name));
  vocabulary.problems.forEach((name) => add('problem', name));
  vocabulary.statuses.forEach((name) => add('status', name));
  // After every name as written, so a name as written wins over another's alias: a name with words in
  // brackets is also said without them, or as one of them ("Botrytis (grey mould, bud rot)": "botrytis",
  // "bud rot"), as the catalogue writes its problems.
  for (const { kind, name } of [...all]) {
    if (!name.includes('(')) continue;
    const aliases = [name.replace(/\([^)]*\)/gu, ' '), ...[...name.matchAll(/\(([^)]*)\)/gu)].flatMap((match) => (match[1] ?? '').split(/[,/]/u))];
    for (const alias of aliases) if (keyOf(alias).length >= 3) add(kind, name, alias);
  }
  for (const status of BUILT_IN_BATCH_STATUSES) {
    // The company's spelling of a built-in status when it lists it, else the built-in name.
    const name = vocabulary.statuses.find((known) => keyOf(known) === keyOf(status)) ?? status;
    for (const said of language.phrases.statuses[status]) add('status', name, said);
  }
  const byKey = new Map<string, Known[]>();
  for (const known of all) {
    for (const key of keysOf(known.words, language)) {
      const entries = byKey.get(key) ?? [];
      if (!entries.some((entry) => entry.kind === known.kind)) byKey.set(key, [...entries, known]);
    }
  }
  const longest = Math.max(1, ...all.map((known) => known.words.join('').length));
  return { byKey, all, longest: Math.min(longest, 12) };
}

// ——— Items: the command as words with their meanings ———

/** A word, or a run of words read as one (a phrase, a number, a name), with every meaning it has here. */
export interface Item {
  /** Where it stands in the command's text. */
  from: number;
  to: number;
  /** The keys of the words it spans. */
  keys: string[];
  roles: ReadonlySet<CommandRole>;
  number: number | null;
  /** The names it is, by kind, as the vocabulary spells them. */
  names: Partial<Record<NameKind, string>>;
  punct: Punct | null;
}

const NO_ROLES: ReadonlySet<CommandRole> = new Set();

/** The most words a phrase or number of the languages spans ("tot en met", "treinta y uno"). */
const PHRASE_WORDS_MAX = 4;

export const hasName = (item: Item) => Object.keys(item.names).length > 0;
/** A number said on its own, not an article that is also "one" ("een", "una"). */
export const plainNumber = (item: Item) => item.number !== null && !item.roles.has('filler');
/** A word that means nothing here, and is not a number either. */
export const onlyFiller = (item: Item) => item.roles.has('filler') && item.number === null && !hasName(item);

/**
 * The command's words grouped into items, each the longest run of words that is a phrase of the language,
 * a number or a known name ("Bench A", "and then", "treinta y uno"); every meaning of that run is kept.
 */
export function itemize(tokens: readonly Token[], language: Language, names: Names): Item[] {
  const items: Item[] = [];
  for (let index = 0; index < tokens.length; ) {
    const token = tokens[index]!;
    if (token.punct) {
      items.push({ from: token.from, to: token.to, keys: [], roles: NO_ROLES, number: null, names: {}, punct: token.punct });
      index += 1;
      continue;
    }
    let words = 0;
    while (index + words < tokens.length && !tokens[index + words]!.punct && words < Math.max(PHRASE_WORDS_MAX, names.longest)) words += 1;
    let item: Item | null = null;
    for (let count = words; count >= 1 && !item; count -= 1) {
      const span = tokens.slice(index, index + count);
      const keys = span.map((word) => word.key);
      const key = keys.join('');
      const roles = language.roles.get(key) ?? NO_ROLES;
      const number = count === 1 ? numberOf(token, language) : (language.numbers.get(key) ?? null);
      const found: Partial<Record<NameKind, string>> = {};
      for (const nameKey of keysOf(keys, language)) {
        for (const known of names.byKey.get(nameKey) ?? []) found[known.kind] ??= known.name;
      }
      if (roles.size > 0 || number !== null || Object.keys(found).length > 0 || count === 1) {
        item = { from: token.from, to: span[count - 1]!.to, keys, roles, number, names: found, punct: null };
      }
    }
    items.push(item!);
    index += item!.keys.length;
  }
  return items;
}

/** One command being read in one language. */
export interface Reading {
  text: string;
  language: Language;
  names: Names;
  vocabulary: CommandVocabulary;
}

/** Optimal string alignment distance: edits, a swap of two letters counting one. */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, row) => Array.from({ length: b.length + 1 }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)));
  for (let row = 1; row <= a.length; row += 1) {
    for (let column = 1; column <= b.length; column += 1) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(rows[row - 1]![column]! + 1, rows[row]![column - 1]! + 1, rows[row - 1]![column - 1]! + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) best = Math.min(best, rows[row - 2]![column - 2]! + 1);
      rows[row]![column] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** How far a said word is from a name's word, as a forgivable typo; Infinity when it is not one. */
function wordTypo(said: string, known: string, language: Language): number {
  const plain = (word: string) => plainDigits(language.numbers.has(word) ? String(language.numbers.get(word)) : word);
  if (said === known || plain(said) === plain(known)) return 0;
  if (/\d/u.test(said) || /\d/u.test(known) || said.length < 4 || known.length < 4) return Infinity;
  const edits = distance(said, known);
  return edits <= (Math.min(said.length, known.length) >= 8 ? 2 : 1) ? edits : Infinity;
}

export const kindsOf = (kind: CommandNameKind): readonly NameKind[] => (kind === 'place' ? ['room', 'grid'] : [kind]);

/** The one name of `kind` the first words of `span` are a small typo of, and how many items it takes. */
export function typoOf(span: readonly Item[], kind: CommandNameKind, reading: Reading): { known: Known; items: number } | null {
  const candidates = reading.names.all.filter((known) => kindsOf(kind).includes(known.kind));
  for (let count = span.length; count >= 1; count -= 1) {
    const words = span.slice(0, count).flatMap((item) => item.keys);
    const scored = candidates
      .filter((known) => known.words.length === words.length)
      .map((known) => ({ known, edits: known.words.reduce((sum, word, index) => sum + wordTypo(words[index]!, word, reading.language), 0) }))
      .filter(({ edits }) => edits <= 2);
    const best = Math.min(...scored.map(({ edits }) => edits));
    // Several words of one status ("flowering", "flower", "bloom") may come close: one name, not a tie.
    const closest = [...new Map(scored.filter(({ edits }) => edits === best).map(({ known }) => [`${known.kind}\u0000${known.name}`, known])).values()];
    if (closest.length === 1) return { known: closest[0]!, items: count };
  }
  return null;
}

/**
 * Names of `kind` close to what was said, closest first, for "did you mean": a few letters apart, one
 * inside the other ("mites"), or sharing a word ("Mesa sur" and "Mesa Norte").
 */
export function closeNames(kind: CommandNameKind, said: string, reading: Reading): string[] {
  const key = keyOf(said);
  const saidWords = new Set(wordsOf(said).filter((word) => word.length >= 3 && !/^\d+$/u.test(word)));
  const candidates = kindsOf(kind).flatMap((nameKind) => vocabularyList(reading.vocabulary, nameKind));
  const near = (name: string, known: string, edits: number) =>
    edits <= Math.max(2, Math.floor(key.length / 3)) ||
    (Math.min(key.length, known.length) >= 3 && (known.includes(key) || key.includes(known))) ||
    wordsOf(name).some((word) => saidWords.has(word));
  return [...new Set(candidates)]
    .map((name) => ({ name, known: keyOf(name), edits: distance(key, keyOf(name)) }))
    .filter(({ name, known, edits }) => near(name, known, edits))
    // A name holding all that was said first ("spider mite": "Two-spotted spider mite"), then by letters apart.
    .sort((a, b) => Number(!a.known.includes(key)) - Number(!b.known.includes(key)) || a.edits - b.edits || a.name.localeCompare(b.name))
    .slice(0, 4)
    .map(({ name }) => name);
}

function vocabularyList(vocabulary: CommandVocabulary, kind: NameKind): readonly string[] {
  switch (kind) {
    case 'room':
      return vocabulary.rooms;
    case 'grid':
      return vocabulary.grids;
    case 'batch':
      return vocabulary.batches;
    case 'form':
      return vocabulary.forms;
    case 'problem':
      return vocabulary.problems;
    case 'status':
      return vocabulary.statuses;
  }
}

export const saidOf = (items: readonly Item[], reading: Reading) => (items.length === 0 ? '' : reading.text.slice(items[0]!.from, items[items.length - 1]!.to).trim());

