/** The trend calls' answers drawn as charts (issue 15): every week a point, a series per problem, room, severity or row. */
import { describe, expect, it } from 'vitest';
import { fieldModel, gutterModel, problemTrendsModel, roomTrendsModel, severityModel } from './trend-models';

const weeks = ['2026-11-02', '2026-11-09', '2026-11-16'];
const severities = (counts: [number, number, number, number, number]) => ({ '1': counts[0], '2': counts[1], '3': counts[2], '4': counts[3], '5': counts[4] });

describe('trend answers as charts', () => {
  it('a series per problem type and per room, with 0 for a week that has no point', () => {
    const trends = [{ problem_type: 'Powdery mildew', problem_slug: 'powdery-mildew', total: 5, mean_severity: 2, points: [{ week: '2026-11-09', count: 5, mean_severity: 2 }] }];
    expect(problemTrendsModel({ weeks, trends })).toEqual({ categoryLabel: 'Week', unit: 'problems', categories: weeks, series: [{ name: 'Powdery mildew', values: [0, 5, 0] }] });
    const rooms = [{ RoomID: 1, Name: 'Flower 1', total: 4, points: [{ week: '2026-11-02', count: 1 }, { week: '2026-11-16', count: 3 }], problems: [] }];
    expect(roomTrendsModel({ weeks, rooms }).series).toEqual([{ name: 'Flower 1', values: [1, 0, 3] }]);
  });

  it('five series by severity; a row per room, grid and row for the heat map', () => {
    const totals = [{ week: '2026-11-02', count: 3, severities: severities([1, 0, 2, 0, 0]) }];
    expect(severityModel({ weeks, totals }).series.map((series) => series.values)).toEqual([[1, 0, 0], [0, 0, 0], [2, 0, 0], [0, 0, 0], [0, 0, 0]]);
    const data = [{ RoomID: 1, Name: 'Flower 1', grids: [{ GridID: 2, Name: 'Bench A', rows: [{ Y: 1, total: 2, points: [{ week: '2026-11-16', count: 2 }] }, { Y: 2, total: 0, points: [] }] }] }];
    expect(gutterModel({ weeks, data }).series).toEqual([
      { name: 'Flower 1 · Bench A · row 1', values: [0, 0, 2] },
      { name: 'Flower 1 · Bench A · row 2', values: [0, 0, 0] },
    ]);
  });

  it('a Number field’s weekly sum; a choice field’s count per answer', () => {
    const field = { FieldID: 9, FieldName: 'Thrips', FieldType: 'Number' as const, FieldOptions: [], TemplateID: 1, TemplateName: 'Sticky trap', FormCategory: 'Sticky Trap' as const, kind: 'number' as const };
    const week = (monday: string, sum: number | null, answers: Array<{ answer: string; count: number }> = []) => ({ week: monday, count: 1, sum, mean: sum, min: sum, max: sum, answers });
    expect(fieldModel({ weeks, field, grouped_data: [week('2026-11-02', 14), week('2026-11-09', null)] }).series).toEqual([{ name: 'Thrips (sum)', values: [14, 0, 0] }]);
    const choice = { ...field, FieldName: 'Pressure', FieldType: 'Radio' as const, kind: 'choice' as const };
    const grouped = [week('2026-11-02', null, [{ answer: 'Low', count: 2 }, { answer: 'High', count: 0 }]), week('2026-11-16', null, [{ answer: 'High', count: 1 }])];
    expect(fieldModel({ weeks, field: choice, grouped_data: grouped }).series).toEqual([
      { name: 'Low', values: [2, 0, 0] },
      { name: 'High', values: [0, 0, 1] },
    ]);
  });
});
