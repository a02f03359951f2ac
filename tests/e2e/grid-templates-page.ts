/** The grid templates screen, named once, for the end-to-end tests. */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { AppPage } from './app-page';

export class GridTemplatesPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  async openTemplates() {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Grid templates' }).click();
    await this.rendered('Grid templates');
  }

  newTemplateForm() {
    return this.page.getByRole('form', { name: 'New grid template' });
  }

  /** Fills the new-template form (a blank value leaves its field blank) and submits it. */
  async submitTemplate(fields: { name: string; type?: 'Grid' | 'SubGrid'; columns: string; rows: string; description?: string }) {
    const form = this.newTemplateForm();
    await form.getByLabel('Template name').fill(fields.name);
    if (fields.type) await form.getByLabel('Type').selectOption(fields.type);
    await form.getByLabel('Columns').fill(fields.columns);
    await form.getByLabel('Rows').fill(fields.rows);
    if (fields.description !== undefined) await form.getByLabel('Description').fill(fields.description);
    await form.getByRole('button', { name: 'Create template' }).click();
  }

  /** The message under a form (its `role="alert"`). */
  errorOf(form: Locator) {
    return form.getByRole('alert');
  }

  templateList() {
    return this.page.getByRole('list', { name: 'Grid templates' });
  }

  card(name: string) {
    return this.templateList().getByRole('listitem', { name, exact: true });
  }

  /** The names of the listed templates, in their order. */
  listedNames() {
    return this.templateList().locator('.template-card h2').allInnerTexts();
  }

  async showType(type: 'All' | 'Grid' | 'SubGrid') {
    await this.page.getByRole('group', { name: 'Show templates' }).getByRole('button', { name: type, exact: true }).click();
  }

  useForm(title: string) {
    return this.page.getByRole('form', { name: title });
  }

  /** Chooses the option of `select` whose text starts with `text` (options carry notes after the name). */
  async choose(select: Locator, text: string) {
    const option = select.locator('option').filter({ hasText: text }).first();
    await option.waitFor({ state: 'attached', timeout: 30_000 });
    await select.selectOption((await option.getAttribute('value')) ?? '');
  }

  /** The screen's check once the toasts (3 s each) have gone, so they hide nothing of it. */
  async check(name: string) {
    await expect.poll(() => this.page.locator('.notistack-Snackbar').count(), { timeout: 10_000 }).toBe(0);
    await this.checkScreen(name);
  }
}
