/**
 * The command parser's reading of actions (parse.ts): a command's items cut into its actions ("cull box 3
 * and then harvest B-001"), and each action read into the actions of actions.ts, or refused with why.
 */
import { COMMAND_BOXES_MAX, COMMAND_NOTES_MAX_CHARS } from '../messages/commands';
import { SEVERITY_MAX, SEVERITY_MIN } from '../messages/problems';
import type { CommandAction } from './actions';
import type { CommandExampleKind, CommandNameKind, CommandRole } from './phrases';
import { closeNames, hasName, type Item, kindsOf, type NameKind, onlyFiller, plainNumber, type Reading, saidOf, typoOf } from './words';

/** The actions as the parser tells them apart: culling and taking a cull back are said differently. */
export type ClauseKind = Exclude<CommandExampleKind, 'several'>;

/** Why a command could not be read; said in the command's language at the end (parse.ts `messageOf`). */
type Reason =
  | { code: 'empty' }
  | { code: 'tooLong' }
  | { code: 'unreadable'; said: string }
  | { code: 'leftover'; said: string }
  | { code: 'notFound'; kind: CommandNameKind; said: string; close: readonly string[] }
  | { code: 'missing'; kind: 'room' | 'batch' | 'form' | 'problem' | 'status' }
  | { code: 'severityOutOfRange'; said: string }
  | {
      code:
        | 'boxesMissing'
        | 'boxNumber'
        | 'tooManyBoxes'
        | 'tooManyActions'
        | 'severityMissing'
        | 'twoSeverities'
        | 'twoStatuses'
        | 'mixedActions'
        | 'notesOnlyForProblems'
        | 'notesTooLong';
    };

export type Failure = Reason & { example: CommandExampleKind };

export class Unreadable extends Error {
  /** How many words of the command the language did not know: the fewest tells the command's language. */
  unknownWords = 0;

  constructor(readonly failure: Failure) {
    super(failure.code);
  }
}

export const fail = (reason: Reason, example: CommandExampleKind): never => {
  throw new Unreadable({ ...reason, example });
};

/** The action a word says by itself ("cull", "scanned"), and the ones it says only when nothing else does ("mark"). */
const STRONG: Partial<Record<CommandRole, ClauseKind>> = { cull: 'cull', uncull: 'uncull', harvest: 'harvest', fill: 'fill-form', scanned: 'mark-scanned', severity: 'problem' };
const WEAK: Partial<Record<CommandRole, ClauseKind>> = { mark: 'mark-scanned', move: 'batch-status', report: 'problem' };

const kindsSaid = (item: Item, table: Partial<Record<CommandRole, ClauseKind>>) => [...item.roles].flatMap((role) => table[role] ?? []);
const isVerb = (item: Item) => kindsSaid(item, STRONG).length > 0 || kindsSaid(item, WEAK).length > 0;

/** Whether `next`, after "and" or a comma, starts another action rather than continuing this one's list. */
function startsAction(next: Item | undefined, current: readonly Item[]): boolean {
  if (!next) return false;
  if (isVerb(next) && !next.roles.has('severity')) return true;
  const has = (test: (item: Item) => boolean) => current.some(test);
  if (next.names.batch || next.roles.has('batch')) {
    // "harvest B-001 and B-002" lists batches; "batch B-001 to Drying and B-002 to Curing" is two moves.
    return !has((item) => item.roles.has('harvest') || item.roles.has('batch') || Boolean(item.names.batch)) || has((item) => Boolean(item.names.status));
  }
  if (next.names.problem || next.roles.has('problem')) {
    // "spider mites and thrips severity 3": one report of two problems, until a severity is said.
    return has((item) => item.roles.has('severity')) || !has((item) => Boolean(item.names.problem) || item.roles.has('problem'));
  }
  if (next.names.room || next.names.grid || next.roles.has('room') || next.roles.has('grid')) return has((item) => item.roles.has('scanned'));
  if (next.names.form || next.roles.has('form')) {
    return has((item) => item.roles.has('box') || plainNumber(item)) || !has((item) => item.roles.has('fill') || Boolean(item.names.form));
  }
  return false;
}

