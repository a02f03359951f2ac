import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reportMessages as m } from '../messages/reports';
import { lastWeeks, mondayOf, periodOf, weeksOf } from './report-dates';

describe('a report period', () => {
  it('weeks run Monday to Sunday', () => {
    expect(mondayOf('2026-11-26')).toBe('2026-11-23'); // a Thursday
    expect(mondayOf('2026-11-23')).toBe('2026-11-23');
    expect(mondayOf('2026-11-29')).toBe('2026-11-23'); // a Sunday
    expect(mondayOf('2026-03-01')).toBe('2026-02-23');
  });

  it('weeks_ago N is this week and the N - 1 before it: N weekly points', () => {
    expect(lastWeeks(1, '2026-11-26')).toEqual({ start: '2026-11-23', end: '2026-11-29' });
    expect(lastWeeks(8, '2026-11-26')).toEqual({ start: '2026-10-05', end: '2026-11-29' });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 260 }), fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }), (weeks, day) => {
        const period = lastWeeks(weeks, day.toISOString().slice(0, 10));
        expect(weeksOf(period)).toHaveLength(weeks);
      }),
    );
  });

  it('takes the spec’s three options and refuses anything else in its words', () => {
    const today = '2026-11-26';
    expect(periodOf({ date_option: 'weeks_ago', weeks_ago: '4' }, { today })).toEqual({ period: { start: '2026-11-02', end: '2026-11-29' } });
    expect(periodOf({ date_option: 'date_range', start_date: '2026-01-01', end_date: '2026-01-31' }, { today })).toEqual({ period: { start: '2026-01-01', end: '2026-01-31' } });
    expect(periodOf({ date_option: 'batch_related_date', start_date: '2026-01-01', end_date: '2026-01-31' }, { today, allowBatchRelated: true })).toEqual({ period: { start: '2026-01-01', end: '2026-01-31' } });
    for (const refused of [{ date_option: 'batch_related_date', start_date: '2026-01-01', end_date: '2026-01-31' }, { date_option: 'months_ago' }, {}]) {
      expect(periodOf(refused, { today })).toEqual({ error: m.invalidDateOption });
    }
    expect(periodOf({}, { today, fallback: 'date_range' })).toEqual({ error: m.startDateInvalid });
    expect(periodOf({ date_option: 'weeks_ago', weeks_ago: 'four' }, { today })).toEqual({ error: m.weeksAgoInvalid });
    expect(periodOf({ date_option: 'weeks_ago' }, { today })).toEqual({ error: m.weeksAgoInvalid });
    expect(periodOf({ date_option: 'date_range', start_date: '2026-02-30', end_date: '2026-03-01' }, { today })).toEqual({ error: m.startDateInvalid });
    expect(periodOf({ date_option: 'date_range', start_date: '2026-03-02', end_date: '2026-03-01' }, { today })).toEqual({ error: m.endBeforeStart });
    expect(periodOf({ date_option: 'date_range', start_date: '2000-01-01', end_date: '2026-03-01' }, { today })).toEqual({ error: m.periodTooLong });
    // Dates a report cannot mean, where the week arithmetic would not end.
    expect(periodOf({ date_option: 'date_range', start_date: '0000-01-01', end_date: '0000-01-31' }, { today })).toEqual({ error: m.startDateInvalid });
    expect(periodOf({ date_option: 'date_range', start_date: '2026-01-01', end_date: '9999-12-31' }, { today })).toEqual({ error: m.endDateInvalid });
  });
});
