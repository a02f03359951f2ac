/**
 * The answer of a form's Problem field (issue 14: a scouting form answer that names a problem), the
 * same on the tablet and the server. It is text, as every answer is, so exports and the response
 * screens show it as it reads:
 *
 *     Two-spotted spider mite (3), Powdery mildew (1)
 *
 * each problem by its name (the catalogue's, common/plant-problems, or the company's own type) with its
 * severity from 1 to 5 in brackets, several joined by ", " as a Checkbox answer's choices are. A name
 * may itself hold brackets and commas (the catalogue's "Botrytis (grey mould, bud rot)"), but not a whole
 * number in brackets: that is a severity, and it closes an item. A response for a grid box records each problem named
 * as a plant problem on the box (server/domains/forms/responses.ts, src/api/form-responses.ts), numbered
 * as `problemsOfAnswers` numbers them.
 */
import { CHOICE_SEPARATOR } from './form-rules';
import { formResponseMessages as m } from './messages/form-responses';
import { PROBLEM_FIELD_TYPE } from './messages/forms';
import { PROBLEM_TYPE_MAX, SEVERITY_MAX, SEVERITY_MIN } from './messages/problems';

/** A problem an answer names. */
export interface NamedProblem {
  name: string;
  severity: number;
}

/** At most this many problems in one answer: each becomes a record on every box of the submission. */
export const PROBLEMS_PER_ANSWER_MAX = 20;

/**
 * One item: a name (shortest first, so a bracketed aside stays in the name), its severity in brackets,
 * then the separator and more, or the end.
 */
const ITEM = /^(.+?)\s*\(\s*(\d+)\s*\)\s*(?:,\s*(?=\S)|$)/su;

/** A whole number in brackets: a severity, never part of a name. */
const SEVERITY_IN_NAME = /\(\s*\d+\s*\)/u;

/** A name as it is kept: trimmed, inner runs of spaces as one. */
const tidy = (name: string) => name.trim().replace(/\s+/g, ' ');

/** Names compare without case or spacing. */
const sameName = (name: string) => tidy(name).toLowerCase();

/** The answer text of the problems named (each name tidied), '' for none. */
export function formatProblemAnswer(problems: readonly NamedProblem[]): string {
  return problems.map((problem) => `${tidy(problem.name)} (${problem.severity})`).join(CHOICE_SEPARATOR);
}

/**
 * The problems an answer names, in its order; [] for a blank answer; null when it is not in the format
 * (an item without a severity, a severity outside 1–5 or not whole, an empty name). Names are not
 * checked here for length or repeats: `problemAnswerError` is.
 */
export function parseProblemAnswer(answer: string | null | undefined): NamedProblem[] | null {
  let rest = (answer ?? '').trim();
  const problems: NamedProblem[] = [];
  while (rest !== '') {
    const match = ITEM.exec(rest);
    if (!match) return null;
    const name = tidy(match[1]!);
    const severity = Number(match[2]);
    // A name starts with a letter or a digit (", , Thrips (2)" is a slip of the pen, not a name) and
    // holds no severity ("Thrips (2) Aphids (3)" lacks a comma; it is not one problem named so).
    if (!/^[\p{L}\p{N}]/u.test(name) || SEVERITY_IN_NAME.test(name) || severity < SEVERITY_MIN || severity > SEVERITY_MAX) return null;
    problems.push({ name, severity });
    rest = rest.slice(match[0].length);
  }
  return problems;
}

/**
 * Whether a problem's name can be written in an answer and read back as itself: not blank, not too
 * long, without a whole number in brackets (a severity) or a comma that would start a new item.
 */
export function canNameProblem(name: string): boolean {
  const kept = tidy(name);
  if (kept === '' || kept.length > PROBLEM_TYPE_MAX) return false;
  const read = parseProblemAnswer(formatProblemAnswer([{ name: kept, severity: SEVERITY_MIN }]));
  return read?.length === 1 && read[0]!.name === kept;
}

/**
 * What is wrong with a Problem field's answer, as the message to show (common/messages/form-responses.ts),
 * or null when it is fine (a blank answer is: the field's being required is checked apart).
 */
export function problemAnswerError(fieldName: string, answer: string | null | undefined): string | null {
  const problems = parseProblemAnswer(answer);
  if (problems === null) return m.problemAnswerInvalid(fieldName);
  if (problems.length > PROBLEMS_PER_ANSWER_MAX) return m.problemsTooMany(fieldName, PROBLEMS_PER_ANSWER_MAX);
  const seen = new Set<string>();
  for (const problem of problems) {
    if (problem.name.length > PROBLEM_TYPE_MAX) return m.problemNameTooLong(fieldName, PROBLEM_TYPE_MAX);
    const key = sameName(problem.name);
    if (seen.has(key)) return m.problemNamedTwice(fieldName, problem.name);
    seen.add(key);
  }
  return null;
}

/** An answer as both sides see it: the field's name and type (from the template) and the text given. */
export interface TypedAnswer {
  fieldName: string;
  fieldType: string;
  inputData: string | null;
}

/**
 * The problems a submission's answers name: those of its Problem fields, in the order of the answers and
 * then of each answer's problems. Their place in this list (0, 1, …) is how both sides name the plant
 * problem each becomes on a box (common/client-ids.ts `formProblemClientId`), so the order is part of
 * the contract. `error`: the first answer's message (`problemAnswerError`), when one is not in the format.
 */
export function problemsOfAnswers(answers: readonly TypedAnswer[]): { problems: NamedProblem[]; error: string | null } {
  const problems: NamedProblem[] = [];
  for (const answer of answers) {
    if (answer.fieldType !== PROBLEM_FIELD_TYPE) continue;
    const error = problemAnswerError(answer.fieldName, answer.inputData);
    if (error) return { problems: [], error };
    problems.push(...parseProblemAnswer(answer.inputData)!);
  }
  return { problems, error: null };
}
