/** The command bar (on the dashboard and a room), named once for the end-to-end tests. */
import type { Page } from 'playwright-core';
import { RoomsPage } from './rooms-page';

export class CommandsPage extends RoomsPage {
  constructor(page: Page) {
    super(page);
  }

  /** The bar: it loads after the screen has painted. */
  bar() {
    return this.page.getByRole('region', { name: 'Command', exact: true });
  }

  /** Types a command and reads it (the bar's "Read command"). */
  async read(command: string) {
    const bar = this.bar();
    await bar.getByLabel('Type a command').fill(command);
    await bar.getByRole('button', { name: 'Read command' }).click();
  }

  /** The confirm list: each action in words. */
  confirmList() {
    return this.bar().getByRole('list', { name: 'Run these actions?' });
  }

  async run() {
    await this.bar().getByRole('button', { name: 'Run', exact: true }).click();
    await this.resultsList().waitFor();
  }

  /** The list after running: each action in words with what became of it. */
  resultsList() {
    return this.bar().getByRole('list', { name: 'Command run' });
  }

  /** The answer to a command the tablet could not read. */
  unparsed() {
    return this.bar().locator('.command-unparsed');
  }

  /** Whether the room shows the box at column x, row y as culled. */
  async culled(grid: string, x: number, y: number): Promise<boolean> {
    return (await this.box(grid, x, y).getAttribute('data-culled')) === 'true';
  }
}
