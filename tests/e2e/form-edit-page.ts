/** The correction screen (rooms/FormEdit, issue 18) and the observations it is opened from, named once for the end-to-end tests. */
import type { Locator, Page } from 'playwright-core';
import { FormsPage } from './forms-page';

export class FormEditPage extends FormsPage {
  constructor(page: Page) {
    super(page);
  }

  /** Opens the correction of the (first) response of an observations box, with its "Correct" link. */
  async openCorrection(boxNumber: number) {
    await this.observationBox(boxNumber).getByRole('link', { name: /^Correct / }).first().click();
    await this.rendered('Correct a response');
    await this.correctionForm().waitFor();
  }

  async backToObservations() {
    await this.page.getByRole('link', { name: 'Back to observations' }).click();
    await this.rendered('Observations');
  }

  /** The form of the answers as they are now. */
  correctionForm(): Locator {
    return this.page.locator('form.correct-form');
  }

  /** An answer's control on the correction form, by its field's name. */
  correctionField(fieldName: string): Locator {
    return this.correctionForm().getByLabel(fieldName, { exact: true });
  }

  async correct(fieldName: string, value: string) {
    await this.correctionField(fieldName).fill(value);
  }

  async giveReason(reason: string) {
    await this.correctionForm().getByLabel('Reason for the correction', { exact: true }).fill(reason);
  }

  async saveCorrection() {
    await this.correctionForm().getByRole('button', { name: 'Save correction' }).click();
  }

  /** The correction form's error (its role="alert" line), or null when there is none. */
  async correctionError(): Promise<string | null> {
    const alert = this.correctionForm().getByRole('alert');
    return (await alert.count()) > 0 ? alert.textContent() : null;
  }

  /** What the form says once a correction is saved. */
  savedNote(): Locator {
    return this.correctionForm().locator('.correction-saved');
  }

  /** The corrections, newest first, each as its text. */
  corrections(): Promise<string[]> {
    return this.page.getByRole('region', { name: 'Corrections', exact: true }).locator('.correction-item').allInnerTexts();
  }

  /** The corrected fields' values as submitted, as "Field: value (now …)". */
  async originals(): Promise<string[]> {
    const rows = this.page.getByRole('region', { name: 'As submitted', exact: true }).locator('dl > div');
    return (await rows.allInnerTexts()).map((text) => text.replace(/\s*\n\s*/g, ': '));
  }

  /** An answer as an observations box shows it, by field name: "21 (submitted as 12)". */
  async observedAnswer(boxNumber: number, fieldName: string): Promise<string> {
    const row = this.observationBox(boxNumber).locator('.answers > div').filter({ has: this.page.locator('dt', { hasText: fieldName }) }).first();
    return (await row.locator('dd').innerText()).trim();
  }

  /** The tags of an observations box's first response ("Scouting", "Corrected"). */
  observedTags(boxNumber: number): Promise<string[]> {
    return this.observationBox(boxNumber).locator('.response').first().locator('.response-head .tag').allInnerTexts();
  }
}
