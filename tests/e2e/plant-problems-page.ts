/** The plant problem catalogue and a problem's page, named once, for the end-to-end tests. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { AppPage } from './app-page';

export class PlantProblemsPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** Opens the catalogue from the main navigation (a move inside the app: it works offline too). */
  async openCatalogue() {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plant problems' }).click();
    await this.rendered('Plant problems');
    await this.results().first().waitFor({ timeout: 30_000 });
  }

  filters() {
    return this.page.getByRole('search', { name: 'Search plant problems' });
  }

  search(text: string) {
    return this.filters().getByLabel('Search', { exact: true }).fill(text);
  }

  select(label: 'Symptom group' | 'Symptom', option: string) {
    return this.filters().getByLabel(label, { exact: true }).selectOption({ label: option });
  }

  /** A radio choice of the Kind or Colour filter, by its text. */
  choose(group: 'Kind' | 'Colour', choice: string) {
    return this.filters().getByRole('group', { name: group }).getByRole('radio', { name: choice, exact: true }).check();
  }

  clearFilters() {
    return this.filters().getByRole('button', { name: 'Clear search and filters' }).click();
  }

  /** The result cards. */
  results() {
    return this.page.getByRole('list', { name: 'Plant problems found' }).getByRole('listitem').filter({ has: this.page.getByRole('heading') });
  }

  /** The names of the problems found, in order. */
  resultNames() {
    return this.page.getByRole('list', { name: 'Plant problems found' }).locator('.problem-card h2').allInnerTexts();
  }

  count() {
    return this.page.locator('.problem-count').innerText();
  }

  /** Opens a problem from the results (or a look-alike from a problem's page) by its name. */
  async openProblem(name: string) {
    await this.page.getByRole('link', { name, exact: true }).click();
    await this.rendered(name);
  }

  section(heading: string) {
    return this.page.getByRole('region', { name: heading });
  }

  whereRooms() {
    return this.section('Where it is now').getByRole('list', { name: 'Rooms with this problem' }).getByRole('link');
  }

  /** Each room's link as one line of text ("Flower room 2 open"). */
  async whereTexts() {
    return (await this.whereRooms().allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
  }

  customSolutions() {
    return this.section('Your company’s solutions').getByRole('list', { name: 'Your company’s solutions' }).getByRole('listitem');
  }

  /** Each of the company's solutions as one line of text (its chip included). */
  async customSolutionTexts() {
    return (await this.customSolutions().allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
  }

  async addSolution(text: string) {
    const form = this.page.getByRole('form', { name: 'Add a solution' });
    await form.getByLabel('Solution').fill(text);
    await form.getByRole('button', { name: 'Add solution' }).click();
  }

  mapColour() {
    return this.section('On the pest-pressure map');
  }

  async setColour(problem: string, color: string, abbreviation: string) {
    await this.mapColour().getByRole('button', { name: 'Set colour' }).click();
    const form = this.page.getByRole('form', { name: `Colour of ${problem}` });
    await form.getByLabel('Colour').fill(color);
    await form.getByLabel('Abbreviation').fill(abbreviation);
    await form.getByRole('button', { name: 'Save colour' }).click();
  }

  /** The screen's check once the toasts (3 s each) have gone, so they hide nothing of it. */
  async check(name: string) {
    await expect.poll(() => this.page.locator('.notistack-Snackbar').count(), { timeout: 10_000 }).toBe(0);
    await this.checkScreen(name);
  }
}
