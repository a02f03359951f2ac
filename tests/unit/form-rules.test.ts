/** What a form shows and requires (common/form-rules.ts), the rules the tablet and the server share. */
import { describe, expect, it } from 'vitest';
import { type Answers, CHOICE_SEPARATOR, choicesOf, fieldOptionsProblem, firstMissingRequired, type HideRule, isBlank, type RuleField, visibleFieldIds } from '../../common/form-rules';
import { formMessages } from '../../common/messages/forms';

const fieldOf = (FieldID: number | string, FieldName: string, FieldType = 'Text', IsRequired: number | boolean = 0, IsActive: number | boolean = 1): RuleField => ({ FieldID, FieldName, FieldType, IsRequired, IsActive });
const rule = (hidden: number | string, linked: number | string, input: string): HideRule => ({ form_field_hidden_FieldID: hidden, form_field_linked_FieldID: linked, form_field_linked_input: input });
const answers = (entries: Record<string, string | null>): Answers => new Map(Object.entries(entries));
const visible = (fields: RuleField[], rules: HideRule[], given: Record<string, string | null>) => [...visibleFieldIds(fields, rules, answers(given))];

describe('isBlank and choicesOf', () => {
  it('blank is null, undefined or only spaces', () => {
    expect([null, undefined, '', '   ', '\t'].map(isBlank)).toEqual([true, true, true, true, true]);
    expect([' x', '0'].map(isBlank)).toEqual([false, false]);
  });

  it("a Checkbox answer's choices are split on ', ', trimmed, blanks dropped", () => {
    expect(CHOICE_SEPARATOR).toBe(', ');
    expect(choicesOf(['Aphids', 'Thrips', 'Spider mites'].join(CHOICE_SEPARATOR))).toEqual(['Aphids', 'Thrips', 'Spider mites']);
    expect(choicesOf(' Aphids ,  , Thrips')).toEqual(['Aphids', 'Thrips']);
    expect(choicesOf('   ')).toEqual([]);
    expect(choicesOf(null)).toEqual([]);
  });
});

describe('visibleFieldIds', () => {
  const seen = fieldOf(1, 'Mites seen', 'Radio', 1);
  const count = fieldOf(2, 'Mite count', 'Number', 1);
  const notes = fieldOf(3, 'Notes', 'Textarea');

  it('active fields without a rule show, in the fields’ order, as text ids; inactive ones never', () => {
    expect(visible([notes, seen, fieldOf(9, 'Old', 'Text', 1, 0), count], [], {})).toEqual(['3', '1', '2']);
    expect(visible([fieldOf('4', 'A', 'Text', 0, false), fieldOf(5, 'B', 'Text', 0, true)], [], {})).toEqual(['5']);
  });

  it('a hidden field shows once its linked field is answered with the input, trimmed and in any case', () => {
    const rules = [rule(2, 1, 'Yes')];
    expect(visible([seen, count], rules, {})).toEqual(['1']);
    expect(visible([seen, count], rules, { 1: 'No' })).toEqual(['1']);
    expect(visible([seen, count], rules, { 1: 'Yes' })).toEqual(['1', '2']);
    expect(visible([seen, count], rules, { 1: '  yes ' })).toEqual(['1', '2']);
    expect(visible([seen, count], rules, { 1: 'Yes please' })).toEqual(['1']);
    expect(visible([seen, count], [rule(2, 1, '  YES ')], { 1: 'yes' })).toEqual(['1', '2']);
  });

  it('ids match whether numbers or text (rules from the server, fields made offline)', () => {
    expect(visible([fieldOf('tmp-a', 'A'), fieldOf('tmp-b', 'B')], [rule('tmp-b', 'tmp-a', 'go')], { 'tmp-a': 'go' })).toEqual(['tmp-a', 'tmp-b']);
    expect(visible([seen, count], [rule('2', '1', 'Yes')], { 1: 'Yes' })).toEqual(['1', '2']);
  });

  it('a blank input shows the field on any non-blank answer', () => {
    const rules = [rule(3, 1, '  ')];
    expect(visible([seen, notes], rules, { 1: '   ' })).toEqual(['1']);
    expect(visible([seen, notes], rules, { 1: null })).toEqual(['1']);
    expect(visible([seen, notes], rules, { 1: 'anything' })).toEqual(['1', '3']);
  });

  it('a Checkbox answer matches when one of its choices is the input, not a part of one', () => {
    const pests = fieldOf(10, 'Pests', 'Checkbox');
    const rules = [rule(3, 10, 'Thrips')];
    expect(visible([pests, notes], rules, { 10: ['Aphids', 'thrips'].join(CHOICE_SEPARATOR) })).toEqual(['10', '3']);
    expect(visible([pests, notes], rules, { 10: ['Aphids', 'Thrips larvae'].join(CHOICE_SEPARATOR) })).toEqual(['10']);
    // Other types compare the whole answer: a text answer holding the separator does not match.
    expect(visible([fieldOf(10, 'Pests', 'Text'), notes], rules, { 10: 'Aphids, Thrips' })).toEqual(['10']);
  });

  it('a field linked to a hidden field stays hidden, even if that field still holds the answer', () => {
    const photo = fieldOf(4, 'Photo', 'Image');
    const rules = [rule(2, 1, 'Yes'), rule(4, 2, '')];
    expect(visible([seen, count, photo], rules, { 1: 'Yes', 2: '5' })).toEqual(['1', '2', '4']);
    expect(visible([seen, count, photo], rules, { 1: 'No', 2: '5' })).toEqual(['1']);
    // The order of the fields does not matter for the chain.
    expect(visible([photo, count, seen], rules, { 1: 'Yes', 2: '5' })).toEqual(['4', '2', '1']);
  });

  it('a field linked to an inactive or unknown field stays hidden', () => {
    const old = fieldOf(8, 'Old', 'Text', 0, 0);
    expect(visible([old, notes], [rule(3, 8, '')], { 8: 'answered' })).toEqual([]);
    expect(visible([notes], [rule(3, 99, '')], { 99: 'answered' })).toEqual([]);
  });

  it('fields in a loop of rules never show, nor those that hang on the loop', () => {
    const a = fieldOf(1, 'A');
    const b = fieldOf(2, 'B');
    const c = fieldOf(3, 'C');
    const free = fieldOf(4, 'D');
    const rules = [rule(1, 2, ''), rule(2, 1, ''), rule(3, 2, '')];
    expect(visible([a, b, c, free], rules, { 1: 'x', 2: 'y', 3: 'z' })).toEqual(['4']);
    expect(visible([a, free], [rule(1, 1, '')], { 1: 'x' })).toEqual(['4']);
  });
});

