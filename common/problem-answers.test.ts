/** The Problem field's answer format: written and read back alike on both sides, refused with its message. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formResponseMessages as m } from './messages/form-responses';
import { PROBLEM_TYPE_MAX } from './messages/problems';
import { CATALOGUE } from './plant-problems';
import { canNameProblem, formatProblemAnswer, parseProblemAnswer, problemAnswerError, problemsOfAnswers, PROBLEMS_PER_ANSWER_MAX } from './problem-answers';

describe('formatProblemAnswer and parseProblemAnswer', () => {
  it('write names with their severity in brackets, joined by ", ", and read them back', () => {
    const problems = [
      { name: 'Two-spotted spider mite', severity: 3 },
      { name: 'Powdery mildew', severity: 1 },
    ];
    const answer = formatProblemAnswer(problems);
    expect(answer).toBe('Two-spotted spider mite (3), Powdery mildew (1)');
    expect(parseProblemAnswer(answer)).toEqual(problems);
    expect(formatProblemAnswer([])).toBe('');
    expect(parseProblemAnswer('')).toEqual([]);
    expect(parseProblemAnswer('   ')).toEqual([]);
    expect(parseProblemAnswer(null)).toEqual([]);
  });

  it('keep brackets and commas inside a name: only a whole number in brackets closing an item is a severity', () => {
    const answer = 'Botrytis (grey mould, bud rot) (4), Root rot (phytophthora) (2), Our mystery spots (5)';
    expect(parseProblemAnswer(answer)).toEqual([
      { name: 'Botrytis (grey mould, bud rot)', severity: 4 },
      { name: 'Root rot (phytophthora)', severity: 2 },
      { name: 'Our mystery spots', severity: 5 },
    ]);
  });

  it('read every catalogue name back as itself', () => {
    const problems = CATALOGUE.map((problem, index) => ({ name: problem.name, severity: (index % 5) + 1 }));
    expect(parseProblemAnswer(formatProblemAnswer(problems))).toEqual(problems);
    for (const problem of CATALOGUE) expect(canNameProblem(problem.name)).toBe(true);
  });

  it('read as typed by hand: spacing around brackets and commas, names tidied', () => {
    expect(parseProblemAnswer('  Thrips(2),Aphids ( 5 ) ,  fungus   gnats (1) ')).toEqual([
      { name: 'Thrips', severity: 2 },
      { name: 'Aphids', severity: 5 },
      { name: 'fungus gnats', severity: 1 },
    ]);
  });

  it('refuse what is not in the format', () => {
    for (const answer of ['Thrips', 'Thrips (0)', 'Thrips (6)', 'Thrips (2.5)', 'Thrips (-1)', 'Thrips (high)', '(3)', 'Thrips (2),', 'Thrips (2), , Aphids (3)', 'Thrips (2) Aphids (3)', 'Leaf spot (2) (3)', 'Thrips (2), Aphids'])
      expect(parseProblemAnswer(answer), answer).toBeNull();
  });

  it('any list of nameable problems reads back as written', () => {
    const name = fc.string({ minLength: 1, maxLength: 40 }).filter(canNameProblem);
    fc.assert(
      fc.property(fc.array(fc.record({ name, severity: fc.integer({ min: 1, max: 5 }) }), { maxLength: 6 }), (problems) => {
        const read = parseProblemAnswer(formatProblemAnswer(problems));
        expect(read).toEqual(problems.map((problem) => ({ name: problem.name.trim().replace(/\s+/g, ' '), severity: problem.severity })));
      }),
    );
  });
});

describe('canNameProblem', () => {
  it('refuses a blank name, one too long, one with a number in brackets (a severity) or one that reads as two', () => {
    expect(canNameProblem('Leaf spot')).toBe(true);
    expect(canNameProblem('  ')).toBe(false);
    expect(canNameProblem('x'.repeat(PROBLEM_TYPE_MAX + 1))).toBe(false);
    expect(canNameProblem('Leaf spot (2)')).toBe(false);
    expect(canNameProblem(', leaf spot')).toBe(false);
    expect(canNameProblem('Leaf spot (2), rust')).toBe(false);
    expect(canNameProblem('Rust, leaf spot')).toBe(true);
  });
});

describe('problemAnswerError', () => {
  it('gives each message, and none for a good or blank answer', () => {
    expect(problemAnswerError('Pests', 'Thrips (2), Aphids (3)')).toBeNull();
    expect(problemAnswerError('Pests', '')).toBeNull();
    expect(problemAnswerError('Pests', 'Thrips')).toBe(m.problemAnswerInvalid('Pests'));
    expect(m.problemAnswerInvalid('Pests')).toBe('Field Pests: name each problem with its severity from 1 to 5, as "Powdery mildew (2)".');
    expect(problemAnswerError('Pests', 'Thrips (2), thrips  (4)')).toBe(m.problemNamedTwice('Pests', 'thrips'));
    expect(problemAnswerError('Pests', `${'x'.repeat(PROBLEM_TYPE_MAX + 1)} (2)`)).toBe(m.problemNameTooLong('Pests', PROBLEM_TYPE_MAX));
    const many = formatProblemAnswer(Array.from({ length: PROBLEMS_PER_ANSWER_MAX + 1 }, (_, index) => ({ name: `Pest ${index}`, severity: 1 })));
    expect(problemAnswerError('Pests', many)).toBe(m.problemsTooMany('Pests', PROBLEMS_PER_ANSWER_MAX));
  });
});

describe('problemsOfAnswers', () => {
  it('numbers the problems of Problem fields in the order of the answers, then of each answer; other fields are not read', () => {
    const { problems, error } = problemsOfAnswers([
      { fieldName: 'Notes', fieldType: 'Text', inputData: 'Thrips (2)' },
      { fieldName: 'Pests', fieldType: 'Problem', inputData: 'Thrips (2), Aphids (3)' },
      { fieldName: 'Diseases', fieldType: 'Problem', inputData: null },
      { fieldName: 'More', fieldType: 'Problem', inputData: 'Powdery mildew (1)' },
    ]);
    expect(error).toBeNull();
    expect(problems).toEqual([
      { name: 'Thrips', severity: 2 },
      { name: 'Aphids', severity: 3 },
      { name: 'Powdery mildew', severity: 1 },
    ]);
  });

  it('answers the first bad answer’s message', () => {
    const result = problemsOfAnswers([
      { fieldName: 'Pests', fieldType: 'Problem', inputData: 'Thrips (2)' },
      { fieldName: 'Diseases', fieldType: 'Problem', inputData: 'mildew' },
    ]);
    expect(result).toEqual({ problems: [], error: m.problemAnswerInvalid('Diseases') });
  });
});
