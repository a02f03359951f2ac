/** The scan screens as a grower uses them: scanNow's setup and walk, the trap marks, the history. */
import type { Page } from 'playwright-core';
import { AppPage } from './app-page';

export class ScansPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  async openScanNow() {
    await this.open('/dashboard/scanNow');
    await this.rendered('Scan now');
  }

  /** Chooses what to scan and where, and starts the walk. */
  async start(input: { scan: 'Disease scan' | 'Sticky-trap count'; room: string; grid: string }) {
    await this.page.getByLabel('Scan', { exact: true }).selectOption({ label: input.scan });
    await this.page.getByLabel('Room').selectOption({ label: input.room });
    await this.page.getByLabel('Grid').selectOption({ label: input.grid });
    await this.page.getByRole('button', { name: 'Start scan' }).click();
    await this.page.getByRole('button', { name: 'Finish scan' }).waitFor();
  }

  /** Feeds a photo to the camera input of the box being scanned, as the tablet's camera would hand it over. */
  async takePhoto(file: { name: string; mimeType: string; buffer: Buffer }) {
    await this.page.locator('.box-scan input[type="file"]').setInputFiles(file);
  }

  status() {
    return this.page.locator('.scan-status').textContent();
  }

  /** Waits until the photo's analysis has answered (or failed). */
  async analysed() {
    await this.page.waitForFunction(() => {
      const text = document.querySelector('.scan-status')?.textContent ?? '';
      return !text.startsWith('Analysing') && !text.startsWith('Photograph');
    }, null, { timeout: 60_000 });
  }

  /** Waits until the marks are drawn: they are laid over the photo once it has loaded, which may be after the analysis answered. */
  async marksDrawn() {
    await this.page.locator('.trap-photo svg').waitFor({ timeout: 30_000 });
  }

  /** The marks drawn over the trap's photo. */
  marks() {
    return this.page.locator('.trap-photo svg circle');
  }

  /** The count shown for a size class. */
  async count(sizeClass: 'thrips' | 'whitefly_aphid' | 'gnat_fly'): Promise<number> {
    return Number(await this.page.locator(`td[data-count="${sizeClass}"]`).first().textContent());
  }

  /** Taps the photo at a point given as fractions of its width and height. */
  async tapPhoto(x: number, y: number) {
    const box = await this.page.locator('.trap-photo svg').boundingBox();
    if (!box) throw new Error('No trap photo shown');
    await this.page.mouse.click(box.x + x * box.width, box.y + y * box.height);
  }

  /** The centre of the n-th mark, as fractions of the photo. */
  async markAt(index: number): Promise<{ x: number; y: number }> {
    return this.marks()
      .nth(index)
      .evaluate((circle) => {
        const svg = (circle as SVGCircleElement).ownerSVGElement!;
        const view = svg.viewBox.baseVal;
        return { x: Number(circle.getAttribute('cx')) / view.width, y: Number(circle.getAttribute('cy')) / view.height };
      });
  }

  async saveBox() {
    await this.page.getByRole('button', { name: 'Save and next box' }).click();
  }

  async finish() {
    await this.page.getByRole('button', { name: 'Finish scan' }).click();
    await this.page.waitForURL((url) => url.pathname.startsWith('/dashboard/scanHistory/'));
  }
}
