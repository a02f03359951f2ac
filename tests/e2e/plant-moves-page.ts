/** The plant moves screen, named once, for the end-to-end tests. */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { AppPage } from './app-page';

export class PlantMovesPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  async openMoves() {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Plant moves' }).click();
    await this.rendered('Plant moves');
  }

  form() {
    return this.page.getByRole('form', { name: 'Move a plant' });
  }

  field(label: 'Room' | 'Box' | 'Plant' | 'Target room' | 'Target box' | 'Position' | 'Reason' | 'Notes') {
    // The label wraps its control, so its text runs on into a select's options: matched by its start.
    return this.form().getByLabel(new RegExp(`^${label}`));
  }

  /** Chooses the option of `select` whose text starts with `text` (options carry notes after the name). */
  async choose(select: Locator, text: string) {
    const option = select.locator('option').filter({ hasText: text }).first();
    await option.waitFor({ state: 'attached', timeout: 30_000 });
    await select.selectOption((await option.getAttribute('value')) ?? '');
  }

  /** The text of the chosen option of a select. */
  chosen(select: Locator) {
    return select.evaluate((element) => (element as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
  }

  /** Picks a plant and where it goes, and moves it. */
  async move(from: { room: string; box: string; plant: string }, to: { room: string; box: string; position?: string }, reason = '', notes = '') {
    await this.choose(this.field('Room'), from.room);
    await this.choose(this.field('Box'), from.box);
    await this.choose(this.field('Plant'), from.plant);
    await this.choose(this.field('Target room'), to.room);
    await this.choose(this.field('Target box'), to.box);
    if (to.position) await this.choose(this.field('Position'), to.position);
    await this.field('Reason').fill(reason);
    await this.field('Notes').fill(notes);
    await this.form().getByRole('button', { name: 'Move plant' }).click();
  }

  history() {
    return this.page.getByRole('region', { name: 'Movement history' });
  }

  historyField(label: 'Batch' | 'Room' | 'From day' | 'To day' | 'Sort by' | 'Order') {
    return this.history().getByLabel(label, { exact: true });
  }

  /** Plant ids of the moves the server's page (or the tablet's, offline) lists, in order. */
  listedPlants() {
    return this.history().getByRole('list', { name: 'Movement history' }).locator('.move-item h3').allInnerTexts();
  }

  waitingList() {
    return this.history().getByRole('list', { name: 'Moves waiting to sync' });
  }

  /** The move of a plant in the history's list. */
  historyItem(plantUid: string) {
    return this.history().getByRole('list', { name: 'Movement history' }).getByRole('listitem', { name: `Plant ${plantUid}` });
  }

  /** The screen's check once the toasts (3 s each) have gone, so they hide nothing of it. */
  async check(name: string) {
    await expect.poll(() => this.page.locator('.notistack-Snackbar').count(), { timeout: 10_000 }).toBe(0);
    await this.checkScreen(name);
  }
}
