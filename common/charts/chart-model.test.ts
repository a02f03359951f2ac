/** The table and CSV under every report chart (issue 15). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvOf, fileNameOf, modelOfReportData, reportDataOf, tableOf, type ChartModel } from './chart-model';

const model: ChartModel = {
  categoryLabel: 'Week',
  categories: ['2026-11-02', '2026-11-09'],
  series: [
    { name: 'Two-spotted spider mite', values: [3, 5] },
    { name: 'Powdery mildew, early', values: [1] },
  ],
  unit: 'problems',
};

/** Parses RFC 4180 text back into rows (quotes doubled inside quoted cells). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      index += 1;
    } else cell += char;
  }
  return rows;
}

describe('a report’s table and CSV', () => {
  it('has a row per week and a column per series; a missing value is 0', () => {
    expect(tableOf(model)).toEqual({
      header: ['Week', 'Two-spotted spider mite', 'Powdery mildew, early'],
      rows: [
        ['2026-11-02', 3, 1],
        ['2026-11-09', 5, 0],
      ],
    });
    expect(csvOf(model)).toBe('Week,Two-spotted spider mite,"Powdery mildew, early"\r\n2026-11-02,3,1\r\n2026-11-09,5,0\r\n');
  });

  it('reads back as the same table whatever the names hold; a formula never starts a cell', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 6 }), (names, values) => {
        const generated: ChartModel = { categoryLabel: 'Week', categories: values.map((_, index) => `w${index}`), series: names.map((name) => ({ name, values })), unit: 'problems' };
        const parsed = parseCsv(csvOf(generated));
        expect(parsed).toHaveLength(values.length + 1);
        parsed[0]!.slice(1).forEach((cell, index) => {
          const name = names[index]!;
          expect(cell).toBe(/^[=+\-@\t\r]/.test(name) ? `'${name}` : name);
        });
        for (const cell of parsed.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
      }),
    );
  });

  it('keeps numbers as numbers and names files plainly', () => {
    expect(csvCell(2.5)).toBe('2.5');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(fileNameOf('Thrips in Flower 1 — last 8 weeks', 'csv')).toBe('thrips-in-flower-1-last-8-weeks.csv');
    expect(fileNameOf('***', 'png')).toBe('report.png');
  });
});

describe('a saved report’s data', () => {
  it('is one point per week and series, and draws the same chart again', () => {
    const full: ChartModel = { ...model, series: model.series.map((series) => ({ ...series, values: model.categories.map((_, index) => series.values[index] ?? 0) })) };
    expect(reportDataOf(full)).toEqual([
      { category: '2026-11-02', series: 'Two-spotted spider mite', value: 3 },
      { category: '2026-11-02', series: 'Powdery mildew, early', value: 1 },
      { category: '2026-11-09', series: 'Two-spotted spider mite', value: 5 },
      { category: '2026-11-09', series: 'Powdery mildew, early', value: 0 },
    ]);
    expect(modelOfReportData(reportDataOf(full), { categoryLabel: 'Week', unit: 'problems' })).toEqual(full);
    expect(modelOfReportData([{ category: 'x' }, 'junk', { category: 'w', series: 's', value: 2 }], { categoryLabel: 'Week', unit: 'problems' }).series).toEqual([{ name: 's', values: [2] }]);
  });
});
