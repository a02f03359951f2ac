/**
 * The command bar's parser (issue 18, "The command bar"): reads a typed or spoken command such as "cull box
 * 12 in Bench A" into the actions of common/commands/actions.ts, on the tablet itself (no outside service,
 * so offline too), in English, Spanish or Dutch. Pure and synchronous. Its words and answers are in
 * phrases.ts; words.ts reads words and names, clauses.ts reads each action; this file joins them and
 * answers.
 *
 * How a command is read, and the choices made where the issue leaves them open:
 * - Case, accents and punctuation do not matter ("FLORACIÓN" is "floracion"), nor spaces and hyphens inside
 *   a name ("b 001", "B001" and "b-001" are batch "B-001"; "flower one" is room "Flower 1"). Numbers may
 *   be words from zero to a hundred in the command's language ("twelve", "doce", "twaalf").
 * - A name is returned as the vocabulary spells it. A small typo in a word of four letters or more is
 *   forgiven when it points at one name only ("spyder mites", "Flowring"); digits and one-letter words
 *   never are, so "Bench C" is not taken for "Bench A" and "B-011" not for "B-001": those answer that the
 *   name was not found, with the close names.
 * - A name with words in brackets may be said without them or as one of them: "botrytis" and "bud rot" are
 *   "Botrytis (grey mould, bud rot)", as the problem catalogue writes its names.
 * - Boxes: "box 4", "boxes 4, 5 and 9", "boxes 4 to 9" / "4-9" / "cajas 4 a 9" / "vakken 4 t/m 9"; a run
 *   includes both ends in every language, Dutch "tot" too (growers count "vak 4 tot 9" along a bench, and
 *   the confirm list shows the boxes). A grid named right after boxes is theirs ("box 3 in Bench A and
 *   box 5 in Bench B": two actions), else the one named before them, else the grid on screen (`null`).
 *   At most COMMAND_BOXES_MAX boxes in one command, counted once each, and COMMAND_ACTIONS_MAX actions.
 * - Several actions: "and then" / "y luego" / "en dan" (also "y después", "en daarna") or ";" always end an
 *   action; "and", "then" or a comma end one where the next words start another ("cull box 3 and
 *   harvest B-001"), so "harvest B-001 and B-002" is two harvests and "spider mites and thrips severity 3
 *   on box 4" two problem reports on the same box.
 * - Notes ("notes:", "notas", "opmerking") take the rest of their action as written, to the next "and
 *   then" or ";" only, so a note may say "mites and eggs, spray then check". Only problem reports have
 *   notes.
 * - A problem report needs its severity (1–5) and its boxes; filling a form needs its boxes too (the
 *   command bar opens a form for boxes). "mark grid scanned" without a name is the grid on screen, "mark
 *   scanned" the room on screen.
 * - Languages: the command's language is tried first, then the other two, so a Dutch grower may say
 *   "harvest B-001". Words of two languages are never mixed in one reading. When no language reads the
 *   command, the answer is the failure of the language that knew most of its words (then the most telling
 *   one: an unknown name rather than "not a command"), always said in the command's language with an
 *   example in it.
 */
import { COMMAND_ACTIONS_MAX, COMMAND_BOXES_MAX, COMMAND_MAX_CHARS, COMMAND_NOTES_MAX_CHARS } from '../messages/commands';
import { COMMAND_LANGUAGES, type CommandAction, type CommandLanguage, type CommandVocabulary, type ParsedCommand } from './actions';
import { fail, type Failure, readClause, splitActions, Unreadable } from './clauses';
import { COMMAND_PHRASES, type CommandPhrases, EXAMPLE_NAME_FALLBACKS, type ExampleNames } from './phrases';
import { hasName, indexNames, itemize, languageOf, onlyFiller, type Reading, tokenize } from './words';