/** The command's actions, each as its items (parse.ts's top comment says what ends an action). */
export function splitActions(items: readonly Item[]): Item[][] {
  const clauses: Item[][] = [];
  let current: Item[] = [];
  let inNotes = false;
  const close = () => {
    if (current.length > 0) clauses.push(current);
    current = [];
    inNotes = false;
  };
  items.forEach((item, index) => {
    if (item.punct === ';' || item.roles.has('then')) return close();
    if (inNotes) return void current.push(item);
    if (item.roles.has('notes')) inNotes = true;
    else if ((item.punct === ',' || item.roles.has('and') || item.roles.has('next')) && startsAction(items[index + 1], current)) return close();
    else if (isVerb(item) && !item.roles.has('severity')) {
      // A verb of another action without "and" between ("cull box 3 harvest B-001", a spoken run-on).
      const said = new Set(current.flatMap((earlier) => kindsSaid(earlier, STRONG)));
      const saying = kindsSaid(item, STRONG).length > 0 ? kindsSaid(item, STRONG) : kindsSaid(item, WEAK);
      if (said.size > 0 && saying.every((kind) => !said.has(kind))) close();
    }
    current.push(item);
  });
  close();
  return clauses;
}

// ——— Reading one action ———

/** Which names an action takes, in the order an item naming several is taken as. */
const NAMES_TAKEN: Record<ClauseKind, readonly NameKind[]> = {
  cull: ['grid'],
  uncull: ['grid'],
  'mark-scanned': ['room', 'grid'],
  problem: ['problem', 'grid'],
  'batch-status': ['batch', 'status'],
  harvest: ['batch'],
  'fill-form': ['form', 'grid'],
};

const TAKES_BOXES: ReadonlySet<ClauseKind> = new Set(['cull', 'uncull', 'problem', 'fill-form']);

/** The kind of action a clause is: from its words, else from the names in it; failing when it says two. */
function kindOf(body: readonly Item[], said: string): ClauseKind {
  const strong = new Set(body.flatMap((item) => kindsSaid(item, STRONG)));
  const weak = new Set(body.flatMap((item) => kindsSaid(item, WEAK)));
  // "put box 7 back", "zet vak 7 terug": a cull taken back, unless a batch goes back to a status.
  if (body.some((item) => item.roles.has('back')) && !body.some((item) => Boolean(item.names.batch) || item.roles.has('batch'))) strong.add('uncull');
  const verbs = strong.size > 0 ? strong : weak;
  if (verbs.size > 1) fail({ code: 'mixedActions' }, 'several');
  const [kind] = verbs;
  if (kind) return kind;
  const any = (test: (item: Item) => boolean) => body.some(test);
  if (any((item) => Boolean(item.names.problem) || item.roles.has('problem'))) return 'problem';
  if (any((item) => Boolean(item.names.batch) || item.roles.has('batch'))) return 'batch-status';
  if (any((item) => Boolean(item.names.form) || item.roles.has('form'))) return 'fill-form';
  return fail({ code: 'unreadable', said }, 'cull');
}

/** Box numbers said together, and where (an item's index) they were said. */
interface BoxList {
  boxes: number[];
  at: number;
}

/** A grid said, where it was said, and as it was said (for an answer about it). */
interface GridSaid {
  name: string;
  at: number;
  said: string;
}

