/** The treatments screen (treatmentProduct), named once, for the end-to-end tests. */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { AppPage } from './app-page';

export type ProductField = 'Product name' | 'Active ingredient' | 'Rate' | 'Rate unit' | 'Re-entry interval (hours)' | 'Pre-harvest interval (days)';

export class TreatmentsPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** Opens the screen by its address (the main navigation has no link to it yet). */
  async openTreatments() {
    await this.open('/dashboard/treatmentProduct');
    await this.rendered('Treatments');
  }

  productForm(name = 'New spray product') {
    return this.page.getByRole('form', { name });
  }

  /** Fills the new product's form with `fields` and submits it. */
  async addProduct(fields: Partial<Record<ProductField, string>>) {
    await this.page.getByRole('button', { name: 'Add product' }).click();
    const form = this.productForm();
    for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: true }).fill(value);
    await form.getByRole('button', { name: 'Add product' }).click();
  }

  products() {
    return this.page.getByRole('list', { name: 'Spray products' });
  }

  product(name: string) {
    return this.products().getByRole('listitem', { name });
  }

  typePicker() {
    return this.page.getByRole('group', { name: 'Treatment type' });
  }

  /** The card of a product's treatment of the chosen type. */
  treatment(type: string, product: string) {
    return this.page.getByRole('listitem', { name: `${type} treatment for ${product}` });
  }

  sprayForm() {
    return this.page.getByRole('form', { name: 'Spray boxes' });
  }

  sprayField(label: 'Room' | 'Grid' | 'Product' | 'Quantity' | 'Unit' | 'Sprayed at' | 'Notes') {
    // A label wraps its control, so a select's name runs on into its options: matched by its start.
    return this.sprayForm().getByLabel(new RegExp(`^${label}`));
  }

  /** Chooses the option of `select` whose text starts with `text`. */
  async choose(select: Locator, text: string) {
    const option = select.locator('option').filter({ hasText: text }).first();
    await option.waitFor({ state: 'attached', timeout: 30_000 });
    await select.selectOption((await option.getAttribute('value')) ?? '');
  }

  /** A box of the spray picker's grid, by the name the room screen gives it ("Box 2"; its re-entry end may follow). */
  box(label: string) {
    return this.sprayForm().getByRole('button', { name: new RegExp(`^${label}( |$)`) });
  }

  recentSprays() {
    return this.page.getByRole('list', { name: 'Recent sprays' });
  }

  /** The screen's check once the toasts (3 s each) have gone, so they hide nothing of it. */
  async check(name: string) {
    await expect.poll(() => this.page.locator('.notistack-Snackbar').count(), { timeout: 10_000 }).toBe(0);
    await this.checkScreen(name);
  }
}
