/** The audit trail screen, named once, for the end-to-end tests. */
import type { Page } from 'playwright-core';
import { AppPage } from './app-page';

export class AuditPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** Opens the trail from the main navigation (a client-side move, so it works offline too). */
  async openTrail() {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit trail' }).click();
    await this.rendered('Audit trail');
  }

  list() {
    return this.page.getByRole('list', { name: 'Audit events' });
  }

  /** An event's card, by its title. */
  event(title: string) {
    return this.list().getByRole('listitem', { name: title, exact: true });
  }

  /** The titles of the events shown, top to bottom. */
  titles(): Promise<string[]> {
    return this.list().getByRole('listitem').locator('h3').allInnerTexts();
  }

  filters() {
    return this.page.getByRole('region', { name: 'Filters' });
  }

  async filterBy(filter: 'Room' | 'Batch' | 'User', label: string) {
    await this.filters().getByRole('combobox', { name: filter, exact: true }).selectOption({ label });
  }

  async filterDays(from: string, to: string) {
    await this.filters().getByLabel('From', { exact: true }).fill(from);
    await this.filters().getByLabel('To', { exact: true }).fill(to);
  }

  async clearFilters() {
    await this.filters().getByRole('button', { name: 'Clear filters' }).click();
  }

  /** The note on the tablet's window of events and what is read from the server. */
  windowNote() {
    return this.page.locator('.audit-window');
  }

  /** Records an event by hand through the form (room and batch by their names, optional). */
  async recordEvent(title: string, options: { room?: string; batch?: string } = {}) {
    await this.page.getByRole('button', { name: 'Record an event' }).click();
    const form = this.page.getByRole('form', { name: 'Record an event' });
    await form.getByLabel('What happened').fill(title);
    if (options.room) await form.getByLabel('Room (optional)').selectOption({ label: options.room });
    if (options.batch) await form.getByLabel('Batch (optional)').selectOption({ label: options.batch });
    await form.getByRole('button', { name: 'Record event' }).click();
    await form.waitFor({ state: 'detached' });
  }
}
