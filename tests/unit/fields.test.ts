import { describe, expect, it } from 'vitest';
import { flag, formBody, requiredEmail, requiredId, requiredNumber, requiredText } from '../../common/schemas/fields';

const messageOf = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues[0]?.message;

describe('field rules shared by client and server', () => {
  it('requiredText trims and answers its message for missing or blank text', () => {
    const rule = requiredText('Name is required.');
    expect(rule.parse('  Room 1 ')).toBe('Room 1');
    expect(messageOf(rule.safeParse(undefined))).toBe('Name is required.');
    expect(messageOf(rule.safeParse('   '))).toBe('Name is required.');
  });

  it('requiredId takes numbers and numeric text, and refuses anything else with its message', () => {
    const rule = requiredId('batch_id is required.');
    expect(rule.parse('12')).toBe(12);
    expect(rule.parse(12)).toBe(12);
    for (const bad of [undefined, '', 'abc', '0', '-3', '1.5']) expect(messageOf(rule.safeParse(bad))).toBe('batch_id is required.');
  });

  it('requiredNumber accepts finite numbers only', () => {
    const rule = requiredNumber('severity must be a number.');
    expect(rule.parse('2.5')).toBe(2.5);
    for (const bad of [undefined, '', 'x', 'Infinity']) expect(messageOf(rule.safeParse(bad))).toBe('severity must be a number.');
  });

  it('flag reads 0/1 from numbers, digits and booleans, with separate messages for missing and invalid', () => {
    const rule = flag('required', 'invalid');
    expect([rule.parse('1'), rule.parse(0), rule.parse(true), rule.parse('false')]).toEqual([1, 0, 1, 0]);
    expect(messageOf(rule.safeParse(undefined))).toBe('required');
    expect(messageOf(rule.safeParse(2))).toBe('invalid');
  });

  it('requiredEmail lower-cases and tells missing from malformed', () => {
    const rule = requiredEmail('Email is required.', 'Please enter a valid email address.');
    expect(rule.parse(' Ada@Example.COM ')).toBe('ada@example.com');
    expect(messageOf(rule.safeParse(''))).toBe('Email is required.');
    expect(messageOf(rule.safeParse('not-an-email'))).toBe('Please enter a valid email address.');
  });

  it('formBody checks a missing body as an empty one, so field messages apply', () => {
    const rule = formBody({ name: requiredText('name is required.') });
    expect(messageOf(rule.safeParse(undefined))).toBe('name is required.');
  });
});
