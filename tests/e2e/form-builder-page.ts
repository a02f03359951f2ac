/** The form builder's screens (list, builder, preview), named once, for the end-to-end tests. */
import type { Locator, Page } from 'playwright-core';
import { AppPage } from './app-page';

export interface FieldSpec {
  name: string;
  type: string;
  options?: string[];
  required?: boolean;
  /** Shown only when this field is answered (with `answer`; any answer when it is left out). */
  showWhen?: { field: string; answer?: string };
}

export class FormBuilderPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** The screen's own error (a toast repeats it, and is an alert too). */
  alert(): Locator {
    return this.page.locator('.form-builder > [role="alert"]');
  }

  async openList() {
    await this.open('/dashboard/formbuilder');
    await this.rendered('Form builder');
  }

  /** A form's card in the list. */
  card(name: string): Locator {
    return this.page.locator('li.fb-template').filter({ has: this.page.getByRole('heading', { level: 3, name, exact: true }) });
  }

  /** The cards of a category's list, by their names. */
  async namesIn(category: string): Promise<string[]> {
    return this.page.getByRole('list', { name: `${category} forms` }).locator('li.fb-template h3').allTextContents();
  }

  async newForm() {
    await this.page.getByRole('link', { name: 'New form' }).click();
    await this.rendered('New form');
  }

  async edit(name: string) {
    await this.card(name).getByRole('link', { name: 'Edit' }).click();
    await this.rendered(`Edit form ${name}`);
  }

  async nameForm(name: string, category?: string) {
    await this.page.getByLabel('Form name').fill(name);
    if (category) await this.page.getByLabel('Category').selectOption(category);
  }

  /** A field's row in the builder. */
  field(name: string): Locator {
    return this.page.getByRole('list', { name: 'Fields' }).getByRole('listitem', { name, exact: true });
  }

  /** Fills the open field editor (`form`) with `spec`. */
  async fillField(form: Locator, spec: Partial<FieldSpec>) {
    if (spec.name !== undefined) await form.getByLabel('Field name').fill(spec.name);
    if (spec.type !== undefined) await form.getByLabel('Field type').selectOption(spec.type);
    if (spec.options) await form.getByLabel('Options (one per line)').fill(spec.options.join('\n'));
    if (spec.required !== undefined) await form.getByRole('checkbox', { name: /^Required/ }).setChecked(spec.required);
    if (spec.showWhen !== undefined) {
      await form.getByLabel('Show only when this field is answered').selectOption({ label: spec.showWhen.field });
      const answer = form.getByLabel('With the answer');
      if (spec.showWhen.answer !== undefined) {
        if ((await answer.evaluate((element) => element.tagName)) === 'SELECT') await answer.selectOption(spec.showWhen.answer);
        else await answer.fill(spec.showWhen.answer);
      }
    }
  }

  async addField(spec: FieldSpec) {
    await this.page.getByRole('button', { name: 'Add field' }).click();
    const form = this.page.getByRole('form', { name: 'New field' });
    await this.fillField(form, spec);
    await form.getByRole('button', { name: 'Add field' }).click();
    await this.field(spec.name).waitFor();
  }

  async editField(name: string, spec: Partial<FieldSpec>) {
    await this.field(name).getByRole('button', { name: `Edit ${name}` }).click();
    const form = this.page.getByRole('form', { name: `Edit field ${name}` });
    await this.fillField(form, spec);
    await form.getByRole('button', { name: 'Keep changes' }).click();
    await form.waitFor({ state: 'detached' });
  }

  /** The names of the builder's fields, in order. */
  async fieldNames(): Promise<string[]> {
    const rows = await this.page.getByRole('list', { name: 'Fields' }).locator('li.fb-field').all();
    return Promise.all(rows.map((row) => row.getAttribute('aria-label').then((name) => name ?? '')));
  }

  tab(name: 'Fields' | 'Preview'): Locator {
    return this.page.getByRole('tab', { name: new RegExp(`^${name}`) });
  }

  preview(): Locator {
    return this.page.getByRole('region', { name: 'Preview' });
  }

  /** Saves the form; the builder goes back to the list. */
  async save() {
    await this.page.getByRole('button', { name: 'Save form' }).click();
    await this.rendered('Form builder');
  }
}