/** The whole command in one language: its actions, or why it cannot be read. */
function readIn(text: string, code: CommandLanguage, vocabulary: CommandVocabulary): CommandAction[] {
  const language = languageOf(code);
  const names = indexNames(vocabulary, language);
  const reading: Reading = { text, language, names, vocabulary };
  const items = itemize(tokenize(text), language, names);
  try {
    const actions: CommandAction[] = [];
    for (const clause of splitActions(items)) {
      // A clause of "please" or a stray "and" says nothing.
      if (clause.every((item) => item.punct !== null || onlyFiller(item) || item.roles.has('and') || item.roles.has('next'))) continue;
      actions.push(...readClause(clause, reading));
    }
    if (actions.length === 0) fail({ code: 'unreadable', said: text.trim() }, 'cull');
    if (actions.length > COMMAND_ACTIONS_MAX) fail({ code: 'tooManyActions' }, 'several');
    const boxes = new Set(actions.flatMap((action) => ('boxes' in action ? action.boxes.map((box) => `${action.grid ?? ''}\u0000${box}`) : [])));
    if (boxes.size > COMMAND_BOXES_MAX) fail({ code: 'tooManyBoxes' }, 'cull');
    return actions;
  } catch (error) {
    if (error instanceof Unreadable) error.unknownWords = items.filter((item) => !item.punct && item.roles.size === 0 && item.number === null && !hasName(item)).length;
    throw error;
  }
}

// ——— Answers ———

/** How telling a failure is: "not a command" least, an unknown name or a bad severity most. */
const telling = (failure: Failure) => (failure.code === 'unreadable' ? 0 : failure.code === 'leftover' || failure.code === 'mixedActions' ? 1 : 2);

/** The names examples use: the company's first of each kind, so an example is one it can run. */
function exampleNames(vocabulary: CommandVocabulary): ExampleNames {
  const first = (names: readonly string[], fallback: string) => names.find((name) => name.trim() !== '') ?? fallback;
  return {
    room: first(vocabulary.rooms, EXAMPLE_NAME_FALLBACKS.room),
    grid: first(vocabulary.grids, EXAMPLE_NAME_FALLBACKS.grid),
    batch: first(vocabulary.batches, EXAMPLE_NAME_FALLBACKS.batch),
    form: first(vocabulary.forms, EXAMPLE_NAME_FALLBACKS.form),
    problem: first(vocabulary.problems, EXAMPLE_NAME_FALLBACKS.problem),
  };
}

/** A failure in the command's language. */
function messageOf(failure: Failure, phrases: CommandPhrases): string {
  const m = phrases.messages;
  switch (failure.code) {
    case 'empty':
      return m.empty;
    case 'tooLong':
      return m.tooLong(COMMAND_MAX_CHARS);
    case 'unreadable':
      return m.unreadable(failure.said);
    case 'leftover':
      return m.leftover(failure.said);
    case 'notFound':
      return failure.close.length > 0 ? `${m.notFound[failure.kind](failure.said)} ${m.didYouMean(failure.close)}` : m.notFound[failure.kind](failure.said);
    case 'missing':
      return m.missing[failure.kind];
    case 'severityOutOfRange':
      return m.severityOutOfRange(failure.said);
    case 'tooManyBoxes':
      return m.tooManyBoxes(COMMAND_BOXES_MAX);
    case 'tooManyActions':
      return m.tooManyActions(COMMAND_ACTIONS_MAX);
    case 'notesTooLong':
      return m.notesTooLong(COMMAND_NOTES_MAX_CHARS);
    default:
      return m[failure.code];
  }
}

/**
 * Reads a typed or spoken command into the actions it says, in the order said, or answers why it cannot
 * (in `language`, with an example command it can read, naming the company's own grid, batch, … where it
 * has them). `language` is the company's: tried first, then the other two (see the top comment).
 */
export function parseCommand(text: string, language: CommandLanguage, vocabulary: CommandVocabulary): ParsedCommand {
  const phrases = COMMAND_PHRASES[language];
  const answer = (failure: Failure): ParsedCommand => ({ ok: false, message: messageOf(failure, phrases), example: phrases.examples[failure.example](exampleNames(vocabulary)) });
  if (text.length > COMMAND_MAX_CHARS) return answer({ code: 'tooLong', example: 'several' });
  if (!/[\p{L}\p{N}]/u.test(text)) return answer({ code: 'empty', example: 'cull' });
  let best: Unreadable | null = null;
  for (const code of [language, ...COMMAND_LANGUAGES.filter((other) => other !== language)]) {
    try {
      return { ok: true, actions: readIn(text, code, vocabulary) };
    } catch (error) {
      if (!(error instanceof Unreadable)) throw error;
      // The language that knew most of the words, then the most telling failure; the command's language on a tie.
      const better = best === null || error.unknownWords < best.unknownWords || (error.unknownWords === best.unknownWords && telling(error.failure) > telling(best.failure));
      if (better) best = error;
    }
  }
  return answer(best!.failure);
}
