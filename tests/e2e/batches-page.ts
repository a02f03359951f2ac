/** The batch screens, named once, for the end-to-end tests. */
import type { Page } from 'playwright-core';
import { AppPage } from './app-page';

export class BatchesPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  async openList() {
    await this.open('/dashboard/batches');
    await this.rendered('Batches');
  }

  sheet(name: string | RegExp) {
    return this.page.getByRole('dialog', { name, exact: true });
  }

  /** A batch's card in the list: a button named by what it shows, its batch number first. */
  card(batchNumber: string) {
    const escaped = batchNumber.replace(/[.*+?^$()[\]{}|\\]/g, '\\$&');
    return this.page.getByRole('list', { name: 'Batches', exact: true }).getByRole('button', { name: new RegExp(`^${escaped}\\s`) });
  }

  /** Opens a batch's sheet from the list. */
  async openBatch(batchNumber: string) {
    await this.card(batchNumber).click();
    await this.sheet(`Batch ${batchNumber}`).waitFor();
    return this.sheet(`Batch ${batchNumber}`);
  }

}
