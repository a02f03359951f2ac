/** The trend calls' answers drawn as charts (issue 15): every week a point, a series per problem, room, severity or row. */
import { describe, expect, it } from 'vitest';
import {
  cumulativeModel,
  distinctNames,
  fieldModel,
  gutterModel,
  problemTrendsModel,
  roomTrendsModel,
  severityModel,
  singleProblemModel,
  specificTrendsModel,
  treatmentEffectivenessModel,
} from './trend-models';

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

  it('a running total per room, one answer per room', () => {
    const cumulative = (week: string, count: number, running: number) => ({ week, count, cumulative: running });
    const flower = { weeks, room: { RoomID: 1, Name: 'Flower 1' }, totals: [cumulative(weeks[0]!, 2, 5), cumulative(weeks[1]!, 0, 5), cumulative(weeks[2]!, 1, 6)] };
    const veg = { weeks, room: { RoomID: 2, Name: 'Veg' }, totals: [cumulative(weeks[0]!, 0, 0), cumulative(weeks[1]!, 3, 3), cumulative(weeks[2]!, 0, 3)] };
    expect(cumulativeModel([flower, veg])).toEqual({
      categoryLabel: 'Week',
      unit: 'problems (running total)',
      categories: weeks,
      series: [
        { name: 'Flower 1', values: [5, 5, 6] },
        { name: 'Veg', values: [0, 3, 3] },
      ],
    });
    // Two rooms of one name stay two series (a saved report's points are named by series).
    expect(cumulativeModel([flower, { ...veg, room: { RoomID: 2, Name: 'Flower 1' } }]).series.map((series) => series.name)).toEqual(['Flower 1', 'Flower 1 (2)']);
    expect(cumulativeModel([])).toEqual({ categoryLabel: 'Week', unit: 'problems (running total)', categories: [], series: [] });
  });

  it('one problem: its total, then each room where it was seen', () => {
    const point = (week: string, count: number) => ({ week, count, mean_severity: count > 0 ? 2 : null });
    const data = {
      problem_type: 'Night weevil',
      problem_slug: null,
      total: 3,
      mean_severity: 2,
      points: [point(weeks[0]!, 0), point(weeks[1]!, 2), point(weeks[2]!, 1)],
      rooms: [{ RoomID: 4, Name: 'Flower 1', total: 2, mean_severity: 2, points: [point(weeks[1]!, 2)] }, { RoomID: 5, Name: 'Total', total: 1, mean_severity: 2, points: [point(weeks[2]!, 1)] }],
    };
    expect(singleProblemModel({ weeks, data })).toEqual({
      categoryLabel: 'Week',
      unit: 'problems (Night weevil)',
      categories: weeks,
      series: [
        { name: 'Total', values: [0, 2, 1] },
        { name: 'Flower 1', values: [0, 2, 0] },
        { name: 'Total (2)', values: [0, 0, 1] },
      ],
    });
  });

  it('specific trends: the responses, then each field as its own report draws it, named by the field', () => {
    const summary = (week: string, count: number, sum: number | null, answers: Array<{ answer: string; count: number }> = []) => ({ week, count, sum, mean: sum, min: sum, max: sum, answers });
    const base = { FieldOptions: [], TemplateID: 1, TemplateName: 'Sticky trap', FormCategory: 'Sticky Trap' as const };
    const thrips = { ...base, FieldID: 1, FieldName: 'Thrips', FieldType: 'Number' as const, kind: 'number' as const, total: 2, points: [summary(weeks[0]!, 1, 6), summary(weeks[2]!, 1, 4)] };
    const replaced = { ...base, FieldID: 2, FieldName: 'Replaced', FieldType: 'Radio' as const, kind: 'choice' as const, total: 2, points: [summary(weeks[0]!, 1, null, [{ answer: 'Yes', count: 1 }, { answer: 'No', count: 0 }])] };
    const notes = { ...base, FieldID: 3, FieldName: 'Notes', FieldType: 'Text' as const, kind: 'count' as const, total: 1, points: [summary(weeks[1]!, 1, null)] };
    const responses = [{ week: weeks[0]!, count: 1 }, { week: weeks[1]!, count: 1 }, { week: weeks[2]!, count: 1 }];
    expect(specificTrendsModel({ weeks, responses, fields: [thrips, replaced, notes] })).toEqual({
      categoryLabel: 'Week',
      unit: 'responses and answers',
      categories: weeks,
      series: [
        { name: 'Responses', values: [1, 1, 1] },
        { name: 'Thrips (sum)', values: [6, 0, 4] },
        { name: 'Replaced: Yes', values: [1, 0, 0] },
        { name: 'Replaced: No', values: [0, 0, 0] },
        { name: 'Notes (answers)', values: [0, 1, 0] },
      ],
    });
    // Fields of several forms are named by their form too.
    const scouting = { ...thrips, TemplateID: 2, TemplateName: 'Scouting' };
    expect(specificTrendsModel({ weeks, responses: [], fields: [thrips, scouting] }).series.map((series) => series.name)).toEqual(['Responses', 'Sticky trap: Thrips (sum)', 'Scouting: Thrips (sum)']);
  });

  it('treatment effectiveness: a category per treatment, problems per box before and after on treated and untreated boxes', () => {
    const group = (boxes: number, before: number | null, after: number | null) => ({ boxes, problems_before: 0, problems_after: 0, per_box_before: before, per_box_after: after, reduction_pct: null });
    const spray = (id: number, at: string, treated: ReturnType<typeof group>, untreated: ReturnType<typeof group>) => ({
      application_id: id,
      ApplicationDate: at,
      ProductName: 'Neem',
      product_id: null,
      rooms: [],
      before_from: at,
      after_until: at,
      after_complete: true,
      treated,
      untreated,
      efficacy_pct: null,
    });
    const applications = [spray(1, '2026-11-09T23:30:00.000Z', group(2, 1.5, 0.5), group(4, 0.25, 0.5)), spray(2, '2026-11-09T06:00:00.000Z', group(3, 1, 0), group(0, null, null))];
    expect(treatmentEffectivenessModel({ applications })).toEqual({
      categoryLabel: 'Treatment',
      unit: 'problems per box',
      // Two sprays of one product on one day stay two categories.
      categories: ['Neem · 2026-11-09', 'Neem · 2026-11-09 (2)'],
      series: [
        { name: 'Treated boxes, before', values: [1.5, 1] },
        { name: 'Treated boxes, after', values: [0.5, 0] },
        { name: 'Untreated boxes, before', values: [0.25, 0] },
        { name: 'Untreated boxes, after', values: [0.5, 0] },
      ],
    });
    expect(treatmentEffectivenessModel({ applications: [] }).categories).toEqual([]);
  });

  it('names made unique in order', () => {
    expect(distinctNames(['A', 'B', 'A', 'A (2)', 'A'])).toEqual(['A', 'B', 'A (2)', 'A (2) (2)', 'A (3)']);
  });
});