describe('firstMissingRequired', () => {
  const seen = fieldOf(1, 'Mites seen', 'Radio', 1);
  const count = fieldOf(2, 'Mite count', 'Number', true);
  const notes = fieldOf(3, 'Notes', 'Textarea');
  const rules = [rule(2, 1, 'Yes')];

  it('names the first required field that shows and has no answer, in the fields’ order', () => {
    expect(firstMissingRequired([seen, count, notes], [], answers({}))?.FieldName).toBe('Mites seen');
    expect(firstMissingRequired([count, seen, notes], [], answers({}))?.FieldName).toBe('Mite count');
    expect(firstMissingRequired([seen, count, notes], [], answers({ 1: 'No', 2: '  ' }))?.FieldName).toBe('Mite count');
    expect(firstMissingRequired([seen, count, notes], [], answers({ 1: 'No', 2: '0' }))).toBeNull();
  });

  it('a required field is required only while it shows', () => {
    expect(firstMissingRequired([seen, count, notes], rules, answers({ 1: 'No' }))).toBeNull();
    expect(firstMissingRequired([seen, count, notes], rules, answers({}))?.FieldName).toBe('Mites seen');
    expect(firstMissingRequired([seen, count, notes], rules, answers({ 1: 'Yes' }))?.FieldName).toBe('Mite count');
    expect(firstMissingRequired([seen, count, notes], rules, answers({ 1: 'Yes', 2: '4' }))).toBeNull();
  });

  it('an inactive required field is not required; optional fields never are', () => {
    expect(firstMissingRequired([fieldOf(5, 'Retired', 'Text', 1, 0), notes], [], answers({}))).toBeNull();
    expect(firstMissingRequired([notes], [], answers({}))).toBeNull();
  });
});

describe('fieldOptionsProblem', () => {
  it('asks a choice field for an option, and keeps the answers separator out of Checkbox options', () => {
    expect(fieldOptionsProblem({ fieldName: 'Pests', fieldType: 'Radio', fieldOptions: [] })).toBe(formMessages.optionsRequired('Pests'));
    expect(fieldOptionsProblem({ fieldName: 'Leaves', fieldType: 'Checkbox', fieldOptions: ['Yellow, spotted'] })).toBe(formMessages.optionSeparator('Leaves'));
    // Elsewhere the separator does no harm: a Radio or Dropdown answer is one option.
    expect(fieldOptionsProblem({ fieldName: 'Leaves', fieldType: 'Radio', fieldOptions: ['Yellow, spotted'] })).toBeNull();
    expect(fieldOptionsProblem({ fieldName: 'Notes', fieldType: 'Text', fieldOptions: [] })).toBeNull();
  });
});
