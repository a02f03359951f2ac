/** The pest-pressure map (src/features/pest-pressure), named once for the end-to-end tests. */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { AppPage } from './app-page';

/** A hex colour as the browser's computed style writes it (a circle's colour, compared with the company's). */
export function rgb(hex: string) {
  const [r, g, b] = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

export class PestPressurePage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** Opens the map from the room's screen (its "Pest pressure" link). */
  async openFromRoom(roomName: string) {
    await this.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rooms' }).click();
    await this.rendered('Rooms');
    await this.page.getByRole('listitem', { name: roomName }).getByRole('link', { name: 'Open' }).click();
    await this.rendered(roomName);
    await this.page.getByRole('link', { name: 'Pest pressure' }).click();
    await this.rendered(`Pest pressure: ${roomName}`);
  }

  grid(name: string) {
    return this.page.getByRole('region', { name: `Grid ${name}` });
  }

  box(grid: string, x: number, y: number) {
    return this.grid(grid).locator(`.pp-box[data-x="${x}"][data-y="${y}"]`);
  }

  /** The circles of a box: each its type's key, the text shown and the ring's colour. */
  circles(grid: string, x: number, y: number): Promise<Array<{ problem: string; text: string; color: string }>> {
    return this.box(grid, x, y)
      .locator('.pp-circle')
      .evaluateAll((circles) =>
        circles.map((circle) => ({
          problem: circle.getAttribute('data-problem') ?? '',
          // The text seen (the type's name is there for screen readers only).
          text: [...circle.childNodes].filter((node) => !(node instanceof HTMLElement && node.classList.contains('pp-hidden'))).map((node) => node.textContent ?? '').join('').replace(/\s+/g, ' ').trim(),
          color: getComputedStyle(circle).borderTopColor,
        })),
      );
  }

  /** The legend's entries as "type: count". */
  async legend(): Promise<string[]> {
    const entries = this.page.getByRole('region', { name: 'Legend' }).locator('.pp-legend-entry');
    return entries.evaluateAll((buttons) => buttons.map((button) => `${button.getAttribute('data-problem')}: ${button.getAttribute('data-count')}`));
  }

  slider() {
    return this.page.getByRole('slider', { name: /Week shown/ });
  }

  /** Moves the week slider to `weeksAgo` weeks back (0 is now). */
  async showWeeksAgo(weeksAgo: number) {
    await this.slider().fill(String(12 - weeksAgo));
  }

  panel() {
    return this.page.getByRole('dialog');
  }

  async openBox(grid: string, x: number, y: number) {
    await this.box(grid, x, y).click();
    await this.panel().waitFor();
  }

  /** Resolves one open problem of a box from its panel on the map, and closes the panel. */
  async resolveOnBox(grid: string, x: number, y: number, problemType: string) {
    await this.openBox(grid, x, y);
    const item = this.panel().getByRole('listitem', { name: problemType });
    await item.getByRole('button', { name: 'Resolve' }).click();
    await item.waitFor({ state: 'detached' });
    await this.panel().getByRole('button', { name: 'Close' }).click();
    await this.panel().waitFor({ state: 'detached' });
  }

  /** The screen's check once the toasts have gone, so they hide nothing. */
  async shot(name: string) {
    await expect.poll(() => this.page.locator('.notistack-Snackbar').count(), { timeout: 10_000 }).toBe(0);
    await this.checkScreen(name);
  }
}
