/** A saved report's outdoor weather (src/features/reports/ReportWeatherToggle.tsx), named once, for the end-to-end tests. */
import type { Page } from 'playwright-core';
import { AppPage } from './app-page';

export class ReportWeatherPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** The report's chart and its table, named by the report's name. */
  chart(reportName: string) {
    return this.page.getByRole('region', { name: reportName });
  }

  table(reportName: string) {
    return this.page.getByRole('table', { name: reportName });
  }

  toggle() {
    return this.page.getByRole('checkbox', { name: 'Outdoor weather' });
  }

  /** What the overlay says it shows (where, fetched when, offline, no location). */
  state() {
    return this.page.locator('.report-weather-state');
  }

  /** The time the weather shown was fetched, as the line marks it up (ISO). */
  fetchedAt() {
    return this.state().locator('time').getAttribute('datetime');
  }

  /**
   * The chart's description to screen readers: its canvas holder's aria-label names the series of the
   * option it draws, the weather's included, so they can be read without the echarts instance.
   */
  chartDescription(): Promise<string> {
    return this.page.locator('.report-canvas').first().getAttribute('aria-label').then((label) => label ?? '');
  }

  /** The weather drawn, by day, as the folded table shows it: rows of [day, high, low, humidity, rain]. */
  async weatherByDay(): Promise<string[][]> {
    const details = this.page.locator('details.report-weather-days');
    if (!(await details.evaluate((element: HTMLDetailsElement) => element.open))) await details.locator('summary').click();
    const rows = await details.locator('tbody tr').allInnerTexts();
    return rows.map((row) => row.split('\t').map((cell) => cell.trim()));
  }

  /** Whether this tablet remembers the report's weather as on (local storage `growroom.report-weather.<id>`). */
  remembered(reportId: string): Promise<boolean> {
    return this.page.evaluate((key) => localStorage.getItem(key) === '1', `growroom.report-weather.${reportId}`);
  }
}