/** Box numbers from `start` ("box 4", "boxes 4, 5 and 9", "4 to 9", "del 4 al 9"), and where reading goes on. */
function readBoxes(body: readonly Item[], start: number, example: ClauseKind): { boxes: number[]; next: number } {
  const boxes: number[] = [];
  const add = (number: number) => {
    if (!Number.isSafeInteger(number) || number < 1) fail({ code: 'boxNumber' }, example);
    boxes.push(number);
  };
  const skip = (from: number, also: (item: Item) => boolean) => {
    let at = from;
    while (at < body.length && (onlyFiller(body[at]!) || also(body[at]!))) at += 1;
    return at;
  };
  let at = skip(start, (item) => item.roles.has('box') || (item.roles.has('place') && item.number === null));
  if (at >= body.length || body[at]!.number === null) fail({ code: 'boxesMissing' }, example);
  for (;;) {
    const first = body[at]!.number!;
    at += 1;
    const joiner = skip(at, () => false);
    const run = joiner < body.length && (body[joiner]!.roles.has('range') || body[joiner]!.punct === '-') ? skip(joiner + 1, (item) => item.roles.has('box')) : -1;
    // "box 3 to" and nothing after: the end of the run was not heard; the boxes are not guessed.
    if (run >= body.length || (run >= 0 && body[run]!.number === null && !body[joiner]!.roles.has('status'))) fail({ code: 'boxesMissing' }, example);
    if (run >= 0 && body[run]!.number !== null) {
      const last = body[run]!.number!;
      const [low, high] = first <= last ? [first, last] : [last, first];
      add(low);
      add(high);
      if (high - low + 1 > COMMAND_BOXES_MAX) fail({ code: 'tooManyBoxes' }, example);
      for (let number = low + 1; number < high; number += 1) boxes.push(number);
      at = run + 1;
    } else add(first);
    let next = at;
    if (next < body.length && (body[next]!.roles.has('and') || body[next]!.punct === ',')) next += 1;
    next = skip(next, (item) => item.roles.has('box'));
    if (next < body.length && body[next]!.number !== null && (next > at || plainNumber(body[next]!))) {
      at = next;
      continue;
    }
    return { boxes, next: at };
  }
}

/** The severity after "severity" at `start` ("severity 3", "severidad de tres", "ernst: 2"), and where reading goes on. */
function readSeverity(body: readonly Item[], start: number, reading: Reading): { severity: number; next: number } {
  let at = start + 1;
  while (at < body.length && (onlyFiller(body[at]!) || body[at]!.punct === ':' || (body[at]!.roles.has('place') && body[at]!.number === null))) at += 1;
  const severity = body[at]?.number ?? null;
  if (severity === null) return fail({ code: 'severityMissing' }, 'problem');
  if (!Number.isInteger(severity) || severity < SEVERITY_MIN || severity > SEVERITY_MAX) fail({ code: 'severityOutOfRange', said: saidOf([body[at]!], reading) }, 'problem');
  return { severity, next: at + 1 };
}

/** Boxes and grids said, as groups of one grid each: a grid said after boxes is theirs, else the one before. */
function boxesByGrid(lists: readonly BoxList[], grids: readonly GridSaid[], example: ClauseKind) {
  if (lists.length === 0) fail({ code: 'boxesMissing' }, example);
  const used = new Set<number>();
  const groups = new Map<string | null, Set<number>>();
  lists.forEach((list, index) => {
    const until = lists[index + 1]?.at ?? Infinity;
    const after = grids.findIndex((grid) => grid.at > list.at && grid.at < until);
    const before = grids.findLastIndex((grid) => grid.at < list.at);
    const chosen = after >= 0 ? after : before;
    if (chosen >= 0) used.add(chosen);
    const grid = chosen >= 0 ? grids[chosen]!.name : null;
    const group = groups.get(grid) ?? new Set<number>();
    list.boxes.forEach((box) => group.add(box));
    groups.set(grid, group);
  });
  const unused = grids.find((_, index) => !used.has(index));
  if (unused) fail({ code: 'leftover', said: unused.said }, example);
  return [...groups].map(([grid, boxes]) => ({ boxes: [...boxes].sort((a, b) => a - b), grid }));
}

