/** The rooms area's screens, named once, for the end-to-end tests. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { AppPage } from './app-page';

export class RoomsPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }


  async openRooms() {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rooms' }).click();
    await this.rendered('Rooms');
  }

  async createRoom(name: string, description: string) {
    await this.page.getByRole('button', { name: 'New room' }).click();
    const form = this.page.getByRole('form', { name: 'New room' });
    await form.getByLabel('Name', { exact: true }).fill(name);
    await form.getByLabel('Description').fill(description);
    await form.getByRole('button', { name: 'Create room' }).click();
    await this.roomCard(name).waitFor();
  }

  roomCard(name: string) {
    return this.page.getByRole('listitem', { name });
  }

  async openRoom(name: string) {
    await this.roomCard(name).getByRole('link', { name: 'Open' }).click();
    await this.rendered(name);
  }

  grid(name: string) {
    return this.page.getByRole('region', { name: `Grid ${name}` });
  }

  box(grid: string, x: number, y: number) {
    return this.grid(grid).locator(`.grid-box[data-x="${x}"][data-y="${y}"]`);
  }

  panel() {
    return this.page.locator('.box-panel');
  }

  async openBox(grid: string, x: number, y: number) {
    await this.box(grid, x, y).click();
    await this.panel().waitFor();
  }

  /**
   * Records a problem from the open box panel: the type picked from the catalogue's matches for
   * `search` (its name, `problem`), the severity on its button, then "Save problem".
   */
  async recordProblem(problem: string, severity: number, search = problem) {
    const panel = this.panel();
    await panel.getByRole('button', { name: 'Record a problem' }).click();
    const form = panel.getByRole('form', { name: 'Record a problem' });
    await form.getByLabel('Problem type').fill(search);
    await form.getByRole('list', { name: 'Catalogue matches' }).getByRole('button', { name: new RegExp(`^${problem}`) }).click();
    await form.getByText(`From the catalogue: ${problem} (`).waitFor();
    await form.getByRole('button', { name: `Severity ${severity}` }).click();
    await form.getByRole('button', { name: 'Save problem' }).click();
    await form.waitFor({ state: 'detached' });
  }

  /** An open problem in the box panel's list, named by its type and severity. */
  openProblem(problem: string, severity: number) {
    return this.panel().getByRole('list', { name: 'Open problems' }).getByRole('listitem', { name: `${problem}, severity ${severity}` });
  }

  /** A box's re-entry marker ("REI" and when the interval ends). */
  reentryMarker(grid: string, x: number, y: number) {
    return this.box(grid, x, y).locator('.box-reentry');
  }

  async closePanel() {
    await this.panel().getByRole('button', { name: 'Close' }).click();
    await this.panel().waitFor({ state: 'detached' });
  }

  /** The screen's check (a screenshot, and axe finds nothing serious) once the toasts (3 s each) have gone, so they hide nothing. */
  async shot(name: string) {
    await expect.poll(() => this.page.locator('.notistack-Snackbar').count(), { timeout: 10_000 }).toBe(0);
    await this.checkScreen(name);
  }

  count(key: string) {
    return this.page.locator(`[data-count="${key}"]`).getAttribute('data-value');
  }
}
