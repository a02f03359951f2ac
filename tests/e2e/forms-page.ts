/** The screens where growers fill forms and read observations, named once, for the end-to-end tests. */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { AppPage } from './app-page';

export type MultiSelectBy = 'Boxes or a range' | 'Rows' | 'Columns';

export class FormsPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** Opens the fill screen of a template (`search`: boxes and/or room) and waits for the template to be on the tablet. */
  async openFill(templateId: number | string, name: string, search: { boxes?: Array<number | string> | string; room?: number | string } = {}) {
    const query = new URLSearchParams();
    if (search.boxes !== undefined) query.set('boxes', Array.isArray(search.boxes) ? search.boxes.join(',') : search.boxes);
    if (search.room !== undefined) query.set('room', String(search.room));
    const suffix = query.size > 0 ? `?${query.toString()}` : '';
    await this.open(`/dashboard/formbuilder/submit/${templateId}/${encodeURIComponent(name)}${suffix}`);
    // The template arrives with the pull on a fresh tablet.
    await this.rendered(name, 30_000);
  }

  /** The form being filled (named by its template). */
  form(): Locator {
    return this.page.locator('form.fill-form');
  }

  /** A field's control (input, select, textarea, or the radio / checkbox group), by the field's name. */
  field(fieldName: string): Locator {
    return this.form().getByLabel(fieldName, { exact: true });
  }

  /** Answers a field as a grower does: types, picks the option, or ticks the choices (a list for a Checkbox field). */
  async answer(fieldName: string, value: string | string[]) {
    const control = this.field(fieldName);
    const kind = await control.evaluate((element) => element.getAttribute('role') ?? `${element.tagName.toLowerCase()}:${element.getAttribute('type') ?? ''}`);
    const values = Array.isArray(value) ? value : [value];
    if (kind === 'radiogroup' || kind === 'group') {
      for (const choice of values) await control.getByLabel(choice, { exact: true }).check();
    } else if (kind.startsWith('select')) {
      await control.selectOption(values[0]!);
    } else {
      await control.fill(values[0]!);
    }
  }

  /** Attaches a photo to an Image field, from a file path or a PNG buffer. */
  async attachPhoto(fieldName: string, photo: string | Buffer, fileName = 'photo.png') {
    const input = this.field(fieldName);
    if (typeof photo === 'string') await input.setInputFiles(photo);
    else await input.setInputFiles({ name: fileName, mimeType: 'image/png', buffer: photo });
    await this.form().getByRole('img', { name: `Photo for ${fieldName}` }).waitFor();
  }

  async submit() {
    await this.form().getByRole('button', { name: 'Submit' }).click();
  }

  /** The form's error (its role="alert" line), as text. */
  formError() {
    return this.form().getByRole('alert').textContent();
  }

  /** The field rows marked as missing. */
  missingFields() {
    return this.form().locator('.form-field.missing .field-name').allTextContents();
  }

  /** Whether a field shows (hide-until-link rules). */
  shows(fieldName: string) {
    return this.field(fieldName).isVisible();
  }

  /** The toasts' texts. */
  toasts() {
    return this.page.locator('.notistack-Snackbar').allTextContents();
  }

  // ——— A room: whole room or the multi-select form ———

  async chooseWholeRoom() {
    await this.page.getByRole('button', { name: /^Whole room/ }).click();
    await this.form().waitFor();
  }

  async choosePickPlants() {
    await this.page.getByRole('button', { name: /^Pick plants/ }).click();
    await this.visible(this.page.locator('.box-picker'), 'The box picker', 30_000);
  }

  async pickBy(by: MultiSelectBy) {
    await this.page.getByRole('radiogroup', { name: 'Pick plants by' }).getByLabel(by, { exact: true }).check();
  }

  pickerGrid(name: string) {
    return this.page.getByRole('region', { name: `Grid ${name}` });
  }

  pickerBox(grid: string, x: number, y: number) {
    return this.pickerGrid(grid).locator(`.grid-box[data-x="${x}"][data-y="${y}"]`);
  }

  async tapBox(grid: string, x: number, y: number) {
    await this.pickerBox(grid, x, y).click();
  }

  /** Picks the boxes from one to another (inclusive, in box numbers) with "Select a range". */
  async selectRange(grid: string, from: [number, number], to: [number, number]) {
    await this.pickBy('Boxes or a range');
    const toggle = this.page.getByRole('button', { name: 'Select a range' });
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    await this.tapBox(grid, ...from);
    await this.tapBox(grid, ...to);
    await toggle.click();
  }

  /** Toggles a whole row or column of a grid (in the Rows / Columns way of picking). */
  async toggleLine(grid: string, by: 'Rows' | 'Columns', line: number) {
    await this.pickBy(by);
    await this.pickerGrid(grid).getByRole('button', { name: `${by === 'Rows' ? 'Row' : 'Column'} ${line}`, exact: true }).click();
  }

  /** How many plants page 1 has chosen. */
  async chosenCount() {
    return Number(await this.page.locator('[data-chosen-count]').getAttribute('data-chosen-count'));
  }

  async next() {
    await this.page.getByRole('button', { name: 'Next: fill the form' }).click();
    await this.form().waitFor();
  }

  // ——— Observations ———

  async openObservations(search: { room?: number | string; grid?: number | string; start?: string; end?: string } = {}) {
    const query = new URLSearchParams(Object.entries(search).filter(([, value]) => value !== undefined).map(([key, value]) => [key, String(value)]));
    await this.open(`/dashboard/observations${query.size > 0 ? `?${query.toString()}` : ''}`);
    await this.rendered('Observations');
  }

  /** Opens observations through the main menu (no page load: works offline before the service worker serves it). */
  async openObservationsFromMenu() {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Observations' }).click();
    await this.rendered('Observations');
  }

  observationBox(number: number) {
    return this.page.getByRole('region', { name: `Box ${number}`, exact: true });
  }

  wholeRoom() {
    return this.page.getByRole('region', { name: 'Whole room', exact: true });
  }

  /** The screen's check (AppPage.checkScreen) once the toasts have gone, so they hide nothing of the screenshot. */
  async check(name: string) {
    await expect.poll(() => this.page.locator('.notistack-Snackbar').count(), { timeout: 10_000 }).toBe(0);
    await this.checkScreen(name);
  }
}