/** One clause (one action, or one said for several names or grids) as its actions. */
export function readClause(clause: readonly Item[], reading: Reading): CommandAction[] {
  const notesAt = clause.findIndex((item) => item.roles.has('notes'));
  const body = notesAt >= 0 ? clause.slice(0, notesAt) : clause;
  const notes = notesAt >= 0 ? reading.text.slice(clause[notesAt]!.to, clause[clause.length - 1]!.to).replace(/^[\s:–—-]+/u, '').trim() || null : null;
  const kind = kindOf(body, saidOf(body.length > 0 ? body : clause, reading));
  if (notes !== null && kind !== 'problem') fail({ code: 'notesOnlyForProblems' }, 'problem');
  if (notes !== null && notes.length > COMMAND_NOTES_MAX_CHARS) fail({ code: 'notesTooLong' }, 'problem');

  const taken = NAMES_TAKEN[kind];
  const takesBoxes = TAKES_BOXES.has(kind);
  const boxWordSaid = body.some((item) => item.roles.has('box'));
  const lists: BoxList[] = [];
  const grids: GridSaid[] = [];
  const named: Record<NameKind, string[]> = { room: [], grid: [], batch: [], form: [], problem: [], status: [] };
  const targets: { target: 'room' | 'grid'; name: string }[] = [];
  let severity: number | null = null;
  let expect: CommandNameKind | null = null;
  let targetWord: 'room' | 'grid' | null = null;

  const take = (nameKind: NameKind, name: string, at: number, said: string) => {
    if (kind === 'mark-scanned') targets.push({ target: nameKind === 'grid' ? 'grid' : 'room', name });
    else if (nameKind === 'grid') grids.push({ name, at, said });
    else if (!named[nameKind].includes(name)) named[nameKind].push(name);
  };
  /** The kind of name an item is taken as here: the one expected ("grid …", "to …"), else the action's first. */
  const nameIn = (item: Item): NameKind | null => {
    const order = expect === null ? taken : [...kindsOf(expect), ...taken];
    return order.find((nameKind) => taken.includes(nameKind) && item.names[nameKind] !== undefined) ?? null;
  };
  /**
   * What unknown words stand for where they are: the name expected ("in …", "batch …"), else the one the
   * action still lacks. A grid is optional: words that are no grid and not close to one are left over.
   */
  const unknownKind = (): { kind: CommandNameKind; optional: boolean } | null => {
    if (expect !== null) return { kind: expect, optional: false };
    const needed = (wanted: CommandNameKind) => ({ kind: wanted, optional: false });
    const optionalGrid = grids.length === 0 ? { kind: 'grid' as const, optional: true } : null;
    switch (kind) {
      case 'mark-scanned':
        return targets.length === 0 ? needed(targetWord ?? 'place') : null;
      case 'batch-status':
        return named.batch.length === 0 ? needed('batch') : named.status.length === 0 ? needed('status') : null;
      case 'harvest':
        return named.batch.length === 0 ? needed('batch') : null;
      case 'problem':
        return named.problem.length === 0 ? needed('problem') : optionalGrid;
      case 'fill-form':
        return named.form.length === 0 ? needed('form') : optionalGrid;
      default:
        return optionalGrid;
    }
  };

  for (let at = 0; at < body.length; ) {
    const item = body[at]!;
    if (item.punct) {
      at += 1;
      continue;
    }
    // A number is a box when no "box" is said at all ("cull 12"), or when it goes on a list ("box 3 in Bench A and 4").
    const listGoesOn = lists.length > 0 && at > 0 && (body[at - 1]!.roles.has('and') || body[at - 1]!.punct === ',');
    if (takesBoxes && !hasName(item) && (item.roles.has('box') || (plainNumber(item) && (!boxWordSaid || listGoesOn)))) {
      const read = readBoxes(body, at, kind);
      lists.push({ boxes: read.boxes, at });
      at = read.next;
      expect = null;
      continue;
    }
    if (kind === 'problem' && item.roles.has('severity')) {
      const read = readSeverity(body, at, reading);
      if (severity !== null && severity !== read.severity) fail({ code: 'twoSeverities' }, kind);
      severity = read.severity;
      at = read.next;
      continue;
    }
    const nameKind = nameIn(item);
    if (nameKind) {
      take(nameKind, item.names[nameKind]!, at, saidOf([item], reading));
      expect = null;
      at += 1;
      continue;
    }
    const word = (['room', 'grid', 'batch', 'form', 'problem'] as const).find((nameKind) => item.roles.has(nameKind) && taken.includes(nameKind));
    if (word) {
      expect = word;
      if (kind === 'mark-scanned' && (word === 'room' || word === 'grid')) targetWord = word;
      at += 1;
      continue;
    }
    if (kind === 'batch-status' && item.roles.has('status')) {
      expect = 'status';
      at += 1;
      continue;
    }
    if (takesBoxes && item.roles.has('place')) {
      expect = 'grid';
      at += 1;
      continue;
    }
    // Joining words, prepositions and the action's own verbs ("mark" in "mark box 3 culled" too) say nothing more here.
    const joining = ['and', 'place', 'status', 'range', 'back'].some((role) => item.roles.has(role as CommandRole)) || isVerb(item);
    if (onlyFiller(item) || (item.number === null && joining) || (!takesBoxes && item.roles.has('filler'))) {
      at += 1;
      continue;
    }
    // Words the language knows, but not in this action ("harvest box 3"), or a number out of place.
    if ([...item.roles].some((role) => role !== 'filler') || item.number !== null) return fail({ code: 'leftover', said: saidOf([item], reading) }, kind);
    // Words the language does not know: a name not found, or words left over.
    // No longer than a name may be said: the answer quotes a name, not the rest of a run-on sentence.
    let end = at;
    const until = Math.min(body.length, at + reading.names.longest);
    while (end < until && !body[end]!.punct && nameIn(body[end]!) === null && [...body[end]!.roles].every((role) => role === 'filler')) end += 1;
    while (end > at + 1 && onlyFiller(body[end - 1]!)) end -= 1;
    const span = body.slice(at, Math.max(end, at + 1));
    const said = saidOf(span, reading);
    const unknown = unknownKind();
    if (unknown === null) return fail({ code: 'leftover', said }, kind);
    const typo = typoOf(span, unknown.kind, reading);
    if (!typo) {
      const close = closeNames(unknown.kind, said, reading);
      return fail(unknown.optional && close.length === 0 ? { code: 'leftover', said } : { code: 'notFound', kind: unknown.kind, said, close }, kind);
    }
    take(typo.known.kind, typo.known.name, at, saidOf(span.slice(0, typo.items), reading));
    expect = null;
    at += typo.items;
  }

  return actionsOf(kind, { lists, grids, named, targets, targetWord, severity, notes });
}

/** What one clause said, as it was read. */
interface Said {
  lists: readonly BoxList[];
  grids: readonly GridSaid[];
  named: Readonly<Record<NameKind, readonly string[]>>;
  /** Rooms and grids to mark scanned. */
  targets: readonly { target: 'room' | 'grid'; name: string }[];
  /** "room" or "grid" said before a name, or instead of one ("mark grid scanned"). */
  targetWord: 'room' | 'grid' | null;
  severity: number | null;
  notes: string | null;
}

/** The actions a clause says: one per name and grid said ("harvest B-001 and B-002": two), or what it lacks. */
function actionsOf(kind: ClauseKind, { lists, grids, named, targets, targetWord, severity, notes }: Said): CommandAction[] {
  switch (kind) {
    case 'cull':
    case 'uncull':
      return boxesByGrid(lists, grids, kind).map((group) => ({ kind: 'cull', culled: kind === 'cull', ...group }));
    case 'mark-scanned':
      return targets.length === 0 ? [{ kind: 'mark-scanned', target: targetWord ?? 'room', name: null }] : targets.map((target) => ({ kind: 'mark-scanned', ...target }));
    case 'problem': {
      if (named.problem.length === 0) fail({ code: 'missing', kind: 'problem' }, kind);
      if (severity === null) return fail({ code: 'severityMissing' }, kind);
      const groups = boxesByGrid(lists, grids, kind);
      const level = severity;
      return named.problem.flatMap((problem) => groups.map((group) => ({ kind: 'problem' as const, problem, severity: level, notes, ...group })));
    }
    case 'batch-status': {
      if (named.batch.length === 0) fail({ code: 'missing', kind: 'batch' }, kind);
      if (named.status.length === 0) fail({ code: 'missing', kind: 'status' }, kind);
      if (named.status.length > 1) fail({ code: 'twoStatuses' }, kind);
      const status = named.status[0]!;
      return named.batch.map((batch) => ({ kind: 'batch-status', batch, status }));
    }
    case 'harvest':
      if (named.batch.length === 0) fail({ code: 'missing', kind: 'batch' }, kind);
      return named.batch.map((batch) => ({ kind: 'harvest', batch }));
    case 'fill-form': {
      if (named.form.length === 0) fail({ code: 'missing', kind: 'form' }, kind);
      const groups = boxesByGrid(lists, grids, kind);
      return named.form.flatMap((form) => groups.map((group) => ({ kind: 'fill-form' as const, form, ...group })));
    }
  }
}

